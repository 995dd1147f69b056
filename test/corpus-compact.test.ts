/**
 * The compact resume at every compaction of the named corpus transcripts (issue 18, item 10): the moment
 * PreCompact sees, that is the transcript up to its `compact_boundary` line, captured and rendered with the
 * default compactBudget. Each resume must state the exact latest request before the boundary, the open task
 * ids, every file of the session (those changed before an earlier compaction too) and stay within 2,000
 * characters; Claude Code's own summary (the isCompactSummary record after the boundary) is measured beside it.
 *
 * Facts hand-checked from the raw lines, independently of src/ (see helpers/corpus-facts.ts for the rules):
 * - latest: the last request line before the boundary by the lastPrompt rule of corpus-facts.ts (a message
 *   typed while a tool ran counts: 062a8bdd line 566).
 * - open: TaskCreate results and TaskUpdate statuses before the boundary, subagents' progress lines included;
 *   TodoWrite sessions: the last todo list's items not completed.
 * - earlier: for a second compaction, files written before the first one; `dropped`: those of them whose
 *   name Claude's summary after the second boundary does not contain (2 of the 5 second compactions).
 * - summary: characters of the isCompactSummary record's content.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { KEYS } from '../src/config/keys.js'
import { applyEntry, createDelta, createState } from '../src/extract/extract.js'
import { redact } from '../src/redact/secrets.js'
import { cutToBudget } from '../src/restore/budget.js'
import { renderCompactResume } from '../src/restore/compact.js'
import { type Snapshot, toSnapshot } from '../src/snapshot/model.js'
import { parseLine } from '../src/hosts/claude/lines.js'
import { CORPUS_PRESENT, claudePath, firstCwd } from './helpers/corpus.js'

interface Fact {
  file: string
  /** 1-based line of the compact_boundary record. */
  boundary: number
  /** The latest request's line and its first line of text (none: no request before the boundary). */
  latest?: { line: number; text: string }
  /** Open task ids (TaskCreate), or texts of open todos (TodoWrite). */
  open: string[]
  earlier?: string[]
  dropped?: string[]
  summary: number
}

const FACTS: Fact[] = [
  {
    file: 'cc-2.0.76-compact1-task-todowrite-847ff7d2.jsonl',
    boundary: 232,
    latest: { line: 184, text: 'is shadowBranchHashLength now used everywhere?' },
    open: [],
    summary: 8462,
  },
  {
    file: 'cc-2.1.14-compact2-mcp-progress-0cf3db51.jsonl',
    boundary: 157,
    latest: {
      line: 149,
      text: "I don't think the reviewer would have been making commits. and as you note, the commits are nearly a minute apart. you're about to run out of context so let's compact and come at this fresh",
    },
    open: [],
    summary: 10532,
  },
  {
    file: 'cc-2.1.14-compact2-mcp-progress-0cf3db51.jsonl',
    boundary: 427,
    latest: { line: 419, text: 'I think the reuse is for the scenario where the _user_ has made the additional commit and claude is dormant' },
    open: ['Implement fix for checkpoint ID reuse bug', 'Write test to prevent regression', 'Verify fix works'],
    earlier: ['cmd/entire/cli/explain.go'],
    dropped: [],
    summary: 10133,
  },
  {
    file: 'cc-2.1.17-long-compact2-askuser-f4237e82.jsonl',
    boundary: 347,
    latest: { line: 304, text: "yeah let's apply this to carry forward too" },
    open: [],
    summary: 12775,
  },
  {
    file: 'cc-2.1.17-long-compact2-askuser-f4237e82.jsonl',
    boundary: 640,
    latest: { line: 568, text: 'Can you address the following items: ' },
    open: [],
    earlier: [
      'cmd/entire/cli/strategy/content_overlap_test.go',
      'cmd/entire/cli/strategy/manual_commit_hooks.go',
      'cmd/entire/cli/strategy/content_overlap.go',
      'docs/architecture/checkpoint-scenarios.md',
    ],
    dropped: ['cmd/entire/cli/strategy/manual_commit_hooks.go'],
    summary: 11613,
  },
  {
    file: 'cc-2.1.20-taskcreate-local-command-mcp-b82405ba.jsonl',
    boundary: 989,
    latest: { line: 954, text: "C) update this branch from alex/ent-109-text-output-checkpoint-flag first, then let's tackle #10" },
    open: ['10'],
    summary: 12054,
  },
  {
    file: 'cc-2.1.29-image-compact1-062a8bdd.jsonl',
    boundary: 576,
    latest: { line: 566, text: "and let's think about how we consolidate the agent-specific hook types with these if possible" },
    open: [],
    summary: 13571,
  },
  {
    file: 'cc-2.1.29-pr-link-compact2-mcp-1e0816ef.jsonl',
    boundary: 310,
    latest: { line: 245, text: '1' },
    open: ['2', '3', '4', '5', '6', '7'],
    summary: 8297,
  },
  {
    file: 'cc-2.1.29-pr-link-compact2-mcp-1e0816ef.jsonl',
    boundary: 1088,
    latest: { line: 1065, text: 'has that skill filtering been applied to entire explain as well?' },
    open: [],
    earlier: [
      'cmd/entire/cli/config.go',
      'cmd/entire/cli/config_test.go',
      'docs/plans/2026-02-01-auto-summarise-impl.md',
      'docs/plans/2026-02-01-auto-summarise-design.md',
    ],
    dropped: [
      'cmd/entire/cli/config.go',
      'cmd/entire/cli/config_test.go',
      'docs/plans/2026-02-01-auto-summarise-impl.md',
      'docs/plans/2026-02-01-auto-summarise-design.md',
    ],
    summary: 4241,
  },
  {
    file: 'cc-2.1.36-pr-link-compact1-53ea1606.jsonl',
    boundary: 269,
    latest: { line: 230, text: "I've merged the other PR but we now have some merge issues. " },
    open: [],
    summary: 11953,
  },
  {
    file: 'cc-2.1.42-pr-link-compact1-c010174c.jsonl',
    boundary: 394,
    latest: {
      line: 383,
      text: "what did soph introduce in terms of gemini tests and his fix? how is it possible his e2e tests pass if he didn't fix the root cause we identified?",
    },
    open: [],
    summary: 16863,
  },
  {
    file: 'cc-2.1.49-malformed-toolname-compact1-f7594e2b.jsonl',
    boundary: 597,
    latest: { line: 152, text: 'ok, lets commit the review as it is, and then address the following findings: H1, H2, H3, H4, M2, M3, M4, L2, L3, L4.' },
    open: ['10'],
    summary: 16666,
  },
  {
    file: 'cc-2.1.5-api-error-compact2-b00b80af.jsonl',
    boundary: 60,
    latest: { line: 27, text: 'and when I do `entire resume` it goes through the same code path?' },
    open: [],
    summary: 11151,
  },
  {
    file: 'cc-2.1.5-api-error-compact2-b00b80af.jsonl',
    boundary: 281,
    latest: {
      line: 261,
      text: 'can we add a safety check looking at the last entry in each log and if the one that would be replaced has newer timestamps, then we ask for confirmation regarding overwriting?',
    },
    open: [],
    earlier: ['cmd/entire/cli/resume.go'],
    dropped: [],
    summary: 10339,
  },
  {
    file: 'cc-2.1.5-long-compact2-44df7d08.jsonl',
    boundary: 427,
    latest: { line: 419, text: 'Can we prefill the prompt with the old prompt?' },
    open: [],
    summary: 10099,
  },
  {
    file: 'cc-2.1.5-long-compact2-44df7d08.jsonl',
    boundary: 907,
    latest: { line: 848, text: 'there are now merge conflicts against main, can you fix them? ideally just reabse onto main' },
    open: [],
    earlier: [
      'cmd/entire/cli/hooks_claudecode_handlers.go',
      'cmd/entire/cli/integration_test/concurrent_session_warning_test.go',
      'cmd/entire/cli/strategy/manual_commit_rewind.go',
      'cmd/entire/cli/strategy/auto_commit.go',
      'cmd/entire/cli/strategy/common.go',
      'cmd/entire/cli/rewind.go',
      'cmd/entire/cli/strategy/strategy.go',
    ],
    dropped: [],
    summary: 11955,
  },
  // Windows transcripts (paths with backslashes): measured too.
  {
    file: 'cc-2.1.217-windows-compact1-artifact-sendmessage-6c0a282a.jsonl',
    boundary: 543,
    latest: { line: 358, text: 'go ahead with phase 1' },
    open: [],
    summary: 24447,
  },
  { file: 'cc-2.1.219-windows-long-compact1-image-api-error-6b6f4218.jsonl', boundary: 6, open: [], summary: 20833 },
]

interface Moment {
  boundary: number
  snapshot: Snapshot
  resume: string
  summary: string
}

/** Each compaction of `name` as PreCompact sees it: the capture up to the boundary, and the resume restore would inject. */
async function moments(name: string): Promise<Moment[]> {
  const path = claudePath(name)
  const root = (await firstCwd(path)) ?? '/'
  const lines = readFileSync(path, 'utf8').split('\n')
  const state = createState()
  const delta = createDelta()
  const budget = KEYS.compactBudget.default
  const out: Moment[] = []
  lines.forEach((text, i) => {
    const record = text.includes('"compact_boundary"') ? (JSON.parse(text) as { subtype?: string }) : undefined
    if (record?.subtype === 'compact_boundary') {
      const built = toSnapshot(state, {
        id: 'SNAP_20261128_100000_000_abcd',
        createdAt: '2026-11-28T10:00:00.000Z',
        trigger: 'pre_compact',
        projectRoot: root,
        projectName: 'proj',
        sessionId: state.sessionId ?? 'unknown',
        capture: { transcript: path, bytesRead: 0, lines: i, skipped: 0, entries: 0, restarted: false, offset: 0 },
      })
      const snapshot = JSON.parse(JSON.stringify(built)) as Snapshot // as stored: later lines do not change it
      const resume = cutToBudget(redact(renderCompactResume({ project: 'proj', snapshot, budget, latestPath: '/proj/.bookmark/LATEST.md' })), budget)
      let summary = ''
      for (let j = i + 1; j < Math.min(lines.length, i + 10) && summary === ''; j++) {
        const r = JSON.parse(lines[j]!) as { isCompactSummary?: boolean; message?: { content?: unknown } }
        if (r.isCompactSummary) summary = typeof r.message?.content === 'string' ? r.message.content : JSON.stringify(r.message?.content)
      }
      out.push({ boundary: i + 1, snapshot, resume, summary })
    }
    for (const e of parseLine(text, i + 1).entries) applyEntry(state, e, { projectRoot: root }, delta)
  })
  return out
}

const cache = new Map<string, Promise<Moment[]>>()
const momentsOf = (name: string): Promise<Moment[]> => {
  if (!cache.has(name)) cache.set(name, moments(name))
  return cache.get(name)!
}

/** The file as the resume lists it: with its details, or by name under its folder's line. */
function lists(resume: string, path: string): boolean {
  if (resume.includes(`\n- ${path} (`)) return true
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'))
  const dir = path.slice(0, slash + 1)
  const name = path.slice(slash + 1)
  const inLine = (l: string, prefix: string): boolean => l.startsWith(prefix) && l.slice(prefix.length).split(', ').includes(name)
  // Files at the top of the project share a line with no folder: `- README.md, go.mod`.
  return resume.split('\n').some((l) => (dir === '' ? !/^- \S*[\\/]: /.test(l) && inLine(l, '- ') : inLine(l, `- ${dir}: `)))
}

describe.skipIf(!CORPUS_PRESENT)('the compact resume at each compaction of the corpus', () => {
  it('finds every compaction named here, and no other', async () => {
    const byFile = new Map<string, number[]>()
    for (const f of FACTS) byFile.set(f.file, [...(byFile.get(f.file) ?? []), f.boundary])
    for (const [file, boundaries] of byFile) expect((await momentsOf(file)).map((m) => m.boundary)).toEqual(boundaries)
  }, 120_000)

  describe.each(FACTS)('$file at line $boundary', (fact) => {
    const moment = async (): Promise<Moment> => (await momentsOf(fact.file)).find((m) => m.boundary === fact.boundary)!

    it('stays within 2,000 characters and lists every file of the session', async () => {
      const m = await moment()
      expect(m.resume.length).toBeLessThanOrEqual(2_000)
      for (const f of m.snapshot.files) expect(lists(m.resume, f.path), f.path).toBe(true)
    }, 120_000)

    it('states the exact latest request before the boundary', async () => {
      const m = await moment()
      if (!fact.latest) {
        expect(m.resume).not.toContain('## Latest request')
        return
      }
      expect(m.snapshot.requests.recent.at(-1)?.line).toBe(fact.latest.line)
      expect(m.resume).toContain(`## Latest request, exactly\n\n\`\`\`recorded\n${fact.latest.text.trimEnd()}\n`)
    }, 120_000)

    it('names the open tasks, by id when they have one, the in-progress one first', async () => {
      const m = await moment()
      const listed = [...m.resume.matchAll(/^- \[[ ~]\] (.*)$/gm)].map((x) => x[1]!)
      expect(listed.map((l) => /^#(\S+) /.exec(l)?.[1] ?? l.replace(/ \(in progress\)$/, ''))).toEqual(fact.open)
    }, 120_000)

    it.runIf(fact.earlier !== undefined)(
      'lists the files changed before the earlier compaction, which the summary may drop',
      async () => {
        const m = await moment()
        for (const path of fact.earlier!) expect(lists(m.resume, path), path).toBe(true)
        const name = (p: string): string => p.slice(p.lastIndexOf('/') + 1)
        expect(fact.earlier!.filter((p) => !m.summary.includes(name(p)))).toEqual(fact.dropped)
      },
      120_000,
    )

    it("measures Claude's own summary beside it", async () => {
      const m = await moment()
      expect(m.summary.length).toBe(fact.summary)
      expect(m.resume.length).toBeLessThan(m.summary.length / 2)
    }, 120_000)
  })
})
