import { describe, expect, it } from 'vitest'
import { NEEDLE, NEEDLES, TEXT_RULES } from './needles.js'
import { HINTS } from './tokens.js'

describe('NEEDLES', () => {
  it('holds each needle once, the token hints first at their places, and every rule points at its own needles', () => {
    const keys = NEEDLES.map((n) => `${n.anyCase}:${n.text}`)
    expect(new Set(keys).size).toBe(keys.length)
    expect(NEEDLES.slice(0, HINTS.length).map((n) => n.text)).toEqual(HINTS)
    for (const rule of TEXT_RULES) for (const id of rule.ids) expect(NEEDLES[id]).toBeDefined()
    expect(NEEDLES[NEEDLE.password]).toEqual({ text: 'password', anyCase: false })
    expect(NEEDLES[NEEDLE.bearer]).toEqual({ text: 'bearer', anyCase: true })
  })
})
