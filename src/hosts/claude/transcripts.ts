/**
 * Claude Code specifics: where transcripts live. Discovery is a fallback: hooks pass `transcript_path`.
 */
import { readdir, stat } from '../../shared/fsp.js'
import { homeDir, nodeModule } from '../../shared/builtin.js'
import { basename, join } from 'node:path'
import { DiscoveryError } from '../../shared/errors.js'
import type { Discovery } from '../host.js'

/**
 * fast-glob, loaded when a transcript must be looked for: the package and its dozen modules cost every command
 * that loaded it about 40 ms. The bundles are CommonJS (a hook's chunks cannot `import()`); the test runner's ES
 * modules get a require of their own.
 */
function fastGlob(): typeof import('fast-glob') {
  const req = typeof require === 'function' ? require : nodeModule().createRequire(import.meta.url)
  return req('fast-glob') as typeof import('fast-glob')
}

/** Claude Code replaces every character outside [A-Za-z0-9] with `-` (per UTF-16 code unit). */
export function encodeProjectDir(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-')
}

/** Long names are truncated to 200 characters plus a hash we do not recompute: match on the prefix. */
export const ENCODED_PREFIX = 200

export function claudeConfigDir(env: NodeJS.ProcessEnv): string {
  const dir = env.CLAUDE_CONFIG_DIR
  return dir && dir.trim() !== '' ? dir : join(homeDir(env), '.claude')
}

export function projectsDir(env: NodeJS.ProcessEnv): string {
  return join(claudeConfigDir(env), 'projects')
}

async function projectDirsFor(cwd: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const root = projectsDir(env)
  const encoded = encodeProjectDir(cwd)
  let names: string[]
  try {
    names = await readdir(root)
  } catch {
    return []
  }
  if (encoded.length <= ENCODED_PREFIX) return names.filter((n) => n === encoded).map((n) => join(root, n))
  const prefix = encoded.slice(0, ENCODED_PREFIX)
  return names.filter((n) => n.startsWith(prefix)).map((n) => join(root, n))
}

/**
 * Finds the transcript for `cwd`: the named session's file, or (without a session id) the newest one,
 * saying which one it picked and how many there were.
 */
export async function discoverTranscript(cwd: string, sessionId: string | undefined, env: NodeJS.ProcessEnv): Promise<Discovery> {
  const dirs = await projectDirsFor(cwd, env)
  if (dirs.length === 0) {
    throw new DiscoveryError(
      `no Claude Code transcripts for ${cwd} under ${projectsDir(env)} (expected a folder named ${encodeProjectDir(cwd).slice(0, ENCODED_PREFIX)}); pass --transcript PATH`,
    )
  }
  if (sessionId) {
    for (const dir of dirs) {
      const p = join(dir, `${sessionId}.jsonl`)
      try {
        if ((await stat(p)).isFile()) return { path: p, sessionId }
      } catch {
        // try the next
      }
    }
    throw new DiscoveryError(`no transcript for session ${sessionId} in ${dirs.join(', ')}; pass --transcript PATH`)
  }
  const candidates: { path: string; mtime: number }[] = []
  for (const dir of dirs) {
    const found = await fastGlob()('*.jsonl', { cwd: dir, absolute: true, onlyFiles: true, stats: true, suppressErrors: true })
    for (const f of found) candidates.push({ path: f.path, mtime: f.stats?.mtimeMs ?? 0 })
  }
  candidates.sort((a, b) => b.mtime - a.mtime)
  const newest = candidates[0]
  if (!newest) throw new DiscoveryError(`no transcript files in ${dirs.join(', ')}; pass --transcript PATH`)
  const sid = basename(newest.path, '.jsonl')
  const note = `no session id given: picked the most recently written transcript ${newest.path} (session ${sid}, newest of ${candidates.length}); pass --session-id to choose another`
  return { path: newest.path, sessionId: sid, note }
}
