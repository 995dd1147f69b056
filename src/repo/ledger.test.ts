import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readGitInfo } from './git.js'
import { ledgerFacts } from './ledger.js'
import { ObjectReader } from './git-objects.js'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** The first commit is made at T0, the session begins at T0 + 10 s, its commits come at T0 + 20 s (the reflog's clock). */
const T0 = 1_900_000_000
let clock = T0

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, GIT_COMMITTER_DATE: `${clock} +0000`, GIT_AUTHOR_DATE: `${clock} +0000` },
  })
}

/** A repository with two committed files; `since` is a time before any of the session's changes. */
function repo(init: string[] = []): { d: string; since: string } {
  clock = T0
  const d = mkdtempSync(join(tmpdir(), 'bm-ledger-'))
  dirs.push(d)
  git(d, 'init', '-q', '-b', 'main', ...init)
  mkdirSync(join(d, 'src'))
  writeFileSync(join(d, 'src/a.ts'), 'a\n')
  writeFileSync(join(d, 'b.ts'), 'b\n')
  git(d, 'add', 'src/a.ts', 'b.ts')
  git(d, 'commit', '-q', '-m', 'init')
  clock = T0 + 20
  return { d, since: new Date((T0 + 10) * 1000).toISOString() }
}

async function facts(d: string, paths: string[], since: string) {
  return ledgerFacts(d, await readGitInfo(d), paths, since)
}

describe('ledgerFacts', () => {
  it('tells a change, a revert, a deletion and a commit apart, in a loose and in a packed repository', async () => {
    for (const pack of [false, true]) {
      const { d, since } = repo()
      writeFileSync(join(d, 'src/a.ts'), 'a changed\n') // uncommitted
      writeFileSync(join(d, 'b.ts'), 'b changed\n')
      git(d, 'checkout', '--', 'b.ts') // reverted
      writeFileSync(join(d, 'c.ts'), 'new\n') // untracked
      writeFileSync(join(d, 'd.ts'), 'd\n')
      git(d, 'add', 'd.ts')
      git(d, 'commit', '-q', '-m', 'add d') // committed
      if (pack) git(d, 'gc', '-q')
      const f = await facts(d, ['src/a.ts', 'b.ts', 'c.ts', 'd.ts', 'gone.ts'], since)
      expect(f?.branch).toBe('main')
      expect(f?.paths).toEqual({
        'src/a.ts': { exists: true, dirty: true },
        'b.ts': { exists: true, dirty: false, changedSinceStart: false },
        'c.ts': { exists: true, dirty: true },
        'd.ts': { exists: true, dirty: false, changedSinceStart: true },
        'gone.ts': { exists: false, dirty: false, changedSinceStart: false },
      })
    }
  })

  it('takes a commit of the second the session began in for one made since (the reflog keeps whole seconds)', async () => {
    const { d } = repo()
    clock = T0 + 10
    writeFileSync(join(d, 'd.ts'), 'd\n')
    git(d, 'add', 'd.ts')
    git(d, 'commit', '-q', '-m', 'add d')
    const f = await facts(d, ['d.ts', 'b.ts'], new Date((T0 + 10) * 1000 + 400).toISOString())
    expect(f?.paths).toEqual({
      'd.ts': { exists: true, dirty: false, changedSinceStart: true },
      'b.ts': { exists: true, dirty: false, changedSinceStart: false },
    })
  })

  it('hashes a file whose stat moved but whose bytes are those of the index (touched, same size)', async () => {
    const { d, since } = repo()
    writeFileSync(join(d, 'b.ts'), 'x\n') // same size, other bytes
    utimesSync(join(d, 'src/a.ts'), new Date(), new Date(Date.now() + 5_000))
    const f = await facts(d, ['src/a.ts', 'b.ts'], since)
    expect(f?.paths['src/a.ts']?.dirty).toBe(false)
    expect(f?.paths['b.ts']?.dirty).toBe(true)
  })

  it('sees a staged change and a staged deletion as differing from HEAD', async () => {
    const { d, since } = repo()
    writeFileSync(join(d, 'b.ts'), 'b2\n')
    git(d, 'add', 'b.ts')
    git(d, 'rm', '-q', 'src/a.ts')
    const f = await facts(d, ['src/a.ts', 'b.ts'], since)
    expect(f?.paths).toEqual({
      'src/a.ts': { exists: false, dirty: true },
      'b.ts': { exists: true, dirty: true },
    })
    unlinkSync(join(d, 'b.ts'))
  })

  it('reads a SHA-256 repository', async () => {
    let made: { d: string; since: string }
    try {
      made = repo(['--object-format=sha256'])
    } catch {
      return // a git too old for SHA-256
    }
    writeFileSync(join(made.d, 'b.ts'), 'b changed\n')
    const f = await facts(made.d, ['src/a.ts', 'b.ts'], made.since)
    expect(f?.paths['src/a.ts']).toEqual({ exists: true, dirty: false, changedSinceStart: false })
    expect(f?.paths['b.ts']?.dirty).toBe(true)
  })

  it('reads a worktree: its own index and HEAD, the common objects and branch reflog', async () => {
    const { d, since } = repo()
    const wt = join(d, 'wt')
    git(d, 'worktree', 'add', '-q', '-b', 'side', wt)
    writeFileSync(join(wt, 'b.ts'), 'b on side\n')
    git(wt, 'commit', '-q', '-am', 'side b')
    writeFileSync(join(wt, 'src/a.ts'), 'a on side\n')
    const f = await facts(wt, ['src/a.ts', 'b.ts'], since)
    expect(f).toEqual({
      branch: 'side',
      paths: { 'src/a.ts': { exists: true, dirty: true }, 'b.ts': { exists: true, dirty: false, changedSinceStart: true } },
    })
  })

  it('answers nothing outside a repository', async () => {
    const d = mkdtempSync(join(tmpdir(), 'bm-ledger-'))
    dirs.push(d)
    expect(await ledgerFacts(d, {}, ['a.ts'], undefined)).toBeUndefined()
  })
})

describe('ObjectReader', () => {
  it('resolves deltas in a pack as git does', async () => {
    const { d } = repo()
    // Many versions of one file: git stores most as deltas of another.
    for (let i = 0; i < 12; i++) {
      writeFileSync(join(d, 'b.ts'), Array.from({ length: 200 }, (_, k) => `line ${k} ${k === i ? 'changed' : ''}`).join('\n'))
      git(d, 'commit', '-q', '-am', `v${i}`)
    }
    git(d, 'gc', '-q', '--aggressive')
    const reader = new ObjectReader(join(d, '.git', 'objects'), 20)
    for (const rev of ['HEAD', 'HEAD~3', 'HEAD~9']) {
      const blob = git(d, 'rev-parse', `${rev}:b.ts`).trim()
      const o = await reader.read(blob)
      expect(o?.type).toBe('blob')
      expect(o?.data.toString()).toBe(git(d, 'show', `${rev}:b.ts`))
    }
  })
})
