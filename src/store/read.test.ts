import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { isObject } from '../shared/json.js'
import { readJson, readStoreFile } from './read.js'

const dir = mkdtempSync(join(tmpdir(), 'bm-read-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('reading the store’s own files', () => {
  const real = join(dir, 'real.json')
  const link = join(dir, 'link.json')
  writeFileSync(real, '{"version":1,"secret":"outside the store"}')
  symlinkSync(real, link)

  it('reads a plain file, and never through a symlink', async () => {
    expect(await readStoreFile(real)).toContain('outside the store')
    await expect(readStoreFile(link)).rejects.toMatchObject({ code: 'ELOOP' })
  })

  it('readJson reports a missing file, a symlink, a broken file and a wrong shape without throwing', async () => {
    expect(await readJson(real, isObject)).toEqual({ ok: true, value: { version: 1, secret: 'outside the store' } })
    expect(await readJson(join(dir, 'none.json'), isObject)).toEqual({ ok: false, missing: true, reason: 'missing' })
    expect(await readJson(link, isObject)).toEqual({ ok: false, missing: false, reason: `${link} is a symbolic link: not followed`, untrusted: true })
    writeFileSync(join(dir, 'broken.json'), '{"version":')
    expect(await readJson(join(dir, 'broken.json'), isObject)).toMatchObject({ ok: false, missing: false })
    expect(await readJson(real, (v): v is string => typeof v === 'string')).toEqual({ ok: false, missing: false, reason: `${real}: unexpected shape` })
  })
})
