/**
 * Issue 16: in a non-interactive run (`claude -p`, the SDK) the Stop hook must not ask for the narrative,
 * because the model's reply to that request becomes the run's result. The built CLI gets the payload and
 * the hook environment Claude Code 2.1.332 really gives under -p (docs/HEADLESS.md): the capture still
 * happens, the block does not, unless narrativeInHeadless opts in.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { type Sandbox, gitRepo, runCli, sandbox } from './helpers/cli.js'
import { assistantText, call, jsonl, prompt } from './helpers/jsonl.js'

let sb: Sandbox
let project: string
let transcript: string
const SID = 'bbbbbbbb-1111-4222-8333-444444444444'

/** What 2.1.332 sets for a hook under `claude -p` (and `cli` / `1` in an interactive terminal). */
const PRINT_ENV = { CLAUDE_CODE_ENTRYPOINT: 'sdk-cli', CLAUDE_CODE_SESSION_ATTENDED: '0', CLAUDE_CODE_CHILD_SESSION: '1', CLAUDECODE: '1' }
const INTERACTIVE_ENV = { CLAUDE_CODE_ENTRYPOINT: 'cli', CLAUDE_CODE_SESSION_ATTENDED: '1', CLAUDE_CODE_CHILD_SESSION: '1', CLAUDECODE: '1' }

/** The Stop payload of a -p run, field for field as 2.1.332 sent it (only the ids and paths differ). */
function stopPayload(): string {
  return JSON.stringify({
    session_id: SID,
    transcript_path: transcript,
    cwd: project,
    prompt_id: 'da916b91-6d1f-4b26-a977-f42b2e23910e',
    permission_mode: 'acceptEdits',
    effort: { level: 'medium' },
    hook_event_name: 'Stop',
    stop_hook_active: false,
    last_assistant_message: 'The answer is 42.',
    background_tasks: [],
    session_crons: [],
  })
}

async function stop(env: Record<string, string>) {
  const r = await runCli(['stop'], { env: { ...sb.env, CLAUDE_PROJECT_DIR: project, ...env }, cwd: project, input: stopPayload() })
  expect(r.code, r.stderr).toBe(0)
  return r
}

async function snapshotCount(): Promise<number> {
  return (await readdir(join(project, '.bookmark', 'snapshots'))).length
}

beforeEach(async () => {
  sb = await sandbox()
  project = await gitRepo(join(sb.dir, 'proj'))
  transcript = join(sb.dir, `${SID}.jsonl`)
  await writeFile(
    transcript,
    jsonl([
      prompt('write answer.txt and tell me the answer', { cwd: project }),
      call('w1', 'Write', { file_path: join(project, 'answer.txt'), content: '42\n' }, { type: 'create' }, { cwd: project }),
      assistantText('The answer is 42.', { cwd: project }),
    ]),
  )
})

describe('stop in a non-interactive run', () => {
  it('captures the turn but does not block: the run keeps its answer', async () => {
    const r = await stop(PRINT_ENV)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe('')
    expect(await snapshotCount()).toBe(1)
    const [file] = await readdir(join(project, '.bookmark', 'snapshots'))
    const snap = JSON.parse(await readFile(join(project, '.bookmark', 'snapshots', file!), 'utf8'))
    expect(snap.trigger).toBe('stop')
    expect(snap.files.map((f: { path: string }) => f.path)).toEqual(['answer.txt'])
    expect(snap.lastAssistant).toMatchObject({ text: 'The answer is 42.' })
    // No block was counted: an interactive session later in the project still gets its one request.
    const status = JSON.parse((await runCli(['status', '--json'], { env: sb.env, cwd: project })).stdout)
    expect(status.narrativeBlocks).toBe(0)
  })

  it('the same payload in an interactive run blocks once for the handoff', async () => {
    const r = await stop(INTERACTIVE_ENV)
    const out = JSON.parse(r.stdout)
    expect(out.decision).toBe('block')
    expect(out.reason).toContain(`Use your Write tool to write ${join(project, '.bookmark', 'bookmark.context.md')} now`)
  })

  it('the SDK entrypoint alone (no attended verdict) counts as non-interactive', async () => {
    expect((await stop({ CLAUDE_CODE_ENTRYPOINT: 'sdk-ts' })).stdout).toBe('')
    expect(await snapshotCount()).toBe(1)
  })

  it('BOOKMARK_NARRATIVE_IN_HEADLESS=1 opts in: the block happens under -p', async () => {
    const out = JSON.parse((await stop({ ...PRINT_ENV, BOOKMARK_NARRATIVE_IN_HEADLESS: '1' })).stdout)
    expect(out.decision).toBe('block')
  })

  it('narrativeInHeadless 1 in the project config opts in too; an invalid value is refused and stays off', async () => {
    const set = await runCli(['config', '--project', '--set', 'narrativeInHeadless=1', '--json'], { env: sb.env, cwd: project })
    expect(set.code, set.stderr).toBe(0)
    expect(JSON.parse(set.stdout).values.narrativeInHeadless).toEqual({ value: 1, source: 'project', env: 'BOOKMARK_NARRATIVE_IN_HEADLESS' })
    expect(JSON.parse((await stop(PRINT_ENV)).stdout).decision).toBe('block')

    const bad = await runCli(['config', '--set', 'narrativeInHeadless=2'], { env: sb.env, cwd: project })
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain('narrativeInHeadless must be 0 or 1')
  })
})

describe('check in a non-interactive run', () => {
  async function fillContext(): Promise<void> {
    const full = { ...assistantText('Working on it.', { cwd: project }) }
    ;(full.message as { usage: unknown }).usage = { input_tokens: 10, cache_read_input_tokens: 160_000, cache_creation_input_tokens: 0, output_tokens: 20 }
    await writeFile(transcript, jsonl([full]), { flag: 'a' })
  }
  const payload = (): string =>
    JSON.stringify({
      session_id: SID,
      transcript_path: transcript,
      cwd: project,
      hook_event_name: 'UserPromptSubmit',
      prompt_id: 'p1',
      permission_mode: 'acceptEdits',
      prompt: 'continue',
    })
  const check = (env: Record<string, string>) => runCli(['check'], { env: { ...sb.env, CLAUDE_PROJECT_DIR: project, ...env }, cwd: project, input: payload() })

  it('adds no context-refresh note under -p, still snapshots, and notes it when opted in', async () => {
    await fillContext()
    const quiet = await check(PRINT_ENV)
    expect(quiet.code, quiet.stderr).toBe(0)
    expect(quiet.stdout).toBe('')
    expect(await snapshotCount()).toBe(1) // the interval snapshot still happened
    const asked = await check({ ...PRINT_ENV, BOOKMARK_NARRATIVE_IN_HEADLESS: '1' })
    expect(JSON.parse(asked.stdout).hookSpecificOutput.additionalContext).toContain('the context is 80% full')
  })
})
