import { describe, expect, it } from 'vitest'
import { parseValue } from './keys.js'
import { type Resolved, captureOff } from './resolve.js'
import { switchState } from './switch.js'

describe('the disable switch', () => {
  it.each([
    ['1', 1],
    ['true', 1],
    [' YES ', 1],
    ['on', 1],
    ['0', 0],
    ['false', 0],
    ['off', 0],
    [1, 1],
    [true, 1],
    [false, 0],
  ] as const)('reads %j as %i', (raw, value) => {
    expect(parseValue('disable', raw)).toEqual({ ok: true, value })
  })

  it.each(['2', 'maybe', 'constructor', ''])('refuses %j with what it expected', (raw) => {
    const r = parseValue('disable', raw)
    expect(r.ok).toBe(false)
  })

  const resolved = (disable: number, source: Resolved['sources']['disable'], sessionsOff: Record<string, string> = {}) =>
    ({ config: { disable }, sources: { disable: source }, problems: [], files: { global: '' }, sessionsOff }) as unknown as Resolved

  it('names the layer that turned capture off, and a switched-off session', () => {
    expect(captureOff(resolved(0, 'default'), 's1')).toBeUndefined()
    expect(captureOff(resolved(1, 'project'), 's1')).toBe('project')
    expect(captureOff(resolved(1, 'env'), undefined)).toBe('env')
    expect(captureOff(resolved(0, 'default', { s1: '2026-01-01T00:00:00.000Z' }), 's1')).toBe('session')
    expect(captureOff(resolved(0, 'default', { s1: '2026-01-01T00:00:00.000Z' }), 's2')).toBeUndefined()
    // An id that is a name on every object's prototype is not a switched-off session.
    expect(captureOff(resolved(0, 'default'), 'constructor')).toBeUndefined()
    // On again by a layer above (BOOKMARK_DISABLE=0 over a project's off): on.
    expect(switchState(resolved(0, 'env', { s1: 't' }))).toEqual({ on: true, offBy: null, sessionsOff: [{ sessionId: 's1', since: 't' }] })
  })
})
