/** Spawns the built CLI with a private HOME, CLAUDE_CONFIG_DIR and bookmark home. */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises'
import { delimiter, join } from 'node:path'
import { REPO_ROOT } from './corpus.js'
import { tempDir } from './tmp.js'

export const BIN = join(REPO_ROOT, 'bin', 'bookmark.cjs')

export interface Sandbox {
  dir: string
  home: string
  env: NodeJS.ProcessEnv
}

/**
 * A temp world: HOME, ~/.claude and ~/.bookmark all inside it; nothing of the real user's is reachable.
 * Its PATH has no real `claude` (npm puts node_modules/.bin on it): a stand-in answers `--version` with
 * 2.1.332, so setup writes the exec form here whatever the machine has; fakeClaude() changes it.
 */
export async function sandbox(): Promise<Sandbox> {
  const dir = tempDir('bm-e2e-')
  const home = join(dir, 'home')
  const bin = join(dir, 'bin')
  const env: NodeJS.ProcessEnv = {
    PATH: [bin, ...claudeFreePath()].join(delimiter),
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    BOOKMARK_HOME: join(home, '.bookmark'),
    TMPDIR: dir,
    NODE_OPTIONS: '',
  }
  await mkdir(home, { recursive: true })
  await fakeClaude({ dir, home, env }, '2.1.332')
  return { dir, home, env }
}

/**
 * This process's PATH without the folders that hold a `claude`, a `codex` or a `gemini` (npm's node_modules/.bin, a
 * user's own install): setup wires Codex and Gemini too when it finds them, and a test's sandbox has none unless it makes one.
 */
export function claudeFreePath(): string[] {
  return (process.env.PATH ?? '').split(delimiter).filter((d) => d !== '' && !['claude', 'codex', 'gemini'].some((b) => existsSync(join(d, b))))
}

/** Writes `<binDir>/claude`, which answers `--version` with `version` as Claude Code does. */
export async function writeFakeClaude(binDir: string, version: string): Promise<void> {
  await mkdir(binDir, { recursive: true })
  await writeFile(join(binDir, 'claude'), `#!/bin/sh\necho "${version} (Claude Code)"\n`)
  await chmod(join(binDir, 'claude'), 0o755)
}

/** The sandbox's `claude` answers `--version` with this version; null: there is no claude on its PATH. */
export async function fakeClaude(sb: Sandbox, version: string | null): Promise<void> {
  const file = join(sb.dir, 'bin', 'claude')
  if (version === null) return rm(file, { force: true })
  await writeFakeClaude(join(sb.dir, 'bin'), version)
}

export interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** `bin`: another entry than BIN (a copy of the package elsewhere). */
export function runCli(args: string[], opts: { env: NodeJS.ProcessEnv; cwd?: string; input?: string; bin?: string }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [opts.bin ?? BIN, ...args], { env: opts.env, cwd: opts.cwd ?? opts.env.HOME, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    if (opts.input !== undefined) child.stdin.end(opts.input)
    else child.stdin.end()
  })
}

/** A project folder inside the sandbox, marked as a git repository (a `.git` folder), so it is its own project root. */
export async function gitProject(sb: Sandbox, name = 'proj'): Promise<string> {
  const project = join(sb.dir, name)
  await mkdir(join(project, '.git'), { recursive: true })
  return project
}

/** A real git repository in `project` (created if need be): branch main, one empty commit. */
export async function gitRepo(project: string): Promise<string> {
  await mkdir(project, { recursive: true })
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: project })
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'init'], { cwd: project })
  return project
}
