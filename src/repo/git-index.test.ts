import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { trackedInIndex } from './git-index.js'

const TARGET = '.bookmark/bookmark.context.md'
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

function git(cwd: string, ...args: string[]): string {
  // stderr kept: `ls-files --error-unmatch` says "did not match" for every untracked path, which is an answer here.
  return execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
  })
}

/** A repository whose index lists `files` (entries made with --cacheinfo: names longer than a file system allows work too). */
function repo(files: string[], init: string[] = []): string {
  const d = mkdtempSync(join(tmpdir(), 'bm-gitindex-'))
  dirs.push(d)
  git(d, 'init', '-q', ...init)
  const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: d, input: 'x\n', encoding: 'utf8' }).trim()
  if (files.length > 0) execFileSync('git', ['update-index', '--add', '--index-info'], { cwd: d, input: files.map((f) => `100644 ${blob}\t${f}\n`).join('') })
  return d
}

/** What git itself says, the reference every answer is checked against. */
function gitSays(d: string, path: string): boolean {
  try {
    git(d, 'ls-files', '--error-unmatch', '--', path)
    return true
  } catch {
    return false
  }
}

// Names that sort around the target, and some that contain it.
const NEIGHBOURS = [
  '!first',
  '-dash',
  '.a',
  '.bookmark/bookmark.context.m',
  '.bookmark/bookmark.context.mdx',
  '.bookmark/config.json',
  '.bookmarkz',
  'a/.bookmark/bookmark.context.md',
  'src/x.ts',
  `${'d'.repeat(200)}/${'e'.repeat(200)}/long-name.txt`,
  `${Array.from({ length: 21 }, () => 'f'.repeat(200)).join('/')}/over-4095-bytes.txt`,
]

describe('trackedInIndex: the index file answers what `git ls-files` does', () => {
  for (const version of [2, 3, 4]) {
    it(`index version ${version}: tracked, untracked, and neighbours that are not the path`, async () => {
      const withIt = repo([...NEIGHBOURS, TARGET])
      const without = repo(NEIGHBOURS)
      for (const d of [withIt, without]) {
        git(d, 'update-index', '--index-version', String(version))
        if (version === 3) {
          writeFileSync(join(d, 'intent.txt'), 'x\n')
          git(d, 'add', '-N', 'intent.txt') // intent-to-add: an entry with extended flags
          git(d, 'update-index', '--skip-worktree', 'src/x.ts')
        }
      }
      expect(await trackedInIndex(join(withIt, '.git'), TARGET)).toBe(true)
      expect(gitSays(withIt, TARGET)).toBe(true)
      expect(await trackedInIndex(join(without, '.git'), TARGET)).toBe(false)
      expect(gitSays(without, TARGET)).toBe(false)
      for (const n of NEIGHBOURS) expect(await trackedInIndex(join(without, '.git'), n), n).toBe(gitSays(without, n))
      if (version === 3) expect(await trackedInIndex(join(withIt, '.git'), 'intent.txt')).toBe(gitSays(withIt, 'intent.txt'))
    })
  }

  it('a SHA-256 repository (longer object names in every entry)', async () => {
    let d: string
    try {
      d = repo([...NEIGHBOURS, TARGET], ['--object-format=sha256'])
    } catch {
      console.warn('git here cannot make SHA-256 repositories: case skipped')
      return
    }
    expect(await trackedInIndex(join(d, '.git'), TARGET)).toBe(true)
    expect(await trackedInIndex(join(d, '.git'), '.bookmark/bookmark.context.mdx')).toBe(true)
    expect(await trackedInIndex(join(d, '.git'), '.bookmark/nope.md')).toBe(false)
  })

  it('a repository with no index yet tracks nothing; a damaged or split index is left to git', async () => {
    const empty = repo([])
    expect(await trackedInIndex(join(empty, '.git'), TARGET)).toBe(false)
    const damaged = repo([TARGET])
    writeFileSync(join(damaged, '.git', 'index'), 'not an index')
    expect(await trackedInIndex(join(damaged, '.git'), TARGET)).toBeUndefined()
    const split = repo([...NEIGHBOURS, TARGET])
    git(split, 'update-index', '--split-index')
    expect(readdirSync(join(split, '.git')).some((n) => n.startsWith('sharedindex.'))).toBe(true)
    expect(await trackedInIndex(join(split, '.git'), TARGET)).toBeUndefined()
  })

  it('a path named after many entries is still found (the index is read past its first chunk)', async () => {
    const many = Array.from({ length: 3000 }, (_, i) => `.a/${String(i).padStart(5, '0')}-${'x'.repeat(40)}.txt`)
    const d = repo([...many, TARGET])
    expect(await trackedInIndex(join(d, '.git'), TARGET)).toBe(true)
    expect(await trackedInIndex(join(d, '.git'), '.bookmark/other.md')).toBe(false)
  })
})
