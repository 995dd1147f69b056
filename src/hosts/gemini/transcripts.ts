/**
 * Where Gemini CLI keeps its chats: `<home>/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl` (0.61; `.json`
 * before), `<home>` being `$GEMINI_CLI_HOME` when set. `<project>` is the slug `projects.json` gives the folder
 * (0.61) or the folder's sha256 (older). Discovery also serves hooks: at SessionStart on resume the payload's
 * transcript_path is a stub holding only metadata, so a session's file is found by its id.
 */
import { createHash } from 'node:crypto'
import { open, readFile, readdir, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { homeDir } from '../../shared/builtin.js'
import { DiscoveryError } from '../../shared/errors.js'
import { isObject } from '../../shared/json.js'
import type { Discovery } from '../host.js'
import { geminiSessionId } from './sniff.js'

export function geminiDir(env: NodeJS.ProcessEnv): string {
  const home = env.GEMINI_CLI_HOME
  return join(home && home.trim() !== '' ? home : homeDir(env), '.gemini')
}

const CHAT = /^session-.*\.jsonl?$/

async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir)
  } catch {
    return []
  }
}

/** Every chat file of every project, or of the given project folders. */
async function chats(tmp: string, projects?: string[]): Promise<string[]> {
  const out: string[] = []
  for (const p of projects ?? (await names(tmp))) {
    const dir = join(tmp, p, 'chats')
    for (const n of await names(dir)) if (CHAT.test(n)) out.push(join(dir, n))
  }
  return out
}

/** A file's first bytes (a chat's session id is in its first line or, in a `.json` session, its first lines). */
export async function readStart(path: string, bytes = 4096): Promise<string> {
  const fh = await open(path, 'r')
  try {
    const buf = Buffer.alloc(bytes)
    const { bytesRead } = await fh.read(buf, 0, bytes, 0)
    return buf.subarray(0, bytesRead).toString('utf8')
  } finally {
    await fh.close()
  }
}

/** The project folders Gemini may keep `cwd`'s chats in: its slug from projects.json, and its sha256. */
async function projectFolders(gemini: string, cwd: string): Promise<string[]> {
  const out = [createHash('sha256').update(cwd).digest('hex')]
  try {
    const registry: unknown = JSON.parse(await readFile(join(gemini, 'projects.json'), 'utf8'))
    const projects = isObject(registry) && isObject(registry.projects) ? registry.projects : {}
    const slug = projects[cwd]
    if (typeof slug === 'string' && slug !== '' && !slug.includes('/') && !slug.includes('..')) out.unshift(slug)
  } catch {
    // no registry (before 0.5x): the hash folder only
  }
  return out
}

async function sized(paths: string[]): Promise<{ path: string; size: number; mtime: number }[]> {
  const out: { path: string; size: number; mtime: number }[] = []
  for (const path of paths) {
    try {
      const s = await stat(path)
      out.push({ path, size: s.size, mtime: s.mtimeMs })
    } catch {
      // gone meanwhile
    }
  }
  return out
}

/**
 * The chat of `sessionId` (of all its files, the biggest: a resume's stub holds only metadata), or the most
 * recently written chat of `cwd`'s project.
 */
export async function discoverChat(cwd: string, sessionId: string | undefined, env: NodeJS.ProcessEnv): Promise<Discovery> {
  const gemini = geminiDir(env)
  const tmp = join(gemini, 'tmp')
  if (sessionId) {
    const prefix = sessionId.slice(0, 8)
    const named = (await chats(tmp)).filter((f) => f.includes(prefix))
    const mine: string[] = []
    for (const f of named) {
      const id = await readStart(f).then(geminiSessionId, () => undefined)
      if (id === sessionId) mine.push(f)
    }
    const best = (await sized(mine)).sort((a, b) => b.size - a.size || b.mtime - a.mtime)[0]
    if (best) return { path: best.path, sessionId }
    throw new DiscoveryError(`no Gemini CLI chat for session ${sessionId} under ${tmp}; pass --transcript PATH`)
  }
  const want = resolve(cwd)
  const files = await sized(await chats(tmp, await projectFolders(gemini, want)))
  const newest = files.sort((a, b) => b.mtime - a.mtime)[0]
  if (!newest) throw new DiscoveryError(`no Gemini CLI chat of ${want} under ${tmp}; pass --transcript PATH`)
  const sid = (await readStart(newest.path).then(geminiSessionId, () => undefined)) ?? newest.path
  const note = `no session id given: picked the most recently written Gemini CLI chat of ${want}, ${newest.path} (session ${sid}); pass --session-id to choose another`
  return { path: newest.path, sessionId: sid, note }
}
