import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { gitIndexFile, readGitInfo } from './git.js'

const dir = mkdtempSync(join(tmpdir(), 'bm-git-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' }).trim()

describe('readGitInfo reads branch and HEAD from .git without running git', () => {
  const repo = join(dir, 'repo')
  mkdirSync(repo)
  git(repo, 'init', '-q', '-b', 'feature/x')
  git(repo, 'commit', '-q', '--allow-empty', '-m', 'one')

  it('a loose ref, then the same ref packed', async () => {
    const head = git(repo, 'rev-parse', 'HEAD')
    expect(await readGitInfo(repo)).toEqual({ branch: 'feature/x', head })
    git(repo, 'pack-refs', '--all')
    expect(await readGitInfo(repo)).toEqual({ branch: 'feature/x', head })
  })

  it('a linked worktree: its own branch and HEAD, its own index file', async () => {
    const wt = join(dir, 'wt')
    git(repo, 'worktree', 'add', '-q', '-b', 'side', wt)
    git(wt, 'commit', '-q', '--allow-empty', '-m', 'two')
    expect(await readGitInfo(wt)).toEqual({ branch: 'side', head: git(wt, 'rev-parse', 'HEAD') })
    expect(await gitIndexFile(wt)).toBe(join(repo, '.git', 'worktrees', 'wt', 'index'))
  })

  it('a detached HEAD, and a folder outside any repository', async () => {
    const head = git(repo, 'rev-parse', 'HEAD')
    git(repo, 'checkout', '-q', '--detach')
    expect(await readGitInfo(repo)).toEqual({ head })
    const plain = join(dir, 'plain')
    mkdirSync(plain)
    expect(await readGitInfo(plain)).toEqual({})
    expect(await gitIndexFile(plain)).toBeUndefined()
  })
})
