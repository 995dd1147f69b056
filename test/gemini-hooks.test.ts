/**
 * The hooks as Gemini CLI 0.61 runs them: the line setup writes into settings.json (`node -e GUARD bin/bookmark.cjs
 * <hook> --host gemini`, through `bash -c`), payloads of the shape 0.61 sends (host-samples hook log), real 0.61 chat
 * files moved to the test's project. Headless runs go through a stand-in parent whose command line is `gemini -p`'s
 * shape, which is how the hook tells (src/hosts/gemini/headless.ts).
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { appendFile, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { GUARD, shellQuote } from '../src/setup/hooks.js'
import { StoreReader } from '../src/store/reader.js'
import { BIN, type Sandbox, gitRepo, runCli, sandbox } from './helpers/cli.js'
import { CORPUS } from './helpers/corpus.js'

const SAMPLES = join(CORPUS, 'host-samples')
const WORK = join(SAMPLES, 'gemini-0.61-session-2026-12-02T01-29-68de3b6c.jsonl')
const SID = '68de3b6c-482f-47ca-9ec1-7c7b75e900df'
const COMPRESSED = join(SAMPLES, 'gemini-0.61-session-2026-12-02T01-29-8c941e15.jsonl')
const CSID = '8c941e15-b04b-42ea-9bd1-465891f7e0c9'
const CLAUDE = join(CORPUS, 'claude', 'cc-2.1.4-tiny-summary-5a3bb1c8.jsonl')

let sb: Sandbox
let project: string
let chat: string

/** A chat file of the sample moved to the test's project. */
async function place(sample: string, name: string): Promise<string> {
  const path = join(sb.dir, name)
  await writeFile(path, (await readFile(sample, 'utf8')).split('/home/dev/runs/w/proj').join(project))
  return path
}

beforeEach(async () => {
  sb = await sandbox()
  project = await gitRepo(join(sb.dir, 'proj'))
  chat = await place(WORK, 'session-2026-12-02T01-29-68de3b6c.jsonl')
})

const LINE = (hook: string): string => `${[process.execPath, '-e', GUARD, BIN].map(shellQuote).join(' ')} ${hook} --host gemini`

/** Runs `hook` as Gemini does: its settings.json command line through `bash -c`; headless: under a `gemini -p` command line. */
function geminiRuns(hook: string, payload: object, headless = false): string {
  const input = JSON.stringify(payload)
  if (!headless) return execFileSync('/bin/bash', ['-c', LINE(hook)], { cwd: project, env: sb.env, input, encoding: 'utf8' })
  const parent = join(sb.dir, 'gemini.cjs')
  return execFileSync(process.execPath, [parent, '-p', 'create hello.txt', '--approval-mode', 'yolo'], {
    cwd: project,
    env: { ...sb.env, LINE: LINE(hook) },
    input,
    encoding: 'utf8',
  })
}

const base = (event: string, extra: object = {}) => ({
  session_id: SID,
  transcript_path: chat,
  cwd: project,
  hook_event_name: event,
  timestamp: '2026-12-02T01:29:05.800Z',
  ...extra,
})
const afterAgent = (active = false) => base('AfterAgent', { prompt: 'write notes.md', prompt_response: 'Done.', stop_hook_active: active })

describe.skipIf(!existsSync(WORK) || !existsSync(COMPRESSED) || !existsSync(CLAUDE))('hooks run as Gemini CLI', () => {
  beforeEach(async () => {
    await writeFile(join(sb.dir, 'gemini.cjs'), "require('child_process').execFileSync('/bin/bash', ['-c', process.env.LINE], { stdio: 'inherit' })\n")
  })

  it('AfterAgent captures the chat file and blocks once for the turn, though stop_hook_active stays false', async () => {
    // More blocks allowed per session than one: only the turn's own guard keeps the retry from being asked again.
    expect((await runCli(['config', '--set', 'maxNarrativeBlocks=3'], { env: sb.env, cwd: project })).code).toBe(0)
    const answer = JSON.parse(geminiRuns('stop', afterAgent())) as Record<string, unknown>
    expect(Object.keys(answer)).toEqual(['decision', 'reason'])
    expect(answer.decision).toBe('block')
    expect(answer.reason).toMatch(/^session-bookmark: before you stop, write the handoff for the next session \(no narrative yet\)\./)
    expect(answer.reason).toContain(`\nUse write_file to write ${join(project, '.bookmark', 'bookmark.context.md')} now, replacing the file.`)
    const latest = await readFile(join(project, '.bookmark', 'LATEST.md'), 'utf8')
    expect(latest).toMatch(new RegExp(`^Snapshot \`SNAP_\\w+\` \\(stop\\) of Gemini CLI session \`${SID}\`, captured `, 'm'))
    expect(latest).toContain('> write notes.md')
    // Gemini's retry after the block used a tool: stop_hook_active is false again; the same turn is not asked twice.
    expect(geminiRuns('stop', afterAgent(false))).toBe('')
    const hooks = await new StoreReader(project, sb.env.BOOKMARK_HOME!).readSessionHooks(SID)
    expect(hooks.blocks).toBe(1)
    expect(hooks.blockTurn).toMatch(/^[0-9a-f]{16}$/)
    expect(JSON.stringify(hooks)).not.toContain('notes.md') // a key of the prompt, never the prompt
    // The user's next prompt is a new turn: the narrative is still missing, so it is asked for again.
    expect(JSON.parse(geminiRuns('stop', { ...afterAgent(), prompt: 'and now?' })).decision).toBe('block')
  })

  it('interactive: SessionStart restores as JSON additionalContext; the first BeforeAgent adds nothing', async () => {
    geminiRuns('stop', afterAgent())
    const start = JSON.parse(geminiRuns('restore', { ...base('SessionStart', { source: 'startup' }), session_id: 'next' })) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string }
    }
    expect(Object.keys(start.hookSpecificOutput)).toEqual(['hookEventName', 'additionalContext'])
    expect(start.hookSpecificOutput.hookEventName).toBe('SessionStart')
    expect(start.hookSpecificOutput.additionalContext.split('\n')[0]).toBe('# Bookmark: continuing work in `proj`')
    expect(start.hookSpecificOutput.additionalContext).toContain('```recorded\nwrite notes.md\n```')
    const next = await place(WORK, 'next.jsonl')
    expect(geminiRuns('check', { ...base('BeforeAgent', { prompt: 'go on' }), session_id: 'next', transcript_path: next })).toBe('')
  })

  it('headless: SessionStart prints nothing, the first BeforeAgent restores once, with its own event name', async () => {
    geminiRuns('stop', afterAgent())
    expect(geminiRuns('restore', { ...base('SessionStart', { source: 'startup' }), session_id: 'next' }, true)).toBe('')
    const next = await place(WORK, 'next.jsonl')
    const first = { ...base('BeforeAgent', { prompt: 'go on' }), session_id: 'next', transcript_path: next }
    const a = JSON.parse(geminiRuns('check', first, true)) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } }
    expect(Object.keys(a.hookSpecificOutput)).toEqual(['hookEventName', 'additionalContext'])
    expect(a.hookSpecificOutput.hookEventName).toBe('BeforeAgent')
    expect(a.hookSpecificOutput.additionalContext.split('\n')[0]).toBe('# Bookmark: continuing work in `proj`')
    expect(a.hookSpecificOutput.additionalContext).toContain('```recorded\nwrite notes.md\n```')
    // It stays in Gemini's history: the next prompt (and a --resume of the session) gets nothing more.
    expect(geminiRuns('check', first, true)).toBe('')
    // Headless, the turn's end does not ask for the narrative (narrativeInHeadless is off by default).
    expect(geminiRuns('stop', { ...afterAgent(), session_id: 'next', transcript_path: next }, true)).toBe('')
  })

  it('after a compression, the next BeforeAgent brings the compact resume, once', async () => {
    const whole = await readFile(COMPRESSED, 'utf8')
    const lines = whole.split('\n')
    const cut = lines.findIndex((l) => l.startsWith('{"$set":{"sessionId"'))
    const file = join(sb.dir, 'session-2026-12-02T01-29-8c941e15.jsonl')
    const fix = (t: string): string => t.split('/home/dev/runs/w/proj').join(project)
    // Before the compression: BeforeAgent of "say hi" sees the file as it stood then (its look takes its place). The
    // last reply's 900,000 input tokens are past where Gemini compresses (half of 1,048,576): the check asks for the handoff.
    await writeFile(file, fix(lines.slice(0, cut).join('\n') + '\n'))
    const payload = { session_id: CSID, transcript_path: file, cwd: project, hook_event_name: 'BeforeAgent', prompt: 'say hi' }
    const note = JSON.parse(geminiRuns('check', payload)) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } }
    expect(note.hookSpecificOutput.hookEventName).toBe('BeforeAgent')
    expect(note.hookSpecificOutput.additionalContext).toMatch(/^session-bookmark: the context is 100% full and compaction will drop detail\.\n/)
    expect(note.hookSpecificOutput.additionalContext).toContain(`update the handoff ${join(project, '.bookmark', 'bookmark.context.md')} with write_file`)
    expect(geminiRuns('check', { ...payload, prompt: 'and?' })).toBe('') // once per filling of the context
    await appendFile(file, fix(lines.slice(cut).join('\n')))
    const a = JSON.parse(geminiRuns('check', { ...payload, prompt: 'next' })) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } }
    expect(a.hookSpecificOutput.hookEventName).toBe('BeforeAgent')
    expect(a.hookSpecificOutput.additionalContext.split('\n')[0]).toBe('# Bookmark: `proj` after compaction')
    expect(a.hookSpecificOutput.additionalContext).toContain('fill context')
    expect(geminiRuns('check', { ...payload, prompt: 'again' })).toBe('')
    const hooks = await new StoreReader(project, sb.env.BOOKMARK_HOME!).readSessionHooks(CSID)
    expect(hooks.compactions).toBe(1)
  })

  it('one project, one story across hosts: Claude Code restores what Gemini did, and Gemini what Claude Code did', async () => {
    geminiRuns('stop', afterAgent())
    const claudeStart = {
      session_id: 'claude-1',
      transcript_path: join(sb.dir, 'none.jsonl'),
      cwd: project,
      hook_event_name: 'SessionStart',
      source: 'startup',
    }
    const c = await runCli(['restore'], { env: sb.env, cwd: project, input: JSON.stringify(claudeStart) })
    const claudeText = (JSON.parse(c.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext
    expect(claudeText).toContain('```recorded\nwrite notes.md\n```')
    expect(claudeText).toMatch(/`notes\.md`/)
    const transcript = join(sb.dir, 'claude-1.jsonl')
    await writeFile(transcript, (await readFile(CLAUDE, 'utf8')).split('/Users/gtrrz-victor/wks/cli').join(project))
    const claudeStop = { session_id: 'claude-1', transcript_path: transcript, cwd: project, hook_event_name: 'Stop', stop_hook_active: true }
    expect((await runCli(['stop'], { env: sb.env, cwd: project, input: JSON.stringify(claudeStop) })).code).toBe(0)
    const back = JSON.parse(geminiRuns('restore', { ...base('SessionStart', { source: 'startup' }), session_id: 'gemini-2' })) as {
      hookSpecificOutput: { additionalContext: string }
    }
    expect(back.hookSpecificOutput.additionalContext).toContain('I am having problems if I start a claude session inside a folder')
  })

  it('PreCompress (before every model call) does nothing, and the full CLI takes --host gemini', async () => {
    expect(geminiRuns('precompact', base('PreCompress', { trigger: 'auto' }))).toBe('')
    expect(existsSync(join(project, '.bookmark', 'index.json'))).toBe(false)
    const r = await runCli(['stop', '--host', 'gemini', '--cwd', project], { env: sb.env, input: JSON.stringify(afterAgent()) })
    expect(r.code).toBe(0)
    expect(Object.keys(JSON.parse(r.stdout) as object)).toEqual(['decision', 'reason'])
  })
})
