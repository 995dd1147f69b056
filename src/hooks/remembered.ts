/**
 * Answers the hooks keep in the store for their next call, each with the key of everything it was made
 * from: the prepared startup restore (prepared.ts) and the judged narrative (narrative.ts). A key holds
 * stamps (size, mtime, ctime, inode) of the files read, the git branch and HEAD, the configuration used
 * and the build of this package; an answer is used only when the key computed now is the same. They are
 * written only by hooks that capture, never by one that found nothing new, and kept in the project's folder
 * of the bookmark home (store/layout.ts), where no repository can plant one.
 */
import { removeFile } from '../shared/fsp.js'
import { isObject } from '../shared/json.js'
import { type Stamp, fileStamp } from '../store/fs.js'
import { type GitInfo, gitIndexFile } from '../repo/git.js'
import { projectLayout } from '../store/layout.js'
import { readJson } from '../store/read.js'

// Set by scripts/bundle.mjs to a hash of the sources: an answer made by other code is never used.
declare const __BOOKMARK_BUILD__: string | undefined
export const BUILD = typeof __BOOKMARK_BUILD__ === 'string' ? __BOOKMARK_BUILD__ : 'source'

/** What every key holds: the build, the project, its git state, the handoff and git's index (which says whether git tracks it). */
export interface BaseKey {
  build: string
  root: string
  branch: string | null
  head: string | null
  narrative: Stamp
  gitIndex: Stamp
}

export async function baseKey(root: string, git: GitInfo): Promise<BaseKey> {
  const gitIndex = await gitIndexFile(root)
  return {
    build: BUILD,
    root,
    branch: git.branch ?? null,
    head: git.head ?? null,
    narrative: await fileStamp(projectLayout(root).narrative),
    gitIndex: gitIndex === undefined ? null : await fileStamp(gitIndex),
  }
}

interface RememberedFile<K, V> {
  version: number
  key: K
  value: V
}

/** The value kept at `path` when its key equals `key`; undefined otherwise (no such folder yet, missing, damaged, other key). */
export async function recall<K, V>(path: string | undefined, version: number, key: K, isValue: (v: unknown) => v is V): Promise<V | undefined> {
  const kept = await recallKept(path, version, key, isValue)
  return kept?.current ? kept.value : undefined
}

/** The value kept at `path`, and whether its key equals `key` (`current`); undefined when none is kept there. */
export async function recallKept<K, V>(
  path: string | undefined,
  version: number,
  key: K,
  isValue: (v: unknown) => v is V,
): Promise<{ value: V; current: boolean } | undefined> {
  if (path === undefined) return undefined
  try {
    const r = await readJson(path, (v): v is RememberedFile<K, V> => isObject(v) && v.version === version && isObject(v.key) && isValue(v.value))
    return r.ok ? { value: r.value.value, current: JSON.stringify(r.value.key) === JSON.stringify(key) } : undefined
  } catch {
    return undefined
  }
}

/**
 * Keeps `value` under `key` in `.bookmark/<name>`, atomically. The value is stored as it is: the callers give
 * redacted text or judgements of numbers and flags.
 * Of a key, only the project's path and its branch come from outside (the rest are stamps, numbers, git's
 * checked hex ids and this build): they are stored redacted. A path or branch that held a secret then never
 * equals the key computed next time, so that answer is made again on each call instead of being read.
 */
export async function remember<K extends BaseKey, V>(path: string, version: number, key: K, value: V): Promise<void> {
  const [{ writeJson }, { redact }] = await Promise.all([import('../store/files.js'), import('../redact/secrets.js')])
  const stored: K = { ...key, root: redact(key.root), branch: key.branch === null ? null : redact(key.branch) }
  await writeJson(path, { version, key: stored, value } satisfies RememberedFile<K, V>, { redacted: true })
}

export async function forget(path: string): Promise<void> {
  await removeFile(path)
}
