import { createHmac, randomBytes } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../test/helpers/tmp.js'
import { readJson } from '../store/read.js'
import { writeJson } from '../store/files.js'
import { forgetKeys, keyPath, keyProblem, projectId, readKey } from './key.js'
import { ensureKey } from './make-key.js'
import { sealJson, unsealJson } from './mac.js'
import { hasValidSeal, narrativeSeal } from './seal.js'
import { hmacSha256Hex } from './sha256.js'

describe('hmacSha256Hex (the hooks’ own HMAC-SHA256)', () => {
  it('gives node:crypto’s digest for the RFC 4231 case 2 and for random keys and messages of every block edge', () => {
    const rfc = hmacSha256Hex(Buffer.from('Jefe'), Buffer.from('what do ya want for nothing?'))
    expect(rfc).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843')
    for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 200, 1000]) {
      const key = randomBytes(length % 3 === 0 ? 32 : 80) // 80: longer than a block, hashed first
      const msg = randomBytes(length)
      expect(hmacSha256Hex(key, msg), `length ${length}`).toBe(createHmac('sha256', key).update(msg).digest('hex'))
    }
  })
})

describe('the per-user key', () => {
  it('is made once, 0600, 64 hex digits, and read back the same by every caller', async () => {
    const home = join(tempDir('bm-key-'), 'home')
    expect(await readKey(home)).toBeUndefined()
    const keys = await Promise.all([ensureKey(home), ensureKey(home), ensureKey(home)])
    expect(new Set(keys.map((k) => k.toString('hex'))).size).toBe(1)
    expect(statSync(keyPath(home)).mode & 0o777).toBe(0o600)
    expect(readFileSync(keyPath(home), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/)
    forgetKeys()
    expect((await readKey(home))?.toString('hex')).toBe(keys[0]!.toString('hex'))
  })

  it('is never replaced when it is there but unusable (that would disown every sealed file): the writer fails, doctor says why', async () => {
    const home = tempDir('bm-key-')
    writeFileSync(keyPath(home), 'not a key\n', { mode: 0o600 })
    forgetKeys()
    expect(await readKey(home)).toBeUndefined()
    expect(await keyProblem(home)).toMatch(/does not hold a key/)
    await expect(ensureKey(home)).rejects.toThrow(/does not hold a key/)
    expect(readFileSync(keyPath(home), 'utf8')).toBe('not a key\n')
  })

  it('names a project by a keyed hash of its root: another key or another root gives another name', () => {
    const a = randomBytes(32)
    const b = randomBytes(32)
    expect(projectId(a, '/p/one')).toMatch(/^[0-9a-f]{32}$/)
    expect(projectId(a, '/p/one')).toBe(projectId(a, '/p/one'))
    expect(projectId(a, '/p/one')).not.toBe(projectId(a, '/p/two'))
    expect(projectId(a, '/p/one')).not.toBe(projectId(b, '/p/one'))
  })
})

describe('sealed store files', () => {
  const key = randomBytes(32)
  const seal = { key, dir: '/p/.bookmark' }

  it('open only with the key and the place they were sealed for, and only as written', () => {
    for (const json of ['{"version":1,"a":[1,2]}\n', '{\n  "version": 1,\n  "a": "x"\n}\n']) {
      const sealed = sealJson(seal, '/p/.bookmark/index.json', json)
      expect(JSON.parse(sealed)).toMatchObject({ mac: expect.stringMatching(/^[0-9a-f]{64}$/), version: 1 })
      expect(unsealJson(seal, '/p/.bookmark/index.json', sealed)).toEqual({ ok: true, json })
      expect(unsealJson({ key: randomBytes(32), dir: seal.dir }, '/p/.bookmark/index.json', sealed).ok).toBe(false)
      expect(unsealJson(seal, '/p/.bookmark/trails/files.json', sealed).ok).toBe(false) // moved to another place
      expect(unsealJson(seal, '/p/.bookmark/index.json', sealed.replace('"version', '"versioN')).ok).toBe(false)
      expect(unsealJson(seal, '/p/.bookmark/index.json', json)).toMatchObject({ ok: false, reason: expect.stringMatching(/no bookmark seal/) })
    }
  })

  it('are read by readJson only when sealed for this key, and reported as untrusted otherwise', async () => {
    const root = tempDir('bm-seal-')
    const dir = join(root, '.bookmark')
    mkdirSync(dir)
    const s = { key, dir }
    await writeJson(join(dir, 'index.json'), { version: 1, snapshots: [] }, { seal: s })
    const ok = await readJson(join(dir, 'index.json'), (v): v is { version: number } => true, s)
    expect(ok).toMatchObject({ ok: true, value: { version: 1 } })
    writeFileSync(join(dir, 'planted.json'), '{"version":1,"snapshots":[]}\n')
    const planted = await readJson(join(dir, 'planted.json'), (v): v is unknown => true, s)
    expect(planted).toMatchObject({ ok: false, untrusted: true })
  })
})

describe('narrative seals', () => {
  it('hold for the root, session and time they were made for, and for nothing else', () => {
    const key = randomBytes(32)
    const id = { scope: 'repo' as const, session_id: 's1', written: '2026-12-01T10:00:00.000Z' }
    const seal = narrativeSeal(key, '/p', id)
    expect(hasValidSeal(key, '/p', { ...id, seal })).toBe(true)
    expect(hasValidSeal(key, '/q', { ...id, seal })).toBe(false)
    expect(hasValidSeal(key, '/p', { ...id, written: '2026-12-01T11:00:00.000Z', seal })).toBe(false)
    expect(hasValidSeal(randomBytes(32), '/p', { ...id, seal })).toBe(false)
    expect(hasValidSeal(undefined, '/p', { ...id, seal })).toBe(false)
    expect(hasValidSeal(key, '/p', id)).toBe(false)
  })

  it('are node:crypto’s HMAC-SHA256 of the same text, so seals handed out before still hold', () => {
    const key = randomBytes(32)
    const id = { scope: 'repo' as const, session_id: 'ab12-é', written: '2026-12-01T10:00:00.000Z' }
    const root = '/home/ünï/proj ✓'
    const want = createHmac('sha256', key).update(`bookmark narrative\0${root}\0ab12-é\0${id.written}`).digest('hex').slice(0, 32)
    expect(narrativeSeal(key, root, id)).toBe(want)
    expect(hasValidSeal(key, root, { ...id, seal: want })).toBe(true)
    expect(hasValidSeal(key, root, { ...id, seal: `${want.slice(0, 31)}${want[31] === '0' ? '1' : '0'}` })).toBe(false)
  })
})

describe('reading a FIFO where a store file should be', () => {
  it('is refused at once, never waited on', async () => {
    const dir = tempDir('bm-fifo-')
    const fifo = join(dir, 'index.json')
    execFileSync('mkfifo', [fifo])
    const r = await readJson(fifo, (v): v is unknown => true)
    expect(r).toMatchObject({ ok: false, untrusted: true, reason: expect.stringMatching(/a FIFO, not a regular file/) })
  })
})
