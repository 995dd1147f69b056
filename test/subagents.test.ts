/**
 * The `subagents` key (issue 16): on (the default), a subagent's file edits, commands and task updates are
 * captured as before; off, they are left out of the snapshot, LATEST.md and restore, and only the main
 * agent's own Task/Agent call remains, as one record.
 *
 * First through the built CLI and its hooks, with the config key set the ways a user sets it; then against
 * real transcripts of the shared corpus. The corpus facts below were read from the raw JSONL with python3
 * (json.loads per line), not from our extractor:
 *  - cc-1.0.98-inline-sidechains-*: subagents write inline, 405 lines with `isSidechain: true`. The main thread's
 *    only file tool call is the Write of /path/to/Demo/CLAUDE.md (line 436, result "File created successfully");
 *    /path/to/Demo/types/todo.ts is written only by subagents: sidechain Writes (lines 130 and 165), then a sidechain
 *    Bash `cat > types/todo.ts << 'EOF'` (line 191). Five Task calls, all
 *    with a description, the first three "Build TODO components", "Setup Next.js project", "Create data models".
 *  - cc-2.1.20-taskcreate-*: subagent messages embedded in `progress` lines (`data.type: "agent_progress"`).
 *    cmd/entire/cli/explain.go is changed only by embedded Edit calls (lines 496 … 1083); the main thread only
 *    runs `git diff` / `git add` on it. Task #10 is created by the main thread (result line 377), its last
 *    main-thread TaskList (line 945) shows it pending, and only embedded TaskUpdate calls (lines 1049, 1093,
 *    result 1094 "Updated task #10 status") move it, to completed.
 *  - cc-2.1.205-windows-agent-websearch-*: one Agent call ("Apply zsh fix, rerun verification", line 198,
 *    status completed at 199) and no subagent line at all: 2.1.x keeps a subagent's messages in
 *    <session>/subagents/agent-<id>.jsonl, which capture does not read.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { type Sandbox, gitRepo, runCli, sandbox } from './helpers/cli.js'
import { CORPUS, CORPUS_PRESENT, extractCorpus } from './helpers/corpus.js'
import { agentProgress, assistantText, call, jsonl, prompt, toolResult, toolUse } from './helpers/jsonl.js'

const SID = 'aaaaaaaa-5555-4666-8777-888888888888'

let sb: Sandbox
let project: string
let transcript: string

beforeEach(async () => {
  sb = await sandbox()
  project = await gitRepo(join(sb.dir, 'proj'))
  transcript = join(sb.dir, `${SID}.jsonl`)
  const o = { cwd: project }
  // The 2.1.x shape: the subagent's calls embedded in agent_progress lines of the main transcript.
  const sub = (r: Record<string, unknown>) => agentProgress(r, 'task1', o)
  await writeFile(
    transcript,
    jsonl([
      prompt('add a slugify helper and use it in the router', o),
      toolUse(
        'task1',
        'Task',
        { description: 'Write the slugify helper', prompt: 'Write src/slugify.ts and move src/draft.ts to src/old-draft.ts', subagent_type: 'general-purpose' },
        o,
      ),
      sub(prompt('Write src/slugify.ts and move src/draft.ts to src/old-draft.ts', o)),
      sub(
        toolUse(
          's1',
          'Write',
          { file_path: join(project, 'src/slugify.ts'), content: 'export function slugify(s: string) {\n  return s.toLowerCase()\n}\n' },
          o,
        ),
      ),
      sub(toolResult('s1', `File created successfully at: ${join(project, 'src/slugify.ts')}`, o)),
      sub(toolUse('s2', 'Bash', { command: 'mv src/draft.ts src/old-draft.ts' }, o)),
      sub(toolResult('s2', '', o)),
      sub(assistantText('slugify is in src/slugify.ts.', o)),
      toolResult('task1', 'slugify is in src/slugify.ts.', {
        ...o,
        result: { status: 'completed', agentId: 'a333efa', content: [{ type: 'text', text: 'slugify is in src/slugify.ts.' }], totalToolUseCount: 2 },
      }),
      call('w1', 'Write', { file_path: join(project, 'src/router.ts'), content: "import { slugify } from './slugify'\n" }, { type: 'create' }, o),
      assistantText('The router uses slugify now.', o),
    ]),
  )
})

function stopPayload(sid = SID, t = transcript): string {
  return JSON.stringify({ session_id: sid, transcript_path: t, cwd: project, hook_event_name: 'Stop', stop_hook_active: true, permission_mode: 'default' })
}

async function run(args: string[], env: NodeJS.ProcessEnv = {}, input?: string) {
  const r = await runCli(args, { env: { ...sb.env, CLAUDE_PROJECT_DIR: project, ...env }, cwd: project, ...(input !== undefined ? { input } : {}) })
  expect(r.code, r.stderr).toBe(0)
  return r
}

/** The newest snapshot as the store wrote it, and LATEST.md. */
async function latest(): Promise<{ snap: Record<string, any>; md: string }> {
  const dir = join(project, '.bookmark')
  const index = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8'))
  const id: string = index.snapshots[0].id
  return { snap: JSON.parse(await readFile(join(dir, 'snapshots', `${id}.json`), 'utf8')), md: await readFile(join(dir, 'LATEST.md'), 'utf8') }
}

const paths = (snap: Record<string, any>) => (snap.files as { path: string }[]).map((f) => f.path).sort()

describe('the subagents key through the CLI and the hooks', () => {
  it("on by default: the stop hook keeps the subagent's edit and its command, marked [subagent]", async () => {
    await run(['stop'], {}, stopPayload())
    const { snap, md } = await latest()
    expect(paths(snap)).toEqual(['src/old-draft.ts', 'src/router.ts', 'src/slugify.ts'])
    expect(snap.files.find((f: any) => f.path === 'src/slugify.ts')).toMatchObject({ op: 'created', subagent: true })
    expect(snap.files.find((f: any) => f.path === 'src/old-draft.ts')).toMatchObject({ op: 'moved', from: 'src/draft.ts', subagent: true, tools: ['Bash'] })
    expect(snap.subagentTools).toEqual({ Bash: 1, Write: 1 })
    expect(snap.capture.subagentsLeftOut).toBeUndefined()
    // Not on disk in the test's repository: the capture says so next to the path.
    expect(md).toContain('- `src/slugify.ts` [deleted since] created +3 -0')
    expect(md).toContain('[subagent]')
  })

  it("off in the project config: the subagent's edit and command are left out of the snapshot, LATEST.md and restore", async () => {
    const set = await run(['config', '--project', '--set', 'subagents=false', '--json'])
    expect(JSON.parse(set.stdout).values.subagents).toEqual({ value: 0, source: 'project', env: 'BOOKMARK_SUBAGENTS' })
    await run(['stop'], {}, stopPayload())
    const { snap, md } = await latest()
    expect(paths(snap)).toEqual(['src/router.ts'])
    expect(snap.subagentTools).toEqual({})
    expect(snap.counts.sidechainEntries).toBe(0)
    expect(snap.subagents).toEqual([{ description: 'Write the slugify helper', type: 'general-purpose', ts: expect.any(String), status: 'completed' }])
    expect(snap.capture.subagentsLeftOut).toBe(true)
    expect(JSON.stringify(snap)).not.toMatch(/slugify\.ts|draft\.ts/)
    expect(md).not.toMatch(/slugify\.ts|draft\.ts|\[subagent\]/)
    expect(md).toContain('1 subagent (their activity is not captured: `subagents` is 0)')
    const restore = await run(
      ['restore'],
      {},
      JSON.stringify({
        session_id: 'bbbbbbbb-0000-4000-8000-000000000000',
        transcript_path: join(sb.dir, 'new.jsonl'),
        cwd: project,
        hook_event_name: 'SessionStart',
        source: 'startup',
      }),
    )
    const text: string = JSON.parse(restore.stdout).hookSpecificOutput.additionalContext
    expect(text).toContain('`src/router.ts` [deleted since] created')
    expect(text).not.toMatch(/slugify\.ts|draft\.ts/)
  })

  it('changing the key re-reads the session: BOOKMARK_SUBAGENTS=0 drops what an earlier capture kept, and on brings it back', async () => {
    await run(['stop'], {}, stopPayload())
    expect(paths((await latest()).snap)).toContain('src/slugify.ts')
    // Nothing new in the transcript: only the key changed.
    await run(['snapshot', '--session-id', SID, '--transcript', transcript], { BOOKMARK_SUBAGENTS: '0' })
    expect(paths((await latest()).snap)).toEqual(['src/router.ts'])
    await run(['snapshot', '--session-id', SID, '--transcript', transcript])
    expect(paths((await latest()).snap)).toEqual(['src/old-draft.ts', 'src/router.ts', 'src/slugify.ts'])
  })

  it('a value that is not a switch is refused with what is expected', async () => {
    const r = await runCli(['config', '--set', 'subagents=maybe'], { env: sb.env, cwd: project })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('subagents must be 0 or 1 (or on/off, yes/no, true/false), got "maybe"')
  })
})

describe.skipIf(!CORPUS_PRESENT)(`the subagents key on real transcripts (corpus at ${CORPUS})`, () => {
  it('1.0.98, inline sidechains: types/todo.ts, written by a subagent Write and command, is there with the key on and gone with it off', async () => {
    const name = 'cc-1.0.98-inline-sidechains-multiedit-bashoutput-fe5e1c67.jsonl'
    const on = (await extractCorpus(name)).state
    const off = (await extractCorpus(name, undefined, { subagents: false })).state
    expect(on.files['types/todo.ts']).toMatchObject({ op: 'created', subagent: true, tools: ['Write', 'Bash'] })
    expect(on.counts.sidechainEntries).toBe(405)
    expect(off.files['types/todo.ts']).toBeUndefined()
    expect(Object.keys(off.files)).toEqual(['CLAUDE.md'])
    expect(off.counts.sidechainEntries).toBe(0)
    expect(off.subagentTools).toEqual({})
    // The five Task calls of the main thread stay, by their descriptions.
    expect(off.subagents.map((s) => s.description)).toEqual(on.subagents.map((s) => s.description))
    expect(off.subagents.map((s) => s.description).sort()).toEqual([
      'Build TODO components',
      'Create data models',
      'Create main page integration',
      'Implement state management',
      'Setup Next.js project',
    ])
  })

  it('2.1.20, agent_progress lines: explain.go and the completion of task #10 come from subagents only', async () => {
    const name = 'cc-2.1.20-taskcreate-local-command-mcp-b82405ba.jsonl'
    const on = (await extractCorpus(name)).state
    const off = (await extractCorpus(name, undefined, { subagents: false })).state
    expect(on.files['cmd/entire/cli/explain.go']).toMatchObject({ subagent: true })
    expect(on.tasks['10']).toEqual({ id: '10', subject: 'Refactor summarize code into separate package', status: 'completed' })
    expect(off.files['cmd/entire/cli/explain.go']).toBeUndefined()
    expect(Object.values(off.files).filter((f) => f.subagent)).toEqual([])
    // As the main thread last saw it (its TaskList at line 945).
    expect(off.tasks['10']).toEqual({ id: '10', subject: 'Refactor summarize code into separate package', status: 'pending' })
  })

  it('2.1.205, subagent in its own file: only the Agent call is in the main transcript, the same either way', async () => {
    const name = 'cc-2.1.205-windows-agent-websearch-223b2708.jsonl'
    const on = (await extractCorpus(name)).state
    const off = (await extractCorpus(name, undefined, { subagents: false })).state
    expect(on.counts.sidechainEntries).toBe(0)
    expect(off.subagents).toMatchObject([{ description: 'Apply zsh fix, rerun verification', type: 'general-purpose', status: 'completed' }])
    expect(off.files).toEqual(on.files)
  })
})
