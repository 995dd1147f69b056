/**
 * `bookmark doctor` runs each wired hook the way Claude Code would: a shell-form command (and, before
 * 2.1.139, an exec-form one, whose `args` those versions ignore) through `sh -c`, an exec-form one
 * spawned with its args; a real payload on stdin, in a throwaway project and bookmark home. So a hook
 * that cannot start, fails, hangs or quietly does nothing is found before a session depends on it.
 */
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EXEC_FORM_SINCE, type Version, atLeast } from '../hosts/claude/version.js'
import type { HookEvent } from '../setup/hooks.js'

export interface WiredHook {
  event: HookEvent
  command: string
  args?: string[]
  /** Seconds, as in the settings. */
  timeout?: number
}

export interface ProbeProblem {
  event: HookEvent
  problem: string
}

export interface Outcome {
  code: number | null
  stdout: string
  stderr: string
  timedOut: boolean
}

/** How the host starts a handler: its own argv, or `sh -c <command>`. */
export function hostArgv(h: WiredHook, claude: Version | undefined): { file: string; args: string[]; shell: boolean } {
  const execForm = h.args !== undefined && (claude === undefined || atLeast(claude, EXEC_FORM_SINCE))
  return execForm ? { file: h.command, args: h.args!, shell: false } : { file: '/bin/sh', args: ['-c', h.command], shell: true }
}

function runOnce(h: WiredHook, claude: Version | undefined, payload: object, cwd: string, env: NodeJS.ProcessEnv): Promise<Outcome> {
  const { file, args } = hostArgv(h, claude)
  return runArgv(file, args, h.timeout, payload, cwd, env)
}

/** Runs `file args` with `payload` on stdin, killed after its timeout (seconds, at most 30). */
export function runArgv(file: string, args: string[], timeout: number | undefined, payload: object, cwd: string, env: NodeJS.ProcessEnv): Promise<Outcome> {
  const limitMs = Math.min(timeout ?? 60, 30) * 1000
  return new Promise((resolve) => {
    let stdout = ''
    let stderr = ''
    let timedOut = false
    const child = spawn(file, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true })
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, limitMs)
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c))
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c))
    child.on('error', (e) => {
      clearTimeout(timer)
      resolve({ code: null, stdout, stderr: e.message, timedOut })
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr, timedOut })
    })
    child.stdin.on('error', () => undefined) // a command that exits without reading its payload
    child.stdin.end(JSON.stringify(payload))
  })
}

/** What is wrong with one run: undefined when it exited 0 with empty or JSON-object output. */
export function judge(o: Outcome, timeout: number | undefined, host = 'Claude Code'): string | undefined {
  const lines = o.stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
  const said = (lines.find((l) => /error/i.test(l)) ?? lines[0] ?? '').slice(0, 200)
  if (o.timedOut) return `did not finish within ${Math.min(timeout ?? 60, 30)} s`
  if (o.code !== 0) return `exited ${o.code ?? 'without starting'}${said ? `: ${said}` : ''}`
  const out = o.stdout.trim()
  if (out === '') return undefined
  try {
    const v = JSON.parse(out) as unknown
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return `printed ${out.slice(0, 80)}, not a JSON object`
  } catch {
    return `printed text ${host} cannot read as hook output: ${out.slice(0, 80)}`
  }
  return undefined
}

export const exists = (p: string): Promise<boolean> =>
  stat(p).then(
    () => true,
    () => false,
  )

/** A small transcript in Claude Code's current shape: a request, a Write of probe.txt, the answer. */
function transcript(sessionId: string, proj: string): string {
  let n = 0
  const line = (type: string, rest: Record<string, unknown>): string => {
    n++
    const ts = new Date(Date.UTC(2026, 0, 1, 12, 0, n)).toISOString()
    return JSON.stringify({
      parentUuid: null,
      isSidechain: false,
      userType: 'external',
      cwd: proj,
      sessionId,
      version: '2.1.139',
      type,
      uuid: randomUUID(),
      timestamp: ts,
      ...rest,
    })
  }
  const file = join(proj, 'probe.txt')
  return (
    [
      line('user', { message: { role: 'user', content: 'Create probe.txt saying hello (bookmark doctor probe)' } }),
      line('assistant', {
        message: {
          id: 'msg_probe1',
          type: 'message',
          role: 'assistant',
          model: 'probe',
          content: [{ type: 'tool_use', id: 'toolu_probe1', name: 'Write', input: { file_path: file, content: 'hello\n' } }],
          stop_reason: 'tool_use',
          usage: { input_tokens: 10, output_tokens: 5 },
        },
      }),
      line('user', {
        message: { role: 'user', content: [{ tool_use_id: 'toolu_probe1', type: 'tool_result', content: `File created successfully at: ${file}` }] },
        toolUseResult: { type: 'create', filePath: file, content: 'hello\n' },
      }),
      line('assistant', {
        message: {
          id: 'msg_probe2',
          type: 'message',
          role: 'assistant',
          model: 'probe',
          content: [{ type: 'text', text: 'Created probe.txt.' }],
          stop_reason: 'end_turn',
          usage: { input_tokens: 10, output_tokens: 5 },
        },
      }),
    ].join('\n') + '\n'
  )
}

/**
 * Runs the hooks in the order of a session (SessionStart, UserPromptSubmit, Stop, PreCompact, then a new
 * session's SessionStart) and returns what went wrong. The throwaway folders are removed afterwards.
 */
export async function probeHooks(hooks: WiredHook[], claude: Version | undefined, env: NodeJS.ProcessEnv): Promise<ProbeProblem[]> {
  if (process.platform === 'win32') return []
  const dir = await mkdtemp(join(tmpdir(), 'bookmark-doctor-'))
  try {
    const proj = join(dir, 'project')
    const home = join(dir, 'bookmark-home')
    await mkdir(join(proj, '.git'), { recursive: true })
    await writeFile(join(proj, 'probe.txt'), 'hello\n')
    const sessionId = randomUUID()
    const transcriptPath = join(dir, `${sessionId}.jsonl`)
    await writeFile(transcriptPath, transcript(sessionId, proj))
    const childEnv: NodeJS.ProcessEnv = { ...env, BOOKMARK_HOME: home, CLAUDE_PROJECT_DIR: proj }
    delete childEnv.BOOKMARK_DISABLE
    const base = { transcript_path: transcriptPath, cwd: proj, permission_mode: 'default' }
    const byEvent = new Map(hooks.map((h) => [h.event, h]))
    const problems: ProbeProblem[] = []
    const step = async (event: HookEvent, payload: object): Promise<Outcome | undefined> => {
      const h = byEvent.get(event)
      if (!h || problems.some((p) => p.event === event)) return undefined
      const o = await runOnce(h, claude, { ...base, hook_event_name: event, ...payload }, proj, childEnv)
      const problem = judge(o, h.timeout)
      if (problem) problems.push({ event, problem })
      return problem ? undefined : o
    }
    await step('SessionStart', { session_id: sessionId, source: 'startup' })
    await step('UserPromptSubmit', { session_id: sessionId, prompt: 'Create probe.txt saying hello (bookmark doctor probe)' })
    const stopped = await step('Stop', { session_id: sessionId, stop_hook_active: false })
    const compacted = await step('PreCompact', { session_id: sessionId, trigger: 'manual', custom_instructions: '' })
    const index = join(proj, '.bookmark', 'index.json')
    for (const [event, ran] of [
      ['Stop', stopped],
      ['PreCompact', compacted],
    ] as const) {
      if (ran && !(await exists(index)))
        problems.push({ event, problem: 'ran, but captured nothing (exited 0 without saving the session: is the package it starts still there?)' })
    }
    if ((stopped || compacted) && (await exists(index))) {
      const next = await step('SessionStart', { session_id: randomUUID(), source: 'startup' })
      if (next && !next.stdout.includes('probe.txt'))
        problems.push({ event: 'SessionStart', problem: 'ran, but restored nothing of the session the other hooks had just saved' })
    }
    return problems
  } finally {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined)
  }
}
