import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../test/helpers/tmp.js'
import { LockTimeoutError, LockUnusable } from '../shared/errors.js'
import { withLock } from './lock.js'

describe('withLock', () => {
  it('fails at once on a folder where the lock should be, instead of spinning', async () => {
    const lock = join(tempDir('bm-lock-'), 'store.lock')
    mkdirSync(lock)
    const started = Date.now()
    await expect(withLock(lock, async () => 'ran')).rejects.toBeInstanceOf(LockUnusable)
    expect(Date.now() - started).toBeLessThan(1_000)
  })

  it('takes over a lock dated in the future even when its pid is alive (a clock set back, a planted file)', async () => {
    const lock = join(tempDir('bm-lock-'), 'store.lock')
    writeFileSync(lock, JSON.stringify({ pid: 1, host: 'elsewhere', nonce: 'x', at: Date.now() + 3_600_000 }))
    const future = new Date(Date.now() + 3_600_000)
    utimesSync(lock, future, future)
    expect(await withLock(lock, async () => 'ran', { timeoutMs: 200 })).toBe('ran')
  })

  it('gives up on a live lock after its wait, so a hook can skip this capture and answer', async () => {
    const lock = join(tempDir('bm-lock-'), 'store.lock')
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: 'elsewhere', nonce: 'y', at: Date.now() }))
    const started = Date.now()
    await expect(withLock(lock, async () => 'ran', { timeoutMs: 300 })).rejects.toBeInstanceOf(LockTimeoutError)
    expect(Date.now() - started).toBeLessThan(1_500)
  })
})
