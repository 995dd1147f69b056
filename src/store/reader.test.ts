import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { projectLayout } from './layout.js'
import { StoreReader } from './reader.js'

const dir = mkdtempSync(join(tmpdir(), 'bm-reader-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A project whose session file says `blocks: 3`, so a read that went through tells. */
function project(name: string): string {
  const root = join(dir, name)
  mkdirSync(join(root, '.bookmark', 'sessions'), { recursive: true })
  writeFileSync(join(root, '.bookmark', 'sessions', 'S1.json'), JSON.stringify({ version: 1, sessionId: 'S1', blocks: 3, compactions: 0 }))
  return root
}

describe('the store guard', () => {
  it('reads a store of plain folders', async () => {
    expect(await new StoreReader(project('plain')).readSessionHooks('S1')).toMatchObject({ blocks: 3 })
  })

  it.each(['.bookmark', '.bookmark/sessions', '.bookmark/cursors', '.bookmark/snapshots', '.bookmark/trails'])('refuses a store where %s is a symbolic link', async (rel) => {
    const root = project(`link-${rel.replace(/\W/g, '_')}`)
    const elsewhere = join(dir, `elsewhere-${rel.replace(/\W/g, '_')}`)
    mkdirSync(join(elsewhere, 'sessions'), { recursive: true })
    writeFileSync(join(elsewhere, 'sessions', 'S1.json'), JSON.stringify({ version: 1, sessionId: 'S1', blocks: 9, compactions: 0 }))
    rmSync(join(root, rel), { recursive: true, force: true })
    symlinkSync(rel === '.bookmark' ? elsewhere : join(elsewhere, 'sessions'), join(root, rel))
    const reader = new StoreReader(root)
    await expect(reader.readSessionHooks('S1')).rejects.toThrow(`${join(root, rel)} is a symbolic link`)
    await expect(reader.readIndex()).rejects.toThrow('is a symbolic link')
  })

  it('one check serves the readers of the next second; a link planted after it is refused once that has passed', async () => {
    const root = project('later')
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_000_000)
    try {
      expect(await new StoreReader(root).readSessionHooks('S1')).toMatchObject({ blocks: 3 })
      rmSync(join(root, '.bookmark', 'cursors'), { recursive: true, force: true })
      symlinkSync(dir, join(root, '.bookmark', 'cursors'))
      now.mockReturnValue(1_000_999)
      expect(await new StoreReader(root).readSessionHooks('S1')).toMatchObject({ blocks: 3 })
      now.mockReturnValue(999_000) // a clock set back is no reason to trust the old check
      await expect(new StoreReader(root).readSessionHooks('S1')).rejects.toThrow('cursors is a symbolic link')
      now.mockReturnValue(1_001_000)
      await expect(new StoreReader(root).readSessionHooks('S1')).rejects.toThrow('cursors is a symbolic link')
    } finally {
      now.mockRestore()
    }
  })

  it('a project without a store reads as empty', async () => {
    const root = join(dir, 'bare')
    mkdirSync(root)
    expect(await new StoreReader(root).readSessionHooks('S1')).toMatchObject({ blocks: 0 })
  })
})

describe('projectLayout', () => {
  it('names the same paths as join, once per root, and cannot be changed', () => {
    const root = join(dir, 'some project')
    const l = projectLayout(root)
    expect(l.trailsJson).toBe(join(root, '.bookmark', 'trails', 'files.json'))
    expect(l.sessions).toBe(join(root, '.bookmark', 'sessions'))
    expect(l.lock).toBe(join(root, '.bookmark', 'store.lock'))
    expect(projectLayout(root)).toBe(l)
    expect(Object.isFrozen(l)).toBe(true)
    expect(projectLayout(`${root}/`).dir).toBe(join(root, '.bookmark'))
  })
})
