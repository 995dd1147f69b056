import { describe, expect, it } from 'vitest'
import { fingerprint, keptLength, sameBytes } from './fingerprint.js'

const bytes = (s: string): Buffer => Buffer.from(s, 'utf8')

describe('fingerprint', () => {
  it('keeps the count and a 64-bit hash, never the bytes', () => {
    const fp = fingerprint(bytes('{"type":"queue-operation","content":"the key is ghp_A1b2C3d4E5f6"}\n'))
    expect(fp).toMatch(/^67:[0-9a-f]{16}$/)
    expect(fp).not.toContain(bytes('ghp_').toString('hex'))
    expect(fingerprint(Buffer.alloc(0))).toBe('')
  })

  it('tells bytes that changed in one bit, moved or got longer', () => {
    const base = fingerprint(bytes('"timestamp":"2026-11-30T04:00:00.000Z"}\n'))
    expect(fingerprint(bytes('"timestamp":"2026-11-30T04:00:00.001Z"}\n'))).not.toBe(base)
    expect(fingerprint(bytes('"timestamp":"2026-11-30T04:00:00.000Z"}\n'))).toBe(base)
    expect(fingerprint(bytes('ab'))).not.toBe(fingerprint(bytes('ba')))
    expect(fingerprint(bytes('ab'))).not.toBe(fingerprint(bytes('ab\0')))
  })

  it('compares with a fingerprint, or with the hex older cursors kept, by their length', () => {
    const b = bytes('{"parentUuid":null}')
    expect(keptLength(fingerprint(b))).toBe(b.length)
    expect(sameBytes(fingerprint(b), b)).toBe(true)
    expect(sameBytes(b.toString('hex'), b)).toBe(true)
    expect(keptLength(b.toString('hex'))).toBe(b.length)
    expect(sameBytes(b.toString('hex'), bytes('{"parentUuid":nul!}'))).toBe(false)
    expect(sameBytes(fingerprint(b), b.subarray(1))).toBe(false)
    expect(keptLength('x:1234')).toBe(-1)
    expect(sameBytes('x:1234', b)).toBe(false)
    expect(sameBytes('', Buffer.alloc(0))).toBe(true)
  })
})
