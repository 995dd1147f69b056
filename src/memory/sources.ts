/**
 * Every transcript on the machine, by host: Claude Code's `projects/<folder>/<session>.jsonl` (and a session's
 * subagent files, `projects/<folder>/<session>/subagents/*.jsonl`, counted under that session) and Codex's
 * rollouts in `sessions/YYYY/MM/DD/` and `archived_sessions/`.
 * Found with synchronous directory reads and a stat of each file: a search looks for new bytes before every
 * answer, and a walk of a few dozen folders costs less than loading a glob library. As the glob it replaced
 * (`**\/*.jsonl`, five levels at most, no dot names, symbolic links never followed): regular files only.
 * Below a store's root, paths are joined by hand (`path.join` on a thousand files costs more than their stats).
 */
import { type Dirent, readdirSync, statSync } from 'node:fs'
import { join, sep } from 'node:path'
import { claudeConfigDir } from '../hosts/claude/transcripts.js'
import { codexHome, readHead } from '../hosts/codex/transcripts.js'
import { codexSessionId } from '../hosts/codex/sniff.js'
import type { HostId } from '../hosts/host.js'

export interface TranscriptSource {
  path: string
  host: HostId
  session: string
}

/** A transcript file as found: its size and mtime, and its session when its place names it. */
export interface FoundTranscript {
  path: string
  host: HostId
  session?: string
  size: number
  mtime: number
}

/** What a look at the host stores saw: compared with the stamp of the last catch-up (stamp.ts). */
export interface Look {
  /** Sizes and mtimes of every transcript and folder walked, folded into one value: equal means nothing changed. */
  digest: string
  /** Every folder walked, and the digest of their mtimes alone (foldersDigest): a file added, removed or renamed. */
  folders: string[]
  foldersDigest: string
}

export interface Found extends Look {
  transcripts: FoundTranscript[]
}

/** Most path parts below a store's root a transcript may have (the old glob's `deep: 5`). */
const MAX_PARTS = 5

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
  } catch {
    return []
  }
}

const NO_THROW = { throwIfNoEntry: false } as const

/** Sizes and mtimes folded into two 32-bit lanes (a change detector, not a seal). */
class Digest {
  private a = 0x811c9dc5
  private b = 0x9747b28c
  private n = 0

  add(size: number, mtimeMs: number): void {
    const us = mtimeMs * 1000
    this.a = Math.imul(this.a ^ size, 0x01000193)
    this.a = Math.imul(this.a ^ us, 0x01000193)
    this.b = Math.imul(this.b ^ ((us / 4294967296) | 0), 0x5bd1e995) ^ (size / 4294967296) ^ (this.a >>> 13)
    this.n++
  }

  value(): string {
    return `${this.n}:${(this.a >>> 0).toString(36)}:${(this.b >>> 0).toString(36)}`
  }
}

/** The folders of a walk: their paths, and their mtimes folded apart (foldersDigest stats them again). */
interface Folders {
  paths: string[]
  digest: Digest
}

/**
 * The `.jsonl` files under `root`, each stat'ed and passed on with the path parts of its folder below `root`
 * (one array, changed as the walk goes: copy it to keep it); every folder's mtime and file's size and mtime go
 * into `digest` (a file renamed or removed changes its folder's mtime), and every folder into `folders`.
 */
function walk(root: string, digest: Digest, folders: Folders, onFile?: (path: string, dir: string[], name: string, size: number, mtime: number) => void): void {
  const dir: string[] = []
  const visit = (path: string): void => {
    const st = statSync(path, NO_THROW)
    if (st === undefined || !st.isDirectory()) return
    digest.add(0, st.mtimeMs)
    folders.paths.push(path)
    folders.digest.add(0, st.mtimeMs)
    for (const e of entries(path)) {
      const name = e.name
      if (name.charCodeAt(0) === 46) continue // a dot name
      if (e.isFile()) {
        if (!name.endsWith('.jsonl')) continue
        const file = path + sep + name
        const s = statSync(file, NO_THROW)
        if (s === undefined) continue
        digest.add(s.size, s.mtimeMs)
        onFile?.(file, dir, name, s.size, s.mtimeMs)
      } else if (e.isDirectory() && dir.length + 2 <= MAX_PARTS) {
        dir.push(name)
        visit(path + sep + name)
        dir.pop()
      }
    }
  }
  visit(root)
}

const storeRoots = (env: NodeJS.ProcessEnv): { claude: string; codex: string[] } => ({
  claude: join(claudeConfigDir(env), 'projects'),
  codex: [join(codexHome(env), 'sessions'), join(codexHome(env), 'archived_sessions')],
})

/** The digest of every transcript's size and mtime (and of their folders): what a search compares with its stamp. */
export function lookAtStores(env: NodeJS.ProcessEnv): Look {
  const digest = new Digest()
  const folders: Folders = { paths: [], digest: new Digest() }
  const roots = storeRoots(env)
  walk(roots.claude, digest, folders)
  for (const root of roots.codex) walk(root, digest, folders)
  return { digest: digest.value(), folders: folders.paths, foldersDigest: folders.digest.value() }
}

/**
 * The mtimes of `folders` now, folded as a walk folds them (a folder gone or no longer one counts apart): equal to
 * a look's `foldersDigest` when no transcript was added, removed or renamed in them since. A walk's store root
 * that was missing is not in its list: a root made since is caught by the full look (stamp.ts, LOOK_EVERY_MS).
 */
export function foldersDigest(folders: readonly string[]): string {
  const digest = new Digest()
  for (const path of folders) {
    const st = statSync(path, NO_THROW)
    if (st === undefined || !st.isDirectory()) digest.add(1, 0)
    else digest.add(0, st.mtimeMs)
  }
  return digest.value()
}

/** Every transcript of every host, with its size and mtime, and what a look sees (as lookAtStores). */
export function findTranscripts(env: NodeJS.ProcessEnv): Found {
  const digest = new Digest()
  const folders: Folders = { paths: [], digest: new Digest() }
  const transcripts: FoundTranscript[] = []
  const roots = storeRoots(env)
  walk(roots.claude, digest, folders, (path, dir, name, size, mtime) => {
    if (dir.length === 1) transcripts.push({ path, host: 'claude', session: name.slice(0, -'.jsonl'.length), size, mtime })
    else if (dir.length >= 3 && dir[2] === 'subagents') transcripts.push({ path, host: 'claude', session: dir[1]!, size, mtime })
  })
  for (const root of roots.codex) {
    walk(root, digest, folders, (path, _dir, _name, size, mtime) => {
      const session = codexSessionId(path)
      transcripts.push({ path, host: 'codex', ...(session ? { session } : {}), size, mtime })
    })
  }
  return { transcripts, digest: digest.value(), folders: folders.paths, foldersDigest: folders.digest.value() }
}

const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)

/**
 * The transcripts as sources to read, in path order. A rollout whose name does not hold its session is named by
 * `known` (the session its checkpoint has), else by its first line.
 */
export async function sourcesOf(found: FoundTranscript[], known?: (path: string) => string | undefined): Promise<TranscriptSource[]> {
  const out: TranscriptSource[] = []
  for (const t of found) {
    let session = t.session ?? known?.(t.path)
    if (session === undefined) {
      try {
        session = codexSessionId(t.path, await readHead(t.path))
      } catch {
        session = undefined
      }
    }
    out.push({ path: t.path, host: t.host, session: session ?? t.path.slice(t.path.lastIndexOf(sep) + 1).replace(/\.jsonl$/, '') })
  }
  return out.sort(byPath)
}

export async function allSources(env: NodeJS.ProcessEnv, known?: (path: string) => string | undefined): Promise<TranscriptSource[]> {
  return sourcesOf(findTranscripts(env).transcripts, known)
}
