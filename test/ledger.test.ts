/**
 * The file ledger against git, end to end: a session changes five files in a real repository; on disk one is then
 * reverted, one deleted, one committed (by a subagent), one changed on a branch that is then left, one left
 * uncommitted. The Stop hook's capture marks each next to its path in LATEST.md and in the next session's restore.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { type Sandbox, runCli, sandbox } from './helpers/cli.js'
import { call, jsonl, prompt, assistantText } from './helpers/jsonl.js'
import { CORPUS_PRESENT, loadCorpus } from './helpers/corpus.js'

const SID = 'dddddddd-1111-4222-8333-000000000001'
/** Git's clock (reflog and commits, in seconds) and the transcript's, kept in step: the session begins at T0 + 100. */
const T0 = Math.floor(Date.now() / 1000) - 3_600
const iso = (s: number): string => new Date(s * 1000).toISOString()

let sb: Sandbox
let project: string
let latest: string
let restore: string

function git(at: number, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], {
    cwd: project,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, GIT_COMMITTER_DATE: `${at} +0000`, GIT_AUTHOR_DATE: `${at} +0000` },
  })
}

beforeAll(async () => {
  sb = await sandbox()
  project = join(sb.dir, 'proj')
  await mkdir(project, { recursive: true })
  git(T0, 'init', '-q', '-b', 'main')
  for (const f of ['rev.ts', 'com.ts', 'unc.ts']) await writeFile(join(project, f), `${f} v1\n`)
  git(T0, 'add', 'rev.ts', 'com.ts', 'unc.ts')
  git(T0, 'commit', '-q', '-m', 'base')

  // The session, as it happened on disk and in the transcript.
  const o = (s: number, branch = 'main') => ({ cwd: project, sessionId: SID, ts: iso(s), branch })
  const edit = (id: string, f: string, s: number, branch = 'main') =>
    call(id, 'Edit', { file_path: join(project, f), old_string: `${f} v1`, new_string: `${f} v2` }, 'ok', o(s, branch))
  for (const f of ['rev.ts', 'com.ts', 'unc.ts']) await writeFile(join(project, f), `${f} v2\n`)
  await writeFile(join(project, 'del.ts'), 'made to go\n')
  const commitOut = git(T0 + 130, 'commit', '-m', 'fix: com', '--', 'com.ts')
  git(T0 + 140, 'checkout', '-q', '-b', 'feat')
  await writeFile(join(project, 'br.ts'), 'on feat\n')
  git(T0 + 150, 'add', 'br.ts')
  git(T0 + 150, 'commit', '-q', '-m', 'feat: br')
  git(T0 + 160, 'checkout', '-q', 'main')
  const lines = [
    prompt('change the five files', o(T0 + 100)),
    edit('e1', 'rev.ts', T0 + 110),
    edit('e2', 'com.ts', T0 + 111),
    edit('e3', 'unc.ts', T0 + 112),
    call('w1', 'Write', { file_path: join(project, 'del.ts'), content: 'made to go\n' }, { type: 'create' }, o(T0 + 113)),
    // The commit is a subagent's: it counts.
    call('c1', 'Bash', { command: 'git commit -m "fix: com" -- com.ts' }, { stdout: commitOut, stderr: '' }, { ...o(T0 + 130), sidechain: true }),
    call('b1', 'Bash', { command: 'git checkout -b feat' }, { stdout: '', stderr: "Switched to a new branch 'feat'" }, o(T0 + 140)),
    call('w2', 'Write', { file_path: join(project, 'br.ts'), content: 'on feat\n' }, { type: 'create' }, o(T0 + 145, 'feat')),
    call('b2', 'Bash', { command: 'git checkout main' }, { stdout: '', stderr: "Switched to branch 'main'" }, o(T0 + 160, 'feat')),
    assistantText('Done.', o(T0 + 170)),
  ]
  // After the session: the user reverted one change and deleted a file.
  git(T0 + 200, 'checkout', '--', 'rev.ts')
  await rm(join(project, 'del.ts'))

  const transcript = join(sb.dir, `${SID}.jsonl`)
  await writeFile(transcript, jsonl(lines))
  const env = { ...sb.env, CLAUDE_PROJECT_DIR: project, BOOKMARK_MAX_NARRATIVE_BLOCKS: '0' }
  const stop = await runCli(['stop'], {
    env,
    cwd: project,
    input: JSON.stringify({ session_id: SID, transcript_path: transcript, cwd: project, hook_event_name: 'Stop', stop_hook_active: false }),
  })
  expect(stop.code, stop.stderr).toBe(0)
  latest = await readFile(join(project, '.bookmark', 'LATEST.md'), 'utf8')
  const start = await runCli(['restore'], {
    env,
    cwd: project,
    input: JSON.stringify({
      session_id: 'eeeeeeee-0000-4000-8000-000000000000',
      transcript_path: join(sb.dir, 'none.jsonl'),
      cwd: project,
      hook_event_name: 'SessionStart',
      source: 'startup',
    }),
  })
  expect(start.code, start.stderr).toBe(0)
  restore = (JSON.parse(start.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext
}, 60_000)

describe('the file ledger checked against git at capture', () => {
  const expected = [
    '- `br.ts` [left on branch feat] created +1 -0',
    '- `del.ts` [deleted since] created +1 -0',
    '- `unc.ts` [uncommitted] modified +1 -1',
    '- `com.ts` [committed] modified +1 -1',
    '- `rev.ts` [reverted since] modified',
  ]

  it('marks each file next to its path in LATEST.md, newest first, none dropped', () => {
    const files = latest.slice(latest.indexOf('## Files changed (5)'))
    expect(files.split('\n').slice(2, 7)).toEqual(expected)
  })

  it('gives the next session the same lines', () => {
    for (const line of expected) expect(restore).toContain(line)
  })

  it('says in the ending line what git still holds uncommitted (unc.ts only: the others are committed, reverted, gone or elsewhere)', () => {
    expect(restore).toMatch(/^How the last session ended: [^\n]*; 1 changed file not committed\.$/m)
  })

  it("records the subagent's commit", () => {
    expect(latest).toMatch(/- commit `[0-9a-f]{7}` on main: fix: com/)
  })
})

describe.skipIf(!CORPUS_PRESENT)('an amend in the corpus keeps its message', () => {
  it('cc-2.1.219-windows-long-compact1-image-api-error-6b6f4218: `--amend -F … --no-edit >/dev/null` printed nothing', async () => {
    const { state } = await loadCorpus('cc-2.1.219-windows-long-compact1-image-api-error-6b6f4218.jsonl')
    const commits = state.git.filter((g) => g.event.kind === 'commit').map((g) => g.event as { message: string; hash?: string })
    expect(commits[0]?.hash).toBe('b51711ec')
    // The commit after it is the amend: it had an empty message before.
    expect(commits[1]?.hash).toBeUndefined()
    expect(commits[1]?.message).toBe(commits[0]?.message)
    expect(commits[1]?.message.split('\n')[0]).toBe('@ feat(website): let segment docs edit their sample config')
  })
})
