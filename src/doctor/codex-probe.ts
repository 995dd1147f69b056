/**
 * `bookmark doctor` runs each Codex hook the way Codex CLI 0.171 does: the command through `$SHELL -c` (not a login
 * shell) in the session's folder, a Codex payload on stdin naming a rollout of Codex's current shape, in a throwaway
 * project, Codex home and bookmark home. Each answer is held to Codex's output schema for its event: Codex drops
 * a whole answer for one key too many ("… Failed"), and a Stop that says more than decision and reason blocks nothing.
 */
import { randomUUID } from 'node:crypto'
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import type { HookEvent } from '../setup/hooks.js'
import { StoreReader } from '../store/reader.js'
import { type Outcome, type ProbeProblem, exists, judge, runArgv } from './probe.js'

export interface CodexWiredHook {
  event: HookEvent
  command: string
  /** Seconds, as in hooks.json. */
  timeout?: number
}

/** Above this many characters Codex gives the model a preview and a file path instead of the context. */
const CONTEXT_SPILL = 10_000

const COMMON = ['continue', 'stopReason', 'suppressOutput', 'systemMessage']
/** The keys Codex 0.171's output schema allows per event (`additionalProperties: false`). */
const ALLOWED: Record<HookEvent, string[]> = {
  SessionStart: [...COMMON, 'hookSpecificOutput'],
  UserPromptSubmit: [...COMMON, 'decision', 'reason', 'hookSpecificOutput'],
  Stop: [...COMMON, 'decision', 'reason'],
  PreCompact: COMMON,
}

/** What Codex would refuse in one answer, or undefined when it takes it. */
export function codexAnswerProblem(event: HookEvent, stdout: string): string | undefined {
  const out = stdout.trim()
  if (out === '') return undefined
  const v = JSON.parse(out) as Record<string, unknown> // judge() has seen a JSON object
  const extra = Object.keys(v).filter((k) => !ALLOWED[event].includes(k))
  if (extra.length > 0) return `answered with ${extra.join(', ')}, which Codex's ${event} schema does not allow: Codex drops the whole answer`
  if ('decision' in v && (v.decision !== 'block' || typeof v.reason !== 'string'))
    return `answered decision ${JSON.stringify(v.decision)} without the "block" and reason Codex needs`
  const specific = v.hookSpecificOutput
  if (specific === undefined) return undefined
  if (specific === null || typeof specific !== 'object' || Array.isArray(specific)) return 'answered a hookSpecificOutput that is not an object'
  const s = specific as Record<string, unknown>
  const wrong = Object.keys(s).filter((k) => k !== 'hookEventName' && k !== 'additionalContext')
  if (s.hookEventName !== event || wrong.length > 0 || (s.additionalContext !== undefined && typeof s.additionalContext !== 'string'))
    return `answered a hookSpecificOutput Codex's ${event} schema does not take: ${JSON.stringify(s).slice(0, 120)}`
  if (typeof s.additionalContext === 'string' && s.additionalContext.length > CONTEXT_SPILL)
    return `gave ${s.additionalContext.length} characters of context: Codex shows the model a preview and a file path instead`
  return undefined
}

const PROMPT = 'Create probe.txt saying hello (bookmark doctor probe)'

/**
 * A small rollout in Codex 0.171's shape, as it stands when the prompt is submitted (`start`: the request) and
 * what the turn adds before Stop (`turn`: an apply_patch adding probe.txt, the answer).
 */
function rollout(sessionId: string, proj: string): { start: string; turn: string } {
  let n = 0
  const line = (type: string, payload: Record<string, unknown>): string =>
    JSON.stringify({ timestamp: new Date(Date.UTC(2026, 0, 1, 12, 0, n)).toISOString(), ordinal: n++, type, payload })
  const done = (item: Record<string, unknown>): string => line('event_msg', { type: 'item_completed', thread_id: sessionId, turn_id: 'probe-turn', item })
  const patch = '*** Begin Patch\n*** Add File: probe.txt\n+hello\n*** End Patch'
  const start = [
    line('session_meta', { id: sessionId, session_id: sessionId, cwd: proj, cli_version: '0.171.0', originator: 'codex-tui', source: 'cli' }),
    done({ type: 'UserMessage', id: 'probe-user', content: [{ type: 'text', text: PROMPT, text_elements: [] }] }),
  ]
  const turn = [
    line('response_item', { type: 'custom_tool_call', id: 'ctc_probe', status: 'completed', call_id: 'call_probe', name: 'apply_patch', input: patch }),
    done({ type: 'FileChange', id: 'call_probe', changes: { [join(proj, 'probe.txt')]: { type: 'add', content: 'hello\n' } }, status: 'completed' }),
    line('response_item', {
      type: 'custom_tool_call_output',
      call_id: 'call_probe',
      output: 'Exit code: 0\nOutput:\nSuccess. Updated the following files:\nA probe.txt\n',
    }),
    done({ type: 'AgentMessage', id: 'probe-reply', content: [{ type: 'Text', text: 'Created probe.txt.' }] }),
  ]
  return { start: `${start.join('\n')}\n`, turn: `${turn.join('\n')}\n` }
}

/** Codex runs a hook's command with the user's shell (`$SHELL -c`). */
function shellOf(env: NodeJS.ProcessEnv): string {
  const shell = env.SHELL
  return shell && isAbsolute(shell) ? shell : '/bin/sh'
}

/**
 * Runs the hooks in the order of a Codex session (SessionStart, UserPromptSubmit, Stop, PreCompact, then a new
 * session's SessionStart) and returns what went wrong. The throwaway folders are removed afterwards.
 */
export async function probeCodexHooks(hooks: CodexWiredHook[], env: NodeJS.ProcessEnv): Promise<ProbeProblem[]> {
  if (process.platform === 'win32' || hooks.length === 0) return []
  const dir = await mkdtemp(join(tmpdir(), 'bookmark-doctor-codex-'))
  try {
    const proj = join(dir, 'project')
    const codexHome = join(dir, 'codex')
    await mkdir(join(proj, '.git'), { recursive: true })
    await writeFile(join(proj, 'probe.txt'), 'hello\n')
    const sessionId = randomUUID()
    const days = join(codexHome, 'sessions', '2026', '01', '01')
    await mkdir(days, { recursive: true })
    const transcriptPath = join(days, `rollout-2026-01-01T12-00-00-${sessionId}.jsonl`)
    const lines = rollout(sessionId, proj)
    await writeFile(transcriptPath, lines.start)
    // Codex gives a hook its own environment plus CODEX_HOME; nothing of a Claude Code session it runs inside.
    const childEnv: NodeJS.ProcessEnv = { ...env, BOOKMARK_HOME: join(dir, 'bookmark-home'), CODEX_HOME: codexHome }
    delete childEnv.BOOKMARK_DISABLE
    delete childEnv.CLAUDE_PROJECT_DIR
    const base = { transcript_path: transcriptPath, cwd: proj, model: 'gpt-5.5' }
    const turn = { turn_id: randomUUID(), permission_mode: 'default' }
    const byEvent = new Map(hooks.map((h) => [h.event, h]))
    const problems: ProbeProblem[] = []
    const step = async (event: HookEvent, payload: object): Promise<Outcome | undefined> => {
      const h = byEvent.get(event)
      if (!h || problems.some((p) => p.event === event)) return undefined
      const o = await runArgv(shellOf(env), ['-c', h.command], h.timeout, { ...base, hook_event_name: event, ...payload }, proj, childEnv)
      const problem = judge(o, h.timeout, 'Codex CLI') ?? codexAnswerProblem(event, o.stdout)
      if (problem) problems.push({ event, problem })
      return problem ? undefined : o
    }
    await step('SessionStart', { session_id: sessionId, permission_mode: 'default', source: 'startup' })
    await step('UserPromptSubmit', { session_id: sessionId, ...turn, prompt: PROMPT })
    await appendFile(transcriptPath, lines.turn)
    const index = join(proj, '.bookmark', 'index.json')
    const nothing = 'ran, but captured nothing (exited 0 without saving the session: is it wired with `--host codex`?)'
    const stopped = await step('Stop', { session_id: sessionId, ...turn, stop_hook_active: false, last_assistant_message: 'Created probe.txt.' })
    if (stopped) {
      // Read as a Claude Code transcript, a rollout yields no request and no file: only the payload's last message.
      const latest = await readFile(join(proj, '.bookmark', 'LATEST.md'), 'utf8').catch(() => undefined)
      if (latest === undefined) problems.push({ event: 'Stop', problem: nothing })
      else if (!latest.includes('`probe.txt`'))
        problems.push({
          event: 'Stop',
          problem: 'ran, but did not read the rollout (its capture misses the file the session created): is it wired with `--host codex`?',
        })
    }
    const compacted = await step('PreCompact', { session_id: sessionId, turn_id: turn.turn_id, trigger: 'auto' })
    if (compacted && (await new StoreReader(proj, childEnv.BOOKMARK_HOME!).readCompactResume(sessionId)) === undefined)
      problems.push({ event: 'PreCompact', problem: (await exists(index)) ? 'ran, but prepared no compact resume for the session' : nothing })
    if ((stopped || compacted) && (await exists(index))) {
      const next = await step('SessionStart', { session_id: randomUUID(), permission_mode: 'default', source: 'startup' })
      if (next && !next.stdout.includes('probe.txt'))
        problems.push({ event: 'SessionStart', problem: 'ran, but restored nothing of the session the other hooks had just saved' })
    }
    return problems
  } finally {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined)
  }
}
