/**
 * Which Claude Code the user runs: `claude --version` from PATH. Setup picks the hook form from it and
 * doctor runs the hooks the way that version would. Never throws: unknown is undefined.
 */
import { execFile } from 'node:child_process'
import { onPath } from '../../shared/which.js'

export type Version = [number, number, number]

/** The first Claude Code that runs exec-form hooks (`command` + `args`); older ones hand `command` alone to `sh -c`. */
export const EXEC_FORM_SINCE: Version = [2, 1, 139]

export interface ClaudeFound {
  /** The claude executable found on PATH. */
  path: string
  /** As it printed it, e.g. "2.1.332". */
  text: string
  version: Version
}

export function parseVersion(text: string): Version | undefined {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(text)
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined
}

export function atLeast(v: Version, min: Version): boolean {
  for (let i = 0; i < 3; i++) if (v[i] !== min[i]) return v[i]! > min[i]!
  return true
}

/** `claude --version` of the claude on PATH (10 s at most), or undefined when there is none or it does not answer. */
export async function findClaude(env: NodeJS.ProcessEnv): Promise<ClaudeFound | undefined> {
  const path = await onPath(process.platform === 'win32' ? 'claude.exe' : 'claude', env)
  if (!path) return undefined
  const text = await new Promise<string | undefined>((resolve) => {
    execFile(path, ['--version'], { env, timeout: 10_000, windowsHide: true }, (err, stdout) => resolve(err ? undefined : stdout.trim()))
  })
  const version = text === undefined ? undefined : parseVersion(text)
  return version && text !== undefined ? { path, text: version.join('.'), version } : undefined
}
