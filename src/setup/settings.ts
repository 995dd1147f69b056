/**
 * The settings files setup edits: where they are, how they are read, and how they are written
 * (atomic, under a lock, keeping the file's mode, with a backup of the previous bytes). Settings
 * are the user's file: written as given, never redacted or re-serialised.
 */
import { execFile } from 'node:child_process'
import { constants } from 'node:fs'
import { access, lstat, mkdir, readFile, readlink, realpath, rmdir, stat, unlink, writeFile } from 'node:fs/promises'
import { homeDir } from '../shared/builtin.js'
import { dirname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { assertUnchanged, atomicWrite, followLinks } from '../store/atomic.js'
import { ensureDir } from '../store/files.js'
import { SetupError, SymlinkRefused } from '../shared/errors.js'
import { isHomeScope } from '../shared/deps.js'
import { findProjectRoot } from '../repo/root.js'
import type { Launch } from './hooks.js'
import { pathExists as exists, isDirectory } from '../store/fs.js'

/** `$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json` (HOME from the environment). */
export function userSettingsPath(env: NodeJS.ProcessEnv): string {
  const config = env.CLAUDE_CONFIG_DIR
  if (config && config.trim() !== '') return join(resolve(config), 'settings.json')
  const home = homeDir(env)
  return join(resolve(home), '.claude', 'settings.json')
}

/** `<project root>/.claude/settings.local.json` for the project of `cwd` (its git top level). */
export async function projectSettingsPath(cwd: string, env: NodeJS.ProcessEnv): Promise<{ root: string; path: string }> {
  const { root } = await findProjectRoot(resolve(cwd), env.CLAUDE_PROJECT_DIR)
  if (isHomeScope(root, env))
    throw new SetupError(
      `${root} is not a project (no git repository here): run \`bookmark setup --project\` inside the project, or without --project for all projects`,
    )
  return { root, path: join(root, '.claude', 'settings.local.json') }
}

const isLink = async (p: string): Promise<boolean> => (await lstat(p).catch(() => undefined))?.isSymbolicLink() === true

/** `link` as written in it, with where that leads when it is not the same text. */
async function linkText(link: string, leads: string): Promise<string> {
  const raw = await readlink(link)
  return raw === leads ? raw : `${raw} (${leads})`
}

/**
 * A project's settings are written only inside the project: a cloned repository can ship `.claude` (or
 * the settings file) as a link to anywhere. Links that stay inside the project are followed.
 */
export async function assertInsideProject(root: string, path: string): Promise<void> {
  const realRoot = await realpath(root).catch(() => resolve(root))
  const inside = (p: string): boolean => p === realRoot || p.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)
  for (const link of [dirname(path), path]) {
    if (!(await isLink(link))) continue
    const leads = await followLinks(link)
    if (!inside(leads)) {
      throw new SetupError(
        `${link} is a link to ${await linkText(link, leads)}, outside the project ${root}: left untouched; bookmark writes a project's settings only inside it (replace the link by a ${link === path ? 'file' : 'folder'}, or use your user settings: leave out --project)`,
      )
    }
    if (link === dirname(path) && !(await isDirectory(leads))) {
      throw new SetupError(
        `${link} is a link to ${await linkText(link, leads)}, which is not a folder: left untouched; create it or remove the link, and run again`,
      )
    }
  }
}

/** This package's bin/bookmark.cjs (dist/setup/settings.js -> ../../bin/bookmark.cjs). */
export function packageEntry(): string {
  return fileURLToPath(new URL('../../bin/bookmark.cjs', import.meta.url))
}

/** The node running now and this package's entry: what the hooks will run. */
export function currentLaunch(): Launch {
  return { node: process.execPath, entry: packageEntry() }
}

export interface SettingsFile {
  path: string
  /** undefined: the file does not exist. */
  text: string | undefined
  /** Permission bits of the existing file. */
  mode: number | undefined
}

export async function readSettings(path: string): Promise<SettingsFile> {
  try {
    const st = await stat(path)
    if (!st.isFile()) throw new SetupError(`${path} is not a file`)
    return { path, text: await readFile(path, 'utf8'), mode: st.mode & 0o7777 }
  } catch (e) {
    if (e instanceof SetupError) throw e
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return { path, text: undefined, mode: undefined }
    throw new SetupError(`cannot read ${path}: ${(e as Error).message}`)
  }
}

/**
 * Refuses a file that is read-only by its mode or not writable by this user. The mode is checked
 * on its own because an atomic write replaces the file by renaming over it, which a read-only mode
 * does not prevent (nor does anything for root): someone who made the file read-only meant it.
 */
export async function assertWritable(file: SettingsFile): Promise<void> {
  const target = await followLinks(file.path)
  if (target !== resolve(file.path) && !(await isDirectory(dirname(target)))) {
    // A dangling link: the file is created where it points, never in place of the link, and only in a folder that is there.
    throw new SetupError(
      `${file.path} is a link to ${await linkText(file.path, target)}, whose folder ${dirname(target)} does not exist: left untouched; create that folder (or remove the link) and run again`,
    )
  }
  if (file.mode === undefined) return
  const modeText = `0${file.mode.toString(8)}`
  if ((file.mode & 0o222) === 0) {
    throw new SetupError(
      `${file.path} is read-only (mode ${modeText}): left untouched; make it writable (chmod u+w) and run again, or add the hooks by hand (templates/settings.hooks.json)`,
    )
  }
  try {
    await access(file.path, constants.W_OK)
  } catch {
    throw new SetupError(`${file.path} is not writable by this user (mode ${modeText}): left untouched`)
  }
}

/**
 * `<file>.bookmark-backup-<UTC yyyymmddThhmmss.mmmZ>` with the previous bytes, private (settings may
 * hold keys). Next to the file, or in `dir` when given (a project's settings: not inside the repository).
 */
export async function writeBackup(path: string, text: string, now: Date, dir?: string): Promise<string> {
  const stamp = now.toISOString().replace(/[-:]/g, '')
  const base = dir ? join(dir, `${path.replace(/[^A-Za-z0-9.]/g, '-').replace(/^-+/, '')}`) : path
  if (dir) {
    try {
      // The bookmark home and its backups folder as the store treats its folders: a link there is refused, not followed.
      await ensureDir(dirname(dir))
      await ensureDir(dir)
    } catch (e) {
      if (!(e instanceof SymlinkRefused)) throw e
      const link = (await isLink(dir)) ? dir : dirname(dir)
      throw new SetupError(`${link} is a symbolic link: backups are never written through a link; left untouched; remove the link and run again`)
    }
  }
  for (let n = 1; ; n++) {
    const backup = `${base}.bookmark-backup-${stamp}${n === 1 ? '' : `-${n}`}`
    try {
      await writeFile(backup, text, { flag: 'wx', mode: 0o600 })
      return backup
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || n > 50) throw e
    }
  }
}

/**
 * Atomic replace (temp file + rename, through a symlink to its target), keeping the mode and owner. Throws
 * ChangedError when the file no longer holds what was read (another program saved it meanwhile).
 */
export async function writeSettings(file: SettingsFile, text: string): Promise<void> {
  await atomicWrite(file.path, text, { mode: file.mode ?? 0o600, follow: true, expect: file.text ?? null })
}

/** Deletes the file (the target of a link; the link stays as the user made it), unless it changed since it was read (ChangedError). */
export async function deleteSettings(file: SettingsFile): Promise<void> {
  const target = await followLinks(file.path)
  await assertUnchanged(target, file.text ?? null)
  await unlink(target)
}

/** Creates `dir` (and its missing parents); returns the folders it created, outermost first. */
export async function makeDirs(dir: string): Promise<string[]> {
  const missing: string[] = []
  for (let d = resolve(dir); !(await exists(d)); d = dirname(d)) {
    if (await isLink(d)) {
      // A dangling link (~/.claude into dotfiles not checked out): mkdir cannot go through it, and must not replace it.
      throw new SetupError(`${d} is a link to ${await readlink(d)}, which does not exist: left untouched; create it (or remove the link) and run again`)
    }
    missing.unshift(d)
    if (dirname(d) === d) break
  }
  if (missing.length > 0) await mkdir(dir, { recursive: true, mode: 0o700 })
  return missing
}

/** Removes folders (innermost first) that are empty; a folder with anything in it stays. */
export async function removeEmptyDirs(dirs: string[]): Promise<void> {
  for (const d of [...dirs].reverse()) {
    try {
      await rmdir(d)
    } catch {
      return
    }
  }
}

/** Whether git ignores `rel` in the repository at `root`; undefined when git cannot tell (no git, not a repository). */
export function gitIgnores(root: string, rel: string): Promise<boolean | undefined> {
  return new Promise((done) => {
    execFile('git', ['check-ignore', '-q', '--', rel], { cwd: root, timeout: 2_000, windowsHide: true }, (err) => {
      if (!err) return done(true)
      done((err as { code?: unknown }).code === 1 ? false : undefined)
    })
  })
}
