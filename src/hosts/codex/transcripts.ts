/**
 * Where Codex keeps its rollouts: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl` and, once archived,
 * `$CODEX_HOME/archived_sessions/`. Discovery is a fallback: hooks pass `transcript_path`.
 */
import { open, readdir, stat } from '../../shared/fsp.js'
import { join, resolve } from 'node:path'
import { homeDir } from '../../shared/builtin.js'
import { DiscoveryError } from '../../shared/errors.js'
import type { Discovery } from '../host.js'
import { codexSessionId } from './sniff.js'

export function codexHome(env: NodeJS.ProcessEnv): string {
  const dir = env.CODEX_HOME
  return dir && dir.trim() !== '' ? dir : join(homeDir(env), '.codex')
}

/** Rollouts of a folder read to find the newest one of a directory: enough for months of sessions. */
const HEADS_READ = 400
/** The head of a rollout's first line that holds `session_meta`'s cwd (it comes before the instructions). */
const HEAD_BYTES = 16 * 1024

async function entries(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort().reverse()
  } catch {
    return []
  }
}

/** Every rollout under `dir`, in date folders or flat, newest name first. */
async function rollouts(dir: string, depth = 0): Promise<string[]> {
  const out: string[] = []
  for (const name of await entries(dir)) {
    if (/^rollout-.*\.jsonl$/.test(name)) out.push(join(dir, name))
    else if (depth < 3 && /^\d{2,4}$/.test(name)) out.push(...(await rollouts(join(dir, name), depth + 1)))
  }
  return out
}

/** The head of a file's first line. */
export async function readHead(path: string, bytes = HEAD_BYTES): Promise<string> {
  const fh = await open(path, 'r')
  try {
    const buf = Buffer.alloc(bytes)
    const { bytesRead } = await fh.read(buf, 0, bytes, 0)
    const text = buf.subarray(0, bytesRead).toString('utf8')
    const nl = text.indexOf('\n')
    return nl === -1 ? text : text.slice(0, nl)
  } finally {
    await fh.close()
  }
}

const META_CWD = /"type"\s*:\s*"session_meta"[\s\S]*?"cwd"\s*:\s*("(?:[^"\\]|\\.){1,4096}")/

function cwdOf(head: string): string | undefined {
  const m = META_CWD.exec(head)
  if (!m) return undefined
  try {
    return JSON.parse(m[1]!) as string
  } catch {
    return undefined
  }
}

/** The rollout of `sessionId`, or the most recently written one whose session started in `cwd`. */
export async function discoverRollout(cwd: string, sessionId: string | undefined, env: NodeJS.ProcessEnv): Promise<Discovery> {
  const home = codexHome(env)
  const roots = [join(home, 'sessions'), join(home, 'archived_sessions')]
  const files: string[] = []
  for (const root of roots) files.push(...(await rollouts(root)))
  if (files.length === 0) throw new DiscoveryError(`no Codex rollouts under ${roots.join(' or ')}; pass --transcript PATH`)
  if (sessionId) {
    const found = files.find((f) => codexSessionId(f) === sessionId)
    if (found) return { path: found, sessionId }
    throw new DiscoveryError(`no Codex rollout for session ${sessionId} under ${roots.join(' or ')}; pass --transcript PATH`)
  }
  const dated: { path: string; mtime: number }[] = []
  for (const path of files) {
    try {
      dated.push({ path, mtime: (await stat(path)).mtimeMs })
    } catch {
      // gone meanwhile
    }
  }
  dated.sort((a, b) => b.mtime - a.mtime)
  const want = resolve(cwd)
  for (const { path } of dated.slice(0, HEADS_READ)) {
    let head: string
    try {
      head = await readHead(path)
    } catch {
      continue
    }
    const at = cwdOf(head)
    if (at === undefined || resolve(at) !== want) continue
    const sid = codexSessionId(path, head) ?? path
    const note = `no session id given: picked the most recently written Codex rollout of ${want}, ${path} (session ${sid}); pass --session-id to choose another`
    return { path, sessionId: sid, note }
  }
  throw new DiscoveryError(`no Codex rollout of ${want} under ${roots.join(' or ')}; pass --transcript PATH`)
}
