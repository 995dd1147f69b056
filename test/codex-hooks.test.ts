/**
 * The four hooks as Codex CLI runs them: the line setup writes into hooks.json (`node -e GUARD bin/bookmark.cjs
 * <hook> --host codex`, through a shell), a payload of the shape Codex 0.171 sends (host-samples hook log), a
 * real 0.171 rollout moved to the test's project. Codex drops a hook's whole output when it holds a key its schema
 * lacks, so every answer is compared whole.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { appendFile, chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { GUARD, shellQuote } from '../src/setup/hooks.js'
import { CODEX_CONTEXT_BYTES, SUPERSEDES } from '../src/hosts/codex/host.js'
import { BIN, type Sandbox, gitRepo, runCli, sandbox } from './helpers/cli.js'
import { CORPUS } from './helpers/corpus.js'

const ROLLOUT = join(CORPUS, 'host-samples', 'codex-0.171-exec-rollout-2-patch-file.jsonl')
const SID = '01a2345e-2939-7733-81eb-319f86c45b47'
const CLAUDE = join(CORPUS, 'claude', 'cc-2.1.4-tiny-summary-5a3bb1c8.jsonl')

let sb: Sandbox
let project: string
let rollout: string

beforeEach(async () => {
  sb = await sandbox()
  project = await gitRepo(join(sb.dir, 'proj'))
  rollout = join(sb.dir, `rollout-2026-12-02T01-28-35-${SID}.jsonl`)
  await writeFile(rollout, (await readFile(ROLLOUT, 'utf8')).split('/home/dev/runs/w/proj').join(project))
})

const LINE = (hook: string): string => `${[process.execPath, '-e', GUARD, BIN].map(shellQuote).join(' ')} ${hook} --host codex`

/** The context a Codex hook answer injects. */
const contextOf = (stdout: string): string => (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext

/** Runs `hook` as Codex does: its hooks.json command line through `bash -c`, in the session's folder. */
function codexRuns(hook: string, payload: object, env: NodeJS.ProcessEnv = sb.env): { stdout: string; stderr: string } {
  const stdout = execFileSync('/bin/bash', ['-c', LINE(hook)], { cwd: project, env, input: JSON.stringify(payload), encoding: 'utf8' })
  return { stdout, stderr: '' }
}

/**
 * Runs `hook` the same way under a process whose command line is Codex's (`codex exec …`, or the interactive
 * `codex …`): an executable named codex that runs the line through `bash -c`, as the real binary does.
 */
async function codexRunsUnder(args: string[], hook: string, payload: object, env: NodeJS.ProcessEnv = sb.env): Promise<string> {
  const parent = join(sb.dir, 'codex-bin', 'codex')
  if (!existsSync(parent)) {
    await mkdir(join(sb.dir, 'codex-bin'), { recursive: true })
    const body =
      "const { execFileSync } = require('node:child_process')\nprocess.stdout.write(execFileSync('/bin/bash', ['-c', process.env.LINE], { stdio: ['inherit', 'pipe', 'inherit'] }))\n"
    await writeFile(parent, `#!${process.execPath}\n${body}`)
    await chmod(parent, 0o755)
  }
  return execFileSync(parent, args, { cwd: project, env: { ...env, LINE: LINE(hook) }, input: JSON.stringify(payload), encoding: 'utf8' })
}

/** A token count as Codex writes it after a response: `input` tokens carried, in Codex's window of 258,400. */
const tokenCount = (input: number): string =>
  JSON.stringify({
    timestamp: '2026-12-02T01:28:37.000Z',
    ordinal: 99,
    type: 'event_msg',
    payload: {
      type: 'token_count',
      info: {
        total_token_usage: { input_tokens: input, cached_input_tokens: 0, output_tokens: 10, reasoning_output_tokens: 0, total_tokens: input + 10 },
        last_token_usage: { input_tokens: input, cached_input_tokens: input - 1000, output_tokens: 10, reasoning_output_tokens: 0, total_tokens: input + 10 },
        last_usage_includes_reasoning: false,
        model_context_window: 258_400,
      },
      rate_limits: { limit_id: 'codex', primary: null, secondary: null },
    },
  }) + '\n'

const common = () => ({ session_id: SID, transcript_path: rollout, cwd: project, model: 'gpt-5.5' })
const stop = (active: boolean) => ({
  ...common(),
  turn_id: '01a2345e-2961',
  hook_event_name: 'Stop',
  permission_mode: 'bypassPermissions',
  stop_hook_active: active,
  last_assistant_message: 'Done.',
})
const start = (source: string, sessionId = 'next-session') => ({
  ...common(),
  session_id: sessionId,
  transcript_path: null,
  hook_event_name: 'SessionStart',
  permission_mode: 'bypassPermissions',
  source,
})

describe.skipIf(!existsSync(ROLLOUT) || !existsSync(CLAUDE))('hooks run as Codex CLI', () => {
  it('Stop captures the rollout, names Codex in LATEST.md and blocks once with exactly decision and reason', async () => {
    const first = codexRuns('stop', stop(false))
    const answer = JSON.parse(first.stdout) as Record<string, unknown>
    expect(Object.keys(answer)).toEqual(['decision', 'reason'])
    expect(answer.decision).toBe('block')
    expect(answer.reason).toMatch(/^session-bookmark: before you stop, write the handoff for the next session \(no narrative yet\)\./)
    expect(answer.reason).toContain(`session_id: ${SID}`)
    // Codex's model has no Write tool.
    expect(answer.reason).toContain(`\nUse apply_patch to write ${join(project, '.bookmark', 'bookmark.context.md')} now, replacing the file.`)
    const latest = await readFile(join(project, '.bookmark', 'LATEST.md'), 'utf8')
    expect(latest).toMatch(new RegExp(`^Snapshot \`SNAP_\\w+\` \\(stop\\) of Codex CLI session \`${SID}\`, captured `, 'm'))
    expect(latest).toContain('> patch file')
    // The sample rollout's patch never ran here: git says the file is gone (issue 18's ledger).
    expect(latest).toContain('`patched.txt` [deleted since] created +2 -0')
    const index = JSON.parse(await readFile(join(project, '.bookmark', 'index.json'), 'utf8')) as { snapshots: { id: string }[] }
    const snap = JSON.parse(await readFile(join(project, '.bookmark', 'snapshots', `${index.snapshots[0]!.id}.json`), 'utf8'))
    expect(snap.session.host).toBe('codex')
    // Codex runs Stop again after our block, with stop_hook_active: a passive Stop prints nothing at all.
    expect(codexRuns('stop', stop(true)).stdout).toBe('')
  })

  it('SessionStart injects the restore as a developer message that supersedes earlier ones, for every source', async () => {
    codexRuns('stop', stop(false))
    const out = codexRuns('restore', start('startup'))
    const answer = JSON.parse(out.stdout) as { hookSpecificOutput: Record<string, string> }
    expect(Object.keys(answer)).toEqual(['hookSpecificOutput'])
    expect(Object.keys(answer.hookSpecificOutput)).toEqual(['hookEventName', 'additionalContext'])
    expect(answer.hookSpecificOutput.hookEventName).toBe('SessionStart')
    const text = answer.hookSpecificOutput.additionalContext!
    expect(text.split('\n').slice(0, 3)).toEqual([SUPERSEDES, '', '# Bookmark: continuing work in `proj`'])
    expect(text).toContain('```recorded\npatch file\n```')
    // clear starts a new session as startup does; compact and fork have their own answers, all in the same shape.
    for (const source of ['clear', 'compact', 'fork', 'resume']) {
      const o = codexRuns('restore', start(source, SID)).stdout
      if (o === '') continue // resume of a session with nothing new since: nothing to say
      const a = JSON.parse(o) as { hookSpecificOutput: Record<string, string> }
      expect(Object.keys(a.hookSpecificOutput), source).toEqual(['hookEventName', 'additionalContext'])
      expect(a.hookSpecificOutput.additionalContext!.startsWith(`${SUPERSEDES}\n\n`), source).toBe(true)
      expect(Buffer.byteLength(a.hookSpecificOutput.additionalContext!), source).toBeLessThanOrEqual(CODEX_CONTEXT_BYTES)
    }
  })

  it('keeps the restore with its superseding line within the restore budget', async () => {
    codexRuns('stop', stop(false))
    expect(contextOf(codexRuns('restore', start('startup')).stdout).length).toBeGreaterThan(600)
    const text = contextOf(codexRuns('restore', start('startup'), { ...sb.env, BOOKMARK_RESTORE_BUDGET: '600' }).stdout)
    expect(text.length).toBeLessThanOrEqual(600)
    expect(text.split('\n').slice(0, 3)).toEqual([SUPERSEDES, '', '# Bookmark: continuing work in `proj`'])
  })

  it('UserPromptSubmit takes the interval snapshot and says nothing while the context has room', async () => {
    const out = codexRuns('check', {
      ...common(),
      turn_id: '01a2345e-2961',
      hook_event_name: 'UserPromptSubmit',
      permission_mode: 'bypassPermissions',
      prompt: 'patch file',
    })
    expect(out.stdout).toBe('')
    const latest = await readFile(join(project, '.bookmark', 'LATEST.md'), 'utf8')
    expect(latest).toMatch(/\(interval\) of Codex CLI session/)
  })

  it("UserPromptSubmit asks for the handoff once Codex's own token count passes the threshold of Codex's window", async () => {
    const prompt = { ...common(), turn_id: '01a2345e-2961', hook_event_name: 'UserPromptSubmit', permission_mode: 'default', prompt: 'patch file' }
    // 70% of the 258,400 Codex recorded: room (a window guessed from no model name, 200,000, would say 90%).
    await appendFile(rollout, tokenCount(180_000))
    expect(codexRuns('check', prompt).stdout).toBe('')
    await appendFile(rollout, tokenCount(200_000))
    const answer = JSON.parse(codexRuns('check', prompt).stdout) as { hookSpecificOutput: Record<string, string> }
    expect(Object.keys(answer.hookSpecificOutput)).toEqual(['hookEventName', 'additionalContext'])
    const lines = answer.hookSpecificOutput.additionalContext!.split('\n')
    expect(lines[0]).toBe('session-bookmark: the context is 77% full and compaction will drop detail.')
    expect(lines[1]).toMatch(/^Before continuing, update the handoff .*bookmark\.context\.md.* with apply_patch /)
    // Once per filling of the context.
    expect(codexRuns('check', prompt).stdout).toBe('')
  })

  it('under `codex exec` nobody reads an answer: Stop captures without asking for the handoff, and no context note', async () => {
    const exec = ['-c', 'model="gpt-5.5"', 'exec', '-s', 'workspace-write', 'patch file']
    expect(await codexRunsUnder(exec, 'stop', stop(false))).toBe('')
    expect(await readFile(join(project, '.bookmark', 'LATEST.md'), 'utf8')).toMatch(/\(stop\) of Codex CLI session/)
    await appendFile(rollout, tokenCount(250_000))
    const prompt = { ...common(), turn_id: '01a2345e-2961', hook_event_name: 'UserPromptSubmit', permission_mode: 'default', prompt: 'go on' }
    expect(await codexRunsUnder(['exec', 'resume', '--last', 'go on'], 'check', prompt)).toBe('')
    // narrativeInHeadless asks all the same.
    const asked = await codexRunsUnder(['e', 'patch file'], 'stop', stop(false), { ...sb.env, BOOKMARK_NARRATIVE_IN_HEADLESS: '1' })
    expect(Object.keys(JSON.parse(asked) as object)).toEqual(['decision', 'reason'])
  })

  it('the interactive `codex` (a first prompt given, options before it) is attended: Stop asks for the handoff', async () => {
    const answer = await codexRunsUnder(['-m', 'gpt-5.5', '--cd', project, 'exec the tests'], 'stop', stop(false))
    expect((JSON.parse(answer) as { decision: string }).decision).toBe('block')
  })

  it('PreCompact prints nothing and prepares the compact resume that SessionStart compact injects', async () => {
    const pre = codexRuns('precompact', { ...common(), turn_id: '01a2345e-2961', hook_event_name: 'PreCompact', trigger: 'auto' })
    expect(pre.stdout).toBe('')
    const a = JSON.parse(codexRuns('restore', start('compact', SID)).stdout) as { hookSpecificOutput: { additionalContext: string } }
    expect(a.hookSpecificOutput.additionalContext.split('\n').slice(0, 4)).toEqual([
      SUPERSEDES,
      '',
      '# Bookmark: `proj` after compaction',
      expect.stringMatching(/^This session was just compacted; here is what a summary tends to lose/),
    ])
  })

  it('one project, one story across hosts: Claude Code restores what Codex did, and Codex what Claude Code did', async () => {
    codexRuns('stop', stop(false))
    const claudeStart = JSON.stringify({
      session_id: 'claude-1',
      transcript_path: join(sb.dir, 'none.jsonl'),
      cwd: project,
      hook_event_name: 'SessionStart',
      source: 'startup',
    })
    const c = await runCli(['restore'], { env: sb.env, cwd: project, input: claudeStart })
    const claudeText = (JSON.parse(c.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext
    expect(claudeText).toContain('```recorded\npatch file\n```')
    expect(claudeText).not.toContain(SUPERSEDES) // Claude Code does not replay old contexts
    const transcript = join(sb.dir, 'claude-1.jsonl')
    await writeFile(transcript, (await readFile(CLAUDE, 'utf8')).split('/Users/gtrrz-victor/wks/cli').join(project))
    const claudeStop = { session_id: 'claude-1', transcript_path: transcript, cwd: project, hook_event_name: 'Stop', stop_hook_active: true }
    expect((await runCli(['stop'], { env: sb.env, cwd: project, input: JSON.stringify(claudeStop) })).code).toBe(0)
    expect(await readFile(join(project, '.bookmark', 'LATEST.md'), 'utf8')).toMatch(/of Claude Code session `claude-1`/)
    const back = JSON.parse(codexRuns('restore', start('startup', 'codex-2')).stdout) as { hookSpecificOutput: { additionalContext: string } }
    expect(back.hookSpecificOutput.additionalContext).toContain('I am having problems if I start a claude session inside a folder')
  })

  it('the full CLI takes --host codex too (`bookmark stop --host codex --cwd …`)', async () => {
    const r = await runCli(['stop', '--host', 'codex', '--cwd', project], { env: sb.env, input: JSON.stringify(stop(false)) })
    expect(r.code).toBe(0)
    expect(Object.keys(JSON.parse(r.stdout) as object)).toEqual(['decision', 'reason'])
    const bad = await runCli(['stop', '--host', 'cursor'], { env: sb.env, input: '{}' })
    expect(bad.stderr).toContain("argument 'cursor' is invalid")
  })
})
