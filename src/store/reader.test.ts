import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { writeJson } from './files.js'
import { projectLayout, stateLayout } from './layout.js'
import { StoreReader } from './reader.js'
import { ensureSeal, ensureState } from './state-write.js'

const dir = mkdtempSync(join(tmpdir(), 'bm-reader-'))
const home = join(dir, 'bookmark-home')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const ENTRY = {
  id: 'SNAP_20261201_100000_000_abcd',
  seq: 1,
  createdAt: '2026-12-01T10:00:00.000Z',
  sessionId: 'S1',
  trigger: 'stop',
  task: 'the task',
  files: 0,
}

/** A project whose sealed index lists one snapshot, so a read that went through tells. */
async function project(name: string): Promise<string> {
  const root = join(dir, name)
  mkdirSync(join(root, '.bookmark', 'snapshots'), { recursive: true })
  mkdirSync(join(root, '.bookmark', 'trails'), { recursive: true })
  await writeJson(projectLayout(root).index, { version: 1, snapshots: [ENTRY] }, { seal: await ensureSeal(home, root) })
  return root
}

describe('the store guard', () => {
  it('reads a store of plain folders', async () => {
    expect((await new StoreReader(await project('plain'), home).readIndex()).index.snapshots).toEqual([ENTRY])
  })

  it.each(['.bookmark', '.bookmark/snapshots', '.bookmark/trails'])('refuses a store where %s is a symbolic link', async (rel) => {
    const root = await project(`link-${rel.replace(/\W/g, '_')}`)
    const elsewhere = join(dir, `elsewhere-${rel.replace(/\W/g, '_')}`)
    mkdirSync(elsewhere, { recursive: true })
    rmSync(join(root, rel), { recursive: true, force: true })
    symlinkSync(elsewhere, join(root, rel))
    const reader = new StoreReader(root, home)
    await expect(reader.readIndex()).rejects.toThrow(`${join(root, rel)} is a symbolic link`)
    await expect(reader.readSnapshot(ENTRY.id)).rejects.toThrow('is a symbolic link')
  })

  it('one check serves the readers of the next second; a link planted after it is refused once that has passed', async () => {
    const root = await project('later')
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_000_000)
    try {
      expect((await new StoreReader(root, home).readIndex()).index.snapshots).toHaveLength(1)
      rmSync(join(root, '.bookmark', 'trails'), { recursive: true, force: true })
      symlinkSync(dir, join(root, '.bookmark', 'trails'))
      now.mockReturnValue(1_000_999)
      expect((await new StoreReader(root, home).readIndex()).index.snapshots).toHaveLength(1)
      now.mockReturnValue(999_000) // a clock set back is no reason to trust the old check
      await expect(new StoreReader(root, home).readIndex()).rejects.toThrow('trails is a symbolic link')
      now.mockReturnValue(1_001_000)
      await expect(new StoreReader(root, home).readIndex()).rejects.toThrow('trails is a symbolic link')
    } finally {
      now.mockRestore()
    }
  })

  it('a project without a store reads as empty', async () => {
    const root = join(dir, 'bare')
    mkdirSync(root)
    expect(await new StoreReader(root, home).readSessionHooks('S1')).toMatchObject({ blocks: 0 })
    expect((await new StoreReader(root, home).readIndex()).index.snapshots).toEqual([])
  })
})

describe('what came with the project', () => {
  it('an index, a snapshot or session state without this user’s seal is never read; the index says why', async () => {
    const root = join(dir, 'cloned')
    const l = projectLayout(root)
    mkdirSync(join(l.dir, 'snapshots'), { recursive: true })
    mkdirSync(join(l.dir, 'sessions'), { recursive: true })
    writeFileSync(l.index, JSON.stringify({ version: 1, snapshots: [{ ...ENTRY, seq: 99 }] }))
    writeFileSync(join(l.snapshots, `${ENTRY.id}.json`), JSON.stringify({ version: 1, id: ENTRY.id, files: [] }))
    writeFileSync(join(l.dir, 'sessions', 'S1.json'), JSON.stringify({ version: 1, sessionId: 'S1', blocks: 3, compactions: 0 }))
    await ensureState(home, root) // this user has a key and a folder for the project
    const reader = new StoreReader(root, home)
    const read = await reader.readIndex()
    expect(read.index.snapshots).toEqual([])
    expect(read.untrusted).toMatch(/no bookmark seal/)
    expect(await reader.readSnapshot(ENTRY.id)).toBeUndefined()
    expect(await reader.readSessionHooks('S1')).toMatchObject({ blocks: 0 })
  })

  it('sorts this user’s index by the store’s sequence, not by the dates in it', async () => {
    const root = join(dir, 'clock')
    mkdirSync(join(root, '.bookmark'), { recursive: true })
    const ahead = { ...ENTRY, id: 'SNAP_20991201_100000_000_aaaa', seq: 1, createdAt: '2099-12-01T10:00:00.000Z' }
    const later = { ...ENTRY, id: 'SNAP_20261201_100000_000_bbbb', seq: 2 }
    await writeJson(projectLayout(root).index, { version: 1, snapshots: [ahead, later] }, { seal: await ensureSeal(home, root) })
    expect((await new StoreReader(root, home).readIndex()).index.snapshots.map((e) => e.id)).toEqual([later.id, ahead.id])
  })
})

describe('layouts', () => {
  it('names the same paths as join, once per root, and cannot be changed', () => {
    const root = join(dir, 'some project')
    const l = projectLayout(root)
    expect(l.trailsJson).toBe(join(root, '.bookmark', 'trails', 'files.json'))
    expect(projectLayout(root)).toBe(l)
    expect(Object.isFrozen(l)).toBe(true)
    expect(projectLayout(`${root}/`).dir).toBe(join(root, '.bookmark'))
    const s = stateLayout(home, 'abc')
    expect(s.sessions).toBe(join(home, 'projects', 'abc', 'sessions'))
    expect(s.lock).toBe(join(home, 'projects', 'abc', 'store.lock'))
  })
})
