import { describe, expect, it } from 'vitest'
import { type FileRecord, type GitRecord, createState } from '../extract/model.js'
import { snapshotOf } from '../../test/helpers/extract.js'
import { type PathFacts, fileMark, markFiles, uncommittedCount } from './ledger.js'
import { fileLine, renderLatest } from './render.js'

function file(path: string, over: Partial<FileRecord> = {}): FileRecord {
  return { path, op: 'modified', added: 3, removed: 1, hints: ['+fn a'], changes: 1, tools: ['Edit'], lastLine: 1, subagent: false, ...over }
}

const clean: PathFacts = { exists: true, dirty: false, changedSinceStart: false }

describe('fileMark', () => {
  it.each<[string, Partial<FileRecord>, PathFacts, string | undefined]>([
    ['a change still in the working tree', {}, { exists: true, dirty: true, changedSinceStart: false }, 'uncommitted'],
    ['a change staged and committed since', {}, { exists: true, dirty: false, changedSinceStart: true }, 'committed'],
    ['a change undone: the file is HEAD, no commit changed it', {}, clean, 'reverted'],
    ['a created file removed again (never committed)', { op: 'created' }, { exists: false, dirty: false, changedSinceStart: false }, 'deleted'],
    ['a tracked file the session changed, then removed', {}, { exists: false, dirty: true, changedSinceStart: false }, 'deleted'],
    ['a change made on feat, now on main where the file is HEAD', { branch: 'feat' }, clean, 'other-branch'],
    ['a file created on feat, absent on main', { op: 'created', branch: 'feat' }, { exists: false, dirty: false }, 'other-branch'],
    ['a change made on feat and carried to main uncommitted', { branch: 'feat' }, { exists: true, dirty: true }, 'uncommitted'],
    ['a deletion not committed', { op: 'deleted' }, { exists: false, dirty: true }, 'uncommitted'],
    ['a deletion committed', { op: 'deleted' }, { exists: false, dirty: false, changedSinceStart: true }, 'committed'],
    ['a deleted untracked file: as listed', { op: 'deleted' }, { exists: false, dirty: false, changedSinceStart: false }, undefined],
    ['a deleted file restored as HEAD has it', { op: 'deleted' }, clean, 'reverted'],
  ])('%s', (_, over, facts, mark) => {
    expect(fileMark(file('a.ts', over), facts, 'main')).toBe(mark)
  })

  it('falls back on the commits the transcript recorded after the change when the reflog cannot say', () => {
    const at = (ts: string): GitRecord => ({ ts, event: { kind: 'commit', message: 'm', hash: 'abc1234' } })
    const f = file('a.ts', { lastTs: '2026-01-01T10:00:00.000Z' })
    const unknown: PathFacts = { exists: true, dirty: false }
    expect(fileMark(f, unknown, 'main', [at('2026-01-01T10:05:00.000Z')])).toBe('committed')
    expect(fileMark(f, unknown, 'main', [at('2026-01-01T09:00:00.000Z')])).toBe('reverted')
  })

  it('does not call a branch "other" when HEAD is detached or the record has none', () => {
    expect(fileMark(file('a.ts', { branch: 'feat' }), clean, undefined)).toBe('reverted')
    expect(fileMark(file('a.ts'), clean, 'main')).toBe('reverted')
    expect(fileMark(file('a.ts', { branch: 'HEAD' }), clean, 'main')).toBe('reverted')
  })
})

describe('markFiles and uncommittedCount', () => {
  it('copies only the files it marks and leaves unchecked ones as they are', () => {
    const a = file('a.ts')
    const b = file('b.ts')
    const c = file('c.ts')
    const marked = markFiles(
      [a, b, c],
      { branch: 'main', paths: { 'a.ts': { exists: true, dirty: true }, 'b.ts': { exists: false, dirty: false, changedSinceStart: false } } },
      [],
    )
    expect(marked.map((f) => f.now)).toEqual(['uncommitted', 'deleted', undefined])
    expect(marked[2]).toBe(c)
    expect(a).not.toHaveProperty('now') // the state's record is not changed
    expect(uncommittedCount({ files: marked })).toBe(1)
  })
})

describe('fileLine with a mark', () => {
  it('says it next to the path, and drops the stats of a reverted change', () => {
    expect(fileLine({ ...file('a.ts'), now: 'uncommitted' })).toBe('- `a.ts` [uncommitted] modified +3 -1 — +fn a')
    expect(fileLine({ ...file('a.ts'), now: 'reverted' })).toBe('- `a.ts` [reverted since] modified')
    expect(fileLine({ ...file('a.ts', { op: 'created' }), now: 'deleted' })).toBe('- `a.ts` [deleted since] created +3 -1 — +fn a')
    expect(fileLine({ ...file('a.ts', { branch: 'feat' }), now: 'other-branch' })).toBe('- `a.ts` [left on branch feat] modified +3 -1 — +fn a')
    expect(fileLine({ ...file('a.ts'), now: 'committed', subagent: true })).toBe('- `a.ts` [committed] modified +3 -1 — +fn a [subagent]')
  })
})

describe('LATEST.md of a long ledger', () => {
  it('says that only the most recent files were checked', () => {
    const s = snapshotOf(createState())
    const files = Array.from({ length: 51 }, (_, i) => file(`f${i}.ts`, { lastLine: 100 - i }))
    const note = '_Only the 50 most recently changed files were checked against git._'
    expect(renderLatest({ ...s, files })).not.toContain(note)
    const marked = markFiles(files.slice(0, 50), { paths: Object.fromEntries(files.slice(0, 50).map((f) => [f.path, { exists: true, dirty: true }])) }, [])
    expect(renderLatest({ ...s, files: [...marked, files[50]!] })).toContain(
      `- \`f49.ts\` [uncommitted] modified +3 -1 — +fn a\n- \`f50.ts\` modified +3 -1 — +fn a\n${note}`,
    )
  })
})
