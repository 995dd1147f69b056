import { describe, expect, it } from 'vitest'
import { changedFiles, parsePatch, unifiedDiffLines } from './patch.js'

describe('parsePatch', () => {
  it('reads added, updated, moved and deleted files with their lines', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: src/new.ts',
      '+export function fresh(): number {',
      '+  return 1',
      '+}',
      '*** Update File: src/old.ts',
      '*** Move to: src/renamed.ts',
      '@@ function keep() {',
      ' const a = 1',
      '-const b = 2',
      '+const b = 3',
      '+const c = 4',
      '*** End of File',
      '*** Delete File: docs/gone.md',
      '*** End Patch',
    ].join('\n')
    expect(parsePatch(patch)).toEqual([
      { path: 'src/new.ts', op: 'add', diff: { added: ['export function fresh(): number {', '  return 1', '}'], removed: [] } },
      { path: 'src/old.ts', op: 'update', moveTo: 'src/renamed.ts', diff: { added: ['const b = 3', 'const c = 4'], removed: ['const b = 2'] } },
      { path: 'docs/gone.md', op: 'delete' },
    ])
  })

  it('keeps absolute paths, CRLF lines and empty added lines as they are', () => {
    const patch = '*** Begin Patch\r\n*** Add File: /abs/a.txt\r\n+one\r\n+\r\n+three\r\n*** End Patch'
    expect(parsePatch(patch)).toEqual([{ path: '/abs/a.txt', op: 'add', diff: { added: ['one', '', 'three'], removed: [] } }])
  })

  it('names no file for text that is not a patch', () => {
    expect(parsePatch('echo hi')).toBeUndefined()
    expect(parsePatch('*** Begin Patch\n*** End Patch')).toBeUndefined()
  })
})

describe('unifiedDiffLines', () => {
  it('counts the lines of the hunks, not the file headers', () => {
    expect(unifiedDiffLines('--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n+++plus\n')).toEqual({ added: ['new', '++plus'], removed: ['old'] })
  })
})

describe('changedFiles', () => {
  it('reads the 0.171 FileChange and 0.14x patch_apply_end change lists', () => {
    expect(
      changedFiles({
        '/p/patched.txt': { type: 'add', content: 'patched line 1\npatched line 2\n' },
        '/p/doc.md': { type: 'update', unified_diff: '@@ -57,2 +57,3 @@\n x\n+y\n', move_path: null },
        '/p/old.md': { type: 'delete', content: 'a\nb\n' },
        '/p/mv.md': { type: 'update', unified_diff: '', move_path: '/p/moved.md' },
      }),
    ).toEqual([
      { path: '/p/patched.txt', op: 'add', diff: { added: ['patched line 1', 'patched line 2'], removed: [] } },
      { path: '/p/doc.md', op: 'update', diff: { added: ['y'], removed: [] } },
      { path: '/p/old.md', op: 'delete', diff: { added: [], removed: ['a', 'b'] } },
      { path: '/p/mv.md', op: 'update', moveTo: '/p/moved.md', diff: { added: [], removed: [] } },
    ])
  })

  it('reads the externally tagged form, and nothing from what is not a change list', () => {
    expect(changedFiles({ '/p/a': { add: { content: 'x\n' } }, '/p/b': { delete: {} } })).toEqual([
      { path: '/p/a', op: 'add', diff: { added: ['x'], removed: [] } },
      { path: '/p/b', op: 'delete' },
    ])
    expect(changedFiles({})).toBeUndefined()
    expect(changedFiles('x')).toBeUndefined()
    expect(changedFiles({ '/p/a': { type: 'rename' } })).toBeUndefined()
  })
})
