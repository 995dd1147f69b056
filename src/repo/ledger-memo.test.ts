import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Project } from './project.js'
import { type LedgerMemo, pathStamps } from './ledger-memo.js'
import { fileStamp } from '../store/fs.js'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' })
}

function repo(): string {
  const d = mkdtempSync(join(tmpdir(), 'bm-ledger-memo-'))
  dirs.push(d)
  git(d, 'init', '-q', '-b', 'main')
  writeFileSync(join(d, 'a.ts'), 'a\n')
  writeFileSync(join(d, 'b.ts'), 'b\n')
  git(d, 'add', 'a.ts', 'b.ts')
  git(d, 'commit', '-q', '-m', 'init')
  return d
}

const SINCE = '2020-01-01T00:00:00.000Z'

/** The memo with every path's facts replaced by a planted answer: a check that returns it read nothing. */
const planted = (memo: LedgerMemo): LedgerMemo => ({ ...memo, files: memo.files.map(([p, s]) => [p, s, { exists: true, dirty: true }]) })

describe('Project.ledger with the last check kept', () => {
  it('answers from the memo while nothing git looks at changed, and checks again after each kind of change', async () => {
    const d = repo()
    const paths = ['a.ts', 'b.ts']
    const first = await new Project(d).ledger(paths, SINCE)
    expect(first.facts?.paths).toEqual({ 'a.ts': expect.objectContaining({ exists: true, dirty: false }), 'b.ts': expect.objectContaining({ dirty: false }) })
    const memo = planted(first.memo!)
    // Same files, same index, same HEAD: the planted answer comes back, with the branch read now.
    const again = await new Project(d).ledger(paths, SINCE, JSON.parse(JSON.stringify(memo)))
    expect(again.facts).toEqual({ branch: 'main', paths: { 'a.ts': { exists: true, dirty: true }, 'b.ts': { exists: true, dirty: true } } })
    // A path the memo does not hold, or another session start: checked again.
    expect((await new Project(d).ledger(['a.ts'], SINCE, memo)).facts?.paths['a.ts']?.dirty).toBe(true)
    expect((await new Project(d).ledger([...paths, 'c.ts'], SINCE, memo)).facts?.paths['a.ts']?.dirty).toBe(false)
    expect((await new Project(d).ledger(paths, '2021-01-01T00:00:00.000Z', memo)).facts?.paths['a.ts']?.dirty).toBe(false)

    const changes: [string, () => void][] = [
      ['a file written', () => writeFileSync(join(d, 'a.ts'), 'a2\n')],
      ['the index rewritten', () => git(d, 'add', 'a.ts')],
      ['a commit', () => git(d, 'commit', '-q', '-m', 'next')],
      ['the branch switched', () => git(d, 'checkout', '-q', '-b', 'other')],
    ]
    for (const [what, change] of changes) {
      const before = await new Project(d).ledger(paths, SINCE)
      expect((await new Project(d).ledger(paths, SINCE, planted(before.memo!))).facts?.paths['b.ts']?.dirty, `${what}: held before`).toBe(true)
      change()
      const after = await new Project(d).ledger(paths, SINCE, planted(before.memo!))
      expect(after.facts?.paths['b.ts']?.dirty, `${what}: checked again`).toBe(false)
    }
  })

  it('ignores a damaged memo', async () => {
    const d = repo()
    for (const memo of [null, 'x', { key: 'x' }, { key: [1, 2, 3, 4], files: [] }]) {
      const r = await new Project(d).ledger(['a.ts'], SINCE, memo)
      expect(r.facts?.paths['a.ts'], JSON.stringify(memo)).toMatchObject({ exists: true, dirty: false })
    }
    const good = (await new Project(d).ledger(['a.ts'], SINCE)).memo!
    const broken = { ...good, files: [['a.ts', good.files[0]![1], { exists: 'yes' }]] }
    expect((await new Project(d).ledger(['a.ts'], SINCE, broken)).facts?.paths['a.ts']?.dirty).toBe(false)
  })
})

describe('pathStamps', () => {
  it('gives each path the stamp fileStamp gives it (a file, a folder, a link, a missing path, a path below a file)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bm-stamps-'))
    dirs.push(root)
    writeFileSync(join(root, 'a.ts'), 'x\n')
    mkdirSync(join(root, 'src'))
    symlinkSync('a.ts', join(root, 'link.ts'))
    const paths = ['a.ts', 'src', 'link.ts', 'gone.ts', 'a.ts/below', './src/../a.ts']
    const stamps = pathStamps(root, paths)
    expect(stamps).toEqual(await Promise.all(paths.map((p) => fileStamp(join(root, p)).catch(() => null))))
    expect(stamps[0]).not.toBeNull()
    expect(stamps[3]).toBeNull()
  })
})
