/**
 * Reading the two stores the way a careful auditor would: every entry (lstat, symlinks not followed), what
 * each file is, whether it parses, and whether index, snapshot files and registry agree.
 */
import { lstatSync, readFileSync, readdirSync, existsSync } from 'node:fs'
import { basename, join, relative } from 'node:path'

export const SNAPSHOT_ID = /^SNAP_\d{8}_\d{6}_\d{3}_[0-9a-f]{4}$/

/** Every entry under `dir` (dir itself first), without following symlinks. */
export function walk(dir) {
  const out = []
  if (!existsSync(dir)) return out
  const visit = (p) => {
    let s
    try {
      s = lstatSync(p)
    } catch {
      return
    }
    out.push({
      path: p,
      rel: relative(dir, p) || '.',
      isDir: s.isDirectory(),
      isSymlink: s.isSymbolicLink(),
      isFile: s.isFile(),
      mode: s.mode & 0o777,
      size: s.size,
      mtimeMs: s.mtimeMs,
    })
    if (s.isDirectory()) {
      let names = []
      try {
        names = readdirSync(p)
      } catch {
        names = []
      }
      for (const n of names.sort()) visit(join(p, n))
    }
  }
  visit(dir)
  return out
}

/**
 * A temporary file of an interrupted write, left behind only by a killed process: ours are
 * `<target>.<pid>.<8 hex>.tmp`; older versions (write-file-atomic) left `<target>.<murmur hash>`.
 */
export function isTempFile(name) {
  return /\.\d+\.[0-9a-f]{8}\.tmp$/.test(basename(name)) || /^(?:.+\.(?:json|md|log)|\.gitignore)\.\d+$/.test(basename(name))
}

export function isLockFile(name) {
  return name.endsWith('.lock')
}

/**
 * Parse problems of the stored files under `dir` (temp and lock files are reported apart):
 * JSON files must parse and carry a `version`; Markdown and logs must be valid UTF-8.
 */
export function auditStore(dir) {
  const entries = walk(dir)
  const files = entries.filter((e) => e.isFile)
  const problems = []
  const temps = []
  const locks = []
  const symlinks = entries.filter((e) => e.isSymlink).map((e) => e.rel)
  let parsed = 0
  for (const f of files) {
    if (isTempFile(f.path)) {
      temps.push(f.rel)
      continue
    }
    if (isLockFile(f.path)) {
      locks.push(f.rel)
      continue
    }
    // V8 code caches of the hook bundles (bin/bookmark.cjs): binary, and harmless when damaged (V8 rejects them).
    if (/^cache\/[^/]+\.v8c?$/.test(f.rel)) continue
    let buf
    try {
      buf = readFileSync(f.path)
    } catch (e) {
      problems.push(`${f.rel}: unreadable (${e.code ?? e.message})`)
      continue
    }
    if (f.path.endsWith('.json')) {
      try {
        const v = JSON.parse(buf.toString('utf8'))
        if (v === null || typeof v !== 'object' || typeof v.version !== 'number') problems.push(`${f.rel}: parses but has no numeric version`)
        else parsed++
      } catch (e) {
        problems.push(`${f.rel}: does not parse (${f.size} bytes: ${e.message.slice(0, 80)})`)
      }
    } else {
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(buf)
        parsed++
      } catch {
        problems.push(`${f.rel}: not valid UTF-8`)
      }
    }
  }
  return { entries, files: files.length, parsed, problems, temps, locks, symlinks }
}

export function readJsonFile(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return undefined
  }
}

/** Index vs snapshot files on disk: listed ids, ids on disk, listed-but-missing, on-disk-but-unlisted, duplicates. */
export function indexAudit(projectRoot) {
  const dir = join(projectRoot, '.bookmark')
  const index = readJsonFile(join(dir, 'index.json'))
  const entries = Array.isArray(index?.snapshots) ? index.snapshots : []
  const listed = entries.map((e) => e?.id)
  let names = []
  try {
    names = readdirSync(join(dir, 'snapshots'))
  } catch {
    names = []
  }
  const onDisk = names.filter((n) => n.endsWith('.json') && SNAPSHOT_ID.test(n.slice(0, -5))).map((n) => n.slice(0, -5))
  const diskSet = new Set(onDisk)
  const listedSet = new Set(listed)
  return {
    indexParses: index !== undefined,
    listed,
    onDisk,
    missing: listed.filter((id) => !diskSet.has(id)),
    unlisted: onDisk.filter((id) => !listedSet.has(id)),
    duplicates: listed.length - listedSet.size,
    // Newest first by the store's own sequence (never by a date: a clock can run ahead).
    sorted: entries.every((e, i) => i === 0 || (typeof e?.seq === 'number' && entries[i - 1]?.seq > e.seq)),
  }
}

export function registryEntries(bookmarkHome) {
  const reg = readJsonFile(join(bookmarkHome, 'registry.json'))
  return { parses: reg !== undefined, entries: Array.isArray(reg?.entries) ? reg.entries : [] }
}

/** Every file under `dir` as text (for leak and marker searches), symlinks not followed. */
export function filesText(dir) {
  return walk(dir)
    .filter((e) => e.isFile)
    .map((e) => ({ rel: e.rel, path: e.path, text: readFileSync(e.path, 'latin1') }))
}
