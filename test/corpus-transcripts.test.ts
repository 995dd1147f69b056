/**
 * The extraction pipeline against the real Claude Code transcripts of the shared corpus: every file reads
 * cleanly, and each named file gives its hand-checked facts (helpers/corpus-facts.ts says how they were
 * derived) and, below, its final task list, most recent files and current task.
 */
import { describe, expect, it } from 'vitest'
import { CORPUS_PRESENT, claudeFiles, claudePath, firstCwd, loadCorpus } from './helpers/corpus.js'
import { FACTS, byFileTools, isProjectRelative, isWindowsRoot, key, keys } from './helpers/corpus-facts.js'
import { snapshotOf } from './helpers/extract.js'

/**
 * Final task lists of the TaskCreate/TaskUpdate sessions, as [id, subject, status], ids ascending.
 * Hand-checked as described in helpers/corpus-facts.ts; per-file evidence in the comments.
 */
const TASKS: Record<string, [string, string, string][]> = {
  // Main thread: 12 TaskCreate (#1..#12). Main-thread TaskUpdate completes 1, 2, 3, 4, 5, 7, 11, 12; subagents
  // (agent_progress lines 341, 486/492, 527, 528, 571, 572, 905, 906, 1049, 1093) complete 3, 5, 4, 6, 8, 9,
  // 11, 12 and 10 (in_progress at 1049, completed at 1093, result line 1094 "Updated task #10 status").
  // The main-thread TaskList at line 946 already shows #6, #8, #9 [completed] and #10 [pending].
  'cc-2.1.20-taskcreate-local-command-mcp-b82405ba.jsonl': [
    ['1', 'Add summary types to checkpoint/checkpoint.go', 'completed'],
    ['2', 'Create summarize.go with interface and types', 'completed'],
    ['3', 'Implement ClaudeCLIGenerator', 'completed'],
    ['4', 'Add --generate and --force flags to explain.go', 'completed'],
    ['5', 'Add persistence for updating summaries', 'completed'],
    ['6', 'Update display formatting for summaries', 'completed'],
    ['7', 'Add unit tests for condensed transcript builder', 'completed'],
    ['8', 'Add unit tests for summary display formatting', 'completed'],
    ['9', 'Run linting and full test suite', 'completed'],
    ['10', 'Refactor summarize code into separate package', 'completed'],
    ['11', 'Address review feedback from batch 1', 'completed'],
    ['12', 'Address review feedback from batch 2', 'completed'],
  ],
  // All main thread: TaskCreate lines 187-195, each task in_progress then completed (last TaskUpdate line 464).
  'cc-2.1.29-image-compact1-062a8bdd.jsonl': [
    ['1', 'Add EndedAt field to session State struct', 'completed'],
    ['2', 'Add Claude Code session-end hook constant and installation', 'completed'],
    ['3', 'Add markSessionEnded helper and Claude handler', 'completed'],
    ['4', 'Update Gemini handleGeminiSessionEnd and fix logging', 'completed'],
    ['5', 'Run verification (fmt, lint, tests)', 'completed'],
  ],
  // Main thread sets #1 in_progress (line 269) and never completes it; a subagent does (agent_progress line 303,
  // TaskUpdate {taskId:"1",status:"completed"}, result "Updated task #1 status" at 304), and the main-thread
  // TaskList at line 318/319 shows "#1 [completed]". #2..#7 are completed by the main thread (last at 617).
  'cc-2.1.29-pr-link-compact2-mcp-1e0816ef.jsonl': [
    ['1', 'Add SummariseOptions to config.go', 'completed'],
    ['2', 'Extract shared GenerateFromTranscript helper', 'completed'],
    ['3', 'Refactor explain.go to use shared helper', 'completed'],
    ['4', 'Add Summary field to WriteCommittedOptions', 'completed'],
    ['5', 'Add summary generation to CondenseSession', 'completed'],
    ['6', 'Update README documentation', 'completed'],
    ['7', 'Lint and final verification', 'completed'],
  ],
  // All main thread: TaskCreate lines 53-59, TaskUpdates 61-216, all completed.
  'cc-2.1.42-pr-link-compact1-c010174c.jsonl': [
    ['1', 'Add custom UnmarshalJSON for GeminiMessage content field', 'completed'],
    ['2', 'Add tests for real Gemini transcript format with array content', 'completed'],
    ['3', 'Add strategy-level regression test for sessionHasNewContent with Gemini', 'completed'],
    ['4', 'Run fmt, lint, and all tests', 'completed'],
  ],
  // All main thread: TaskCreate #1..#10 (lines 218-236), #11 (566); addBlockedBy updates on #9/#10 carry no
  // status; every task ends completed (last: #10 at line 686).
  'cc-2.1.49-malformed-toolname-compact1-f7594e2b.jsonl': [
    ['1', 'H1: Add file key re-wrapping to collectChildKeys', 'completed'],
    ['2', 'H2: Add DTO input validation for hex fields', 'completed'],
    ['3', 'H3: Remove userId from lookup endpoint response', 'completed'],
    ['4', 'H4: Fix unique constraint for soft-delete revocation', 'completed'],
    ['5', 'M2: Document zeroing contract in reWrapForRecipients', 'completed'],
    ['6', 'M3: Zero folder keys on navigation away', 'completed'],
    ['7', 'M4: Add TTL to share keys cache', 'completed'],
    ['8', 'L2/L3/L4: Fix low-priority items', 'completed'],
    ['9', 'Regenerate API client and verify build', 'completed'],
    ['10', 'Update security review with resolution status and commit', 'completed'],
    ['11', 'Implement suggested security test cases', 'completed'],
  ],
}

/**
 * The snapshot's inside files, most recent first: the first ones, ordered by the line of their last
 * Write/Edit/MultiEdit tool_use (hand-checked; none of these sessions changes files with shell commands).
 */
const MOST_RECENT: Record<string, string[]> = {
  'cc-1.0.111-multiedit-todowrite-cb947e5b.jsonl': ['src/game/HistoryLog.tsx', 'src/app/globals.css'], // 31, 17
  'cc-1.0.98-inline-sidechains-multiedit-bashoutput-fe5e1c67.jsonl': ['CLAUDE.md', 'todo-app/src/app/page.tsx', 'todo-app/src/hooks/useSimpleTodos.ts'], // 436, 386, 383
  'cc-2.0.76-compact1-task-todowrite-847ff7d2.jsonl': [
    'cmd/entire/cli/strategy/cleanup.go',
    'cmd/entire/cli/checkpoint/checkpoint_test.go',
    'cmd/entire/cli/checkpoint/committed.go',
  ], // 411, 341, 322
  'cc-2.1.49-malformed-toolname-compact1-f7594e2b.jsonl': [
    '.learnings/2026-02-21-phase14-user-to-user-sharing.md',
    'packages/crypto/src/__tests__/rewrap.test.ts',
    '.planning/todos/pending/2026-02-21-phase14-security-review-deferred.md',
  ], // 746, 576, 415
  // 1164 (main thread), then line 1085, a subagent's `rm` of summarize.go, summarize_claude.go,
  // summarize_test.go and summarize_claude_test.go (ties in path order); shell deletes count as changes
  'cc-2.1.20-taskcreate-local-command-mcp-b82405ba.jsonl': [
    'cmd/entire/cli/summarise/claude.go',
    'cmd/entire/cli/summarize.go',
    'cmd/entire/cli/summarize_claude.go',
  ],
  'cc-2.1.5-long-compact2-44df7d08.jsonl': [
    'cmd/entire/cli/integration_test/concurrent_session_warning_test.go',
    'cmd/entire/cli/checkpoint/checkpoint.go',
    'cmd/entire/cli/strategy/auto_commit.go',
  ], // 933, 892, 880
}

/**
 * The current task of the snapshot (latest substantial request, see currentTask): the last request is a
 * bare reply, so the one before it must be chosen. Phrases from the hand-checked prompt lines.
 */
const CURRENT_TASK: Record<string, string> = {
  // last request L377 "3"; before it L358
  'cc-2.0.76-compact1-task-todowrite-847ff7d2.jsonl': 'regarding:  9. CleanupItem.Reason Never Displayed',
  // last request L218 "yes please"; before it L211
  'cc-2.1.12-progress-local-command-mcp-04cd0da1.jsonl': "I'm considering if we want to specify what's contained in the files",
  // last request L76 "yes"; before it L65
  'cc-2.1.205-windows-pr-link-small-e3c445a1.jsonl': 'there are em dahses here?',
}

describe.skipIf(!CORPUS_PRESENT)('corpus: every Claude Code transcript', () => {
  it('is read without an exception, with every line consumed and none skipped', async () => {
    const files = claudeFiles()
    expect(files.length).toBeGreaterThanOrEqual(38)
    const expectedLines = new Map(FACTS.map((f) => [f.file, f.lines]))
    const rows: string[] = []
    let totalLines = 0
    let totalSkipped = 0
    for (const name of files) {
      const { stats, state } = await loadCorpus(name)
      rows.push(`${name}: lines=${stats.lines} skipped=${stats.skipped} oversized=${stats.oversized} entries=${stats.entries} partialTail=${stats.partialTail}`)
      totalLines += stats.lines
      totalSkipped += stats.skipped
      expect(stats.restarted, name).toBe(false)
      expect(stats.oversized, name).toBe(0)
      expect(stats.entries, name).toBeGreaterThan(0)
      expect(state.counts.entries, name).toBe(stats.entries)
      // Hand-checked: every line of the corpus is a JSON object with a string `type`.
      expect(stats.skipped, name).toBe(0)
      // Every file ends in a complete JSON line (16 of them without a final newline), so all lines count.
      expect(stats.partialTail, name).toBe(false)
      const want = expectedLines.get(name)
      if (want !== undefined) expect(stats.lines, name).toBe(want)
      for (const k of Object.keys(state.files)) expect(isProjectRelative(k), `${name}: inside key ${k}`).toBe(true)
    }
    console.log(`corpus: ${files.length} Claude Code transcripts, ${totalLines} lines, ${totalSkipped} skipped\n  ${rows.join('\n  ')}`)
    expect(totalSkipped).toBe(0)
  })

  it('has hand-checked facts about named corpus files (all 38 today)', () => {
    const files = new Set(claudeFiles())
    for (const f of FACTS) expect(files.has(f.file), f.file).toBe(true)
    expect(new Set(FACTS.map((f) => f.file)).size).toBe(FACTS.length)
    expect(FACTS.length).toBeGreaterThanOrEqual(12)
  })
})

describe.skipIf(!CORPUS_PRESENT)('corpus: hand-checked facts per transcript', () => {
  for (const fact of FACTS) {
    const win = isWindowsRoot(fact.root)
    describe(fact.file, () => {
      it('uses the first cwd as project root and reads the versions', async () => {
        const { root, state } = await loadCorpus(fact.file)
        expect(root).toBe(fact.root)
        expect(await firstCwd(claudePath(fact.file))).toBe(fact.root)
        expect([...state.versions].sort()).toEqual(fact.versions)
      })

      it('finds the files changed by Write/Edit/MultiEdit/NotebookEdit, inside and outside the project', async () => {
        const { state } = await loadCorpus(fact.file)
        const inside = byFileTools(state.files)
        const got = keys(
          inside.map((r) => r.path),
          win,
        )
        if (fact.edited) expect(got).toEqual(keys(fact.edited, win))
        if (fact.editedIncludes) for (const p of fact.editedIncludes) expect(got).toContain(key(p, win))
        if (fact.editedCount !== undefined) expect(got).toHaveLength(fact.editedCount)
        if (fact.subagentOnly !== undefined) expect(inside.filter((r) => r.subagent)).toHaveLength(fact.subagentOnly)
        else expect(inside.filter((r) => r.subagent).map((r) => r.path)).toEqual([])
        for (const r of inside) expect(isProjectRelative(r.path), r.path).toBe(true)
        expect(
          keys(
            byFileTools(state.outside).map((r) => r.path),
            win,
          ),
        ).toEqual(keys(fact.outside, win))
        for (const [path, from] of fact.moved ?? []) expect(state.files[path]?.from).toBe(from)
      })

      it('counts the compactions', async () => {
        const { state } = await loadCorpus(fact.file)
        expect(state.compactions.map((c) => [c.trigger, c.preTokens])).toEqual(fact.compactions)
        expect(state.microcompactions).toBe(fact.micro)
      })

      if (fact.lastPrompt) {
        const lp = fact.lastPrompt
        it(`takes line ${lp.line} as the last real request`, async () => {
          const { state } = await loadCorpus(fact.file)
          const last = state.recentPrompts.at(-1)
          expect(last?.line).toBe(lp.line)
          if (lp.text !== undefined) expect(last?.text.trim()).toBe(lp.text)
          if (lp.contains !== undefined) expect(last?.text).toContain(lp.contains)
          expect(state.prompts.at(-1)?.line).toBe(lp.line)
          expect(state.prompts.at(-1)?.text.length).toBeLessThanOrEqual(500)
        })
      }

      if (fact.todos) {
        const todos = fact.todos
        it('keeps the last TodoWrite list', async () => {
          const { state, root } = await loadCorpus(fact.file)
          expect(state.todos?.map((t) => [t.content, t.status])).toEqual(todos)
          const snap = snapshotOf(state, root)
          expect(snap.tasks.source).toBe('TodoWrite')
          expect(snap.tasks.items.map((t) => [t.text, t.status])).toEqual(todos)
        })
      }

      const tasks = TASKS[fact.file]
      if (tasks) {
        it('ends with the hand-checked TaskCreate/TaskUpdate list', async () => {
          const { state, root } = await loadCorpus(fact.file)
          const snap = snapshotOf(state, root)
          expect(snap.tasks.source).toBe('TaskCreate')
          expect(snap.tasks.items.map((t) => [t.id, t.text, t.status])).toEqual(tasks)
        })
      }

      const recent = MOST_RECENT[fact.file]
      if (recent) {
        it('lists the snapshot files most recent first', async () => {
          const { state, root } = await loadCorpus(fact.file)
          expect(
            snapshotOf(state, root)
              .files.slice(0, recent.length)
              .map((r) => r.path),
          ).toEqual(recent)
        })
      }

      const current = CURRENT_TASK[fact.file]
      if (current) {
        it('picks the latest substantial request as the current task', async () => {
          const { state, root } = await loadCorpus(fact.file)
          expect(snapshotOf(state, root).task).toContain(current)
        })
      }

      if (!fact.todos && !tasks && !fact.file.startsWith('cc-2.1.41-agent-teams')) {
        it('has no task list', async () => {
          const { state, root } = await loadCorpus(fact.file)
          const snap = snapshotOf(state, root)
          expect(snap.tasks.items).toEqual([])
        })
      }
    })
  }
})

describe.skipIf(!CORPUS_PRESENT)('corpus: agent teams (cc-2.1.41)', () => {
  // Teammates are separate sessions: their TaskUpdates are not in this file. The only record of their
  // progress is the main thread's TaskList result; the last one (line 182, toolUseResult.tasks) says
  // #2, #3, #5, #6 completed, #1 and #4 in_progress. No later TaskUpdate/TaskCreate in the file.
  it('keeps the six TaskCreate subjects, and the statuses the last TaskList reported', async () => {
    const { state, root } = await loadCorpus('cc-2.1.41-agent-teams-7e7f49b0.jsonl')
    const items = snapshotOf(state, root).tasks.items
    expect(items.map((t) => [t.id, t.text])).toEqual([
      ['1', 'Backend: Redis response cache + redirect_slashes fix'],
      ['2', 'Frontend: Fix Next.js proxy TTFB + trailing slash'],
      ['3', 'Frontend: Query deduplication + polling optimization'],
      ['4', 'Frontend: Dashboard rendering performance (3D, animations, RAF, Suspense)'],
      ['5', 'Frontend: Auth race condition fix'],
      ['6', 'Infrastructure: Redis LRU eviction policy'],
    ])
    const status = Object.fromEntries(items.map((t) => [t.id, t.status]))
    expect([status['2'], status['3'], status['5'], status['6']]).toEqual(['completed', 'completed', 'completed', 'completed'])
    expect(status['1']).not.toBe('pending')
    expect(status['4']).not.toBe('pending')
  })
})
