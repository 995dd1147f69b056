/**
 * `bookmark wrapup` as a user runs it, in a sandbox (never the real ~/.claude or ~/.bookmark): the digest of a
 * session a Stop hook captured, a wrap-up from flags and from JSON on stdin, the sealed file on disk, search and
 * orientation finding it, the next SessionStart showing it (though the Stop had prepared its answer before), and
 * input errors with exit 1.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { type Sandbox, gitRepo, runCli, sandbox } from './helpers/cli.js'
import { assistantText, call, jsonl, prompt } from './helpers/jsonl.js'

const SID = 'aaaaaaaa-1111-4222-8333-444444444444'
let sb: Sandbox
let project: string
let env: NodeJS.ProcessEnv

const cli = (args: string[], input?: string) => runCli(args, { env, cwd: project, ...(input !== undefined ? { input } : {}) })

async function startup(): Promise<string> {
  const r = await runCli(['restore'], {
    env,
    cwd: project,
    input: JSON.stringify({
      session_id: 'cccccccc-0000-4000-8000-000000000000',
      transcript_path: join(sb.dir, 'none.jsonl'),
      cwd: project,
      hook_event_name: 'SessionStart',
      source: 'startup',
    }),
  })
  expect(r.code, r.stderr).toBe(0)
  return r.stdout.trim() === '' ? '' : (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext
}

beforeAll(async () => {
  sb = await sandbox()
  project = await gitRepo(join(sb.dir, 'shop'))
  env = { ...sb.env, CLAUDE_PROJECT_DIR: project, BOOKMARK_MAX_NARRATIVE_BLOCKS: '0' }
  const o = { cwd: project, sessionId: SID, ts: new Date().toISOString() }
  const transcript = join(sb.dir, `${SID}.jsonl`)
  await writeFile(
    transcript,
    jsonl([
      prompt('make checkout retry the payment once on a timeout', o),
      call('w1', 'Write', { file_path: join(project, 'checkout.ts'), content: 'export const retries = 1\n' }, { type: 'create' }, o),
      assistantText('Done: checkout retries once.', o),
    ]),
  )
  const stop = await runCli(['stop'], {
    env,
    cwd: project,
    input: JSON.stringify({ session_id: SID, transcript_path: transcript, cwd: project, hook_event_name: 'Stop', stop_hook_active: false }),
  })
  expect(stop.code, stop.stderr).toBe(0)
}, 60_000)

describe('bookmark wrapup', () => {
  it('--digest shows what the session did, from the snapshot the Stop wrote', async () => {
    const r = await cli(['wrapup', '--digest'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain(`Session ${SID} (snapshot SNAP_`)
    expect(r.stdout).toContain('1 requests, 1 files changed, 0 commits, 0 open tasks, 0 unresolved errors.')
    expect(r.stdout).toContain('Latest requests:\n- make checkout retry the payment once on a timeout\nFiles changed:\n- created checkout.ts\n')
    expect(await readdir(join(project, '.bookmark'))).not.toContain('wrapups')
  })

  it('rejects bad input with exit 1 and one clear line', async () => {
    const cases: [string[], string | undefined, string][] = [
      [['wrapup'], undefined, 'wrapup needs --summary'],
      [['wrapup', '--summary', 'x', '--decision', 'no reason given'], undefined, '--decision number 1 needs its why: --decision "what was decided -- why"'],
      [['wrapup', '--digest', '--summary', 'x'], undefined, '--digest records nothing'],
      [['wrapup', '--stdin'], 'not json', '--stdin: the input is not JSON'],
      [['wrapup', '--stdin'], '{"summary":"x","threads":["a"]}', 'the wrap-up on stdin: unknown field "threads"'],
      [['wrapup', '--stdin', '--summary', 'x'], '{}', '--stdin takes the whole wrap-up as JSON: drop --summary'],
    ]
    for (const [args, input, message] of cases) {
      const r = await cli(args, input)
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(1)
      expect(r.stderr).toContain(message)
      expect(r.stdout).toBe('')
    }
    expect(await readdir(join(project, '.bookmark'))).not.toContain('wrapups')
  })

  it('records a wrap-up from flags: sealed on disk, found by search and orientation, shown by the next restore', async () => {
    const before = await startup()
    expect(before).not.toContain('The last wrap-up')
    const r = await cli([
      'wrapup',
      '--summary',
      'Checkout retries a timed-out payment once',
      '--decision',
      'retry once, not three times -- the provider charges twice on a late success',
      '--open',
      'add a test for the double-charge case',
      '--file',
      'checkout.ts',
      '--json',
    ])
    expect(r.code, r.stderr).toBe(0)
    const out = JSON.parse(r.stdout) as { file: string; eventId: string; indexed: boolean; wrapup: { session: string } }
    expect(out.indexed).toBe(true)
    expect(out.wrapup.session).toBe(SID)
    expect(out.file.startsWith(join(project, '.bookmark', 'wrapups', 'WRAP_'))).toBe(true)
    expect(await readFile(out.file, 'utf8')).toMatch(/^\{\n {2}"mac": "[0-9a-f]{64}",\n/)

    const s = await cli(['search', 'double-charge', '--json'])
    expect(s.code, s.stderr).toBe(0)
    expect(JSON.parse(s.stdout)[0]).toMatchObject({ id: out.eventId, kind: 'wrapup', session: SID, project, transcript: out.file, line: 1 })

    const o = await cli(['search', '--project', 'shop'])
    expect(o.code, o.stderr).toBe(0)
    expect(o.stdout).toMatch(/^Project shop: .*\n\nLatest wrap-up:\n1\. .* wrapup {2}aaaaaaaa {2}Wrap-up: Checkout retries a timed-out payment once\./)
    expect(o.stdout).toContain('   Open threads:\n   - add a test for the double-charge case\n')

    const after = await startup()
    expect(after).toContain('## The last wrap-up (')
    expect(after).toMatch(
      /\nCheckout retries a timed-out payment once\nOpen threads:\n- add a test for the double-charge case\nDecisions:\n- retry once, not three times \(why: the provider charges twice on a late success\)\nFiles: checkout\.ts\n/,
    )
  })

  it('takes the wrap-up as JSON on stdin; the newest one is what restore shows', async () => {
    const input = JSON.stringify({
      summary: 'Refund flow drafted',
      discoveries: ['refunds need the original payment id'],
      open_threads: ['wire the refund button'],
      commits: ['abcdef1 Draft the refund flow'],
    })
    const r = await cli(['wrapup', '--stdin'], input)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^Wrap-up WRAP_\d{8}_\d{6}_\d{3}_[0-9a-f]{4} \(.*, session aaaaaaaa\): Refund flow drafted\nDiscoveries:\n- refunds need/)
    expect(r.stdout).toMatch(/\nSearchable now: event [0-9a-f]{12} \(`bookmark get [0-9a-f]{12}`\)\.$/m)
    const id = /event ([0-9a-f]{12})/.exec(r.stdout)![1]!
    const g = await cli(['get', id])
    expect(g.code, g.stderr).toBe(0)
    expect(g.stdout).toContain(`Event ${id}: wrapup`)
    expect(g.stdout).toContain('Commits: abcdef1 Draft the refund flow')
    const after = await startup()
    expect(after).toContain('\nRefund flow drafted\nOpen threads:\n- wire the refund button\n')
    expect(after).not.toContain('Checkout retries a timed-out payment once\nOpen threads')
  })
})
