import { describe, expect, it } from 'vitest'
import { knownRedacted, redactDeep } from './secrets.js'

const TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`

describe('redactDeep with what an earlier write stored (knownRedacted)', () => {
  it('gives the same result as a full redaction, for old and new strings alike', () => {
    const stored = redactDeep({ prompts: [{ text: `use ${TOKEN} for the API` }], files: { 'src/a.ts': { path: 'src/a.ts' } } })
    const known = knownRedacted(JSON.parse(JSON.stringify(stored)))
    const next = { ...stored, prompts: [...(stored.prompts as unknown[]), { text: `and now ${TOKEN} again` }], extra: [TOKEN] }
    expect(redactDeep(next, known)).toEqual(redactDeep(next))
    expect(JSON.stringify(redactDeep(next, known))).not.toContain(TOKEN)
  })

  it('skips what it is told was stored (so the set must come from our own file) and nothing else', () => {
    expect(redactDeep({ text: TOKEN }, knownRedacted({ text: TOKEN }))).toEqual({ text: TOKEN })
    expect(redactDeep({ text: TOKEN }, knownRedacted({ text: 'other' }))).toEqual(redactDeep({ text: TOKEN }))
  })

  it('skips a string only under the key it was stored under', () => {
    const known = knownRedacted({ name: 'hunter2-correct-horse-battery' })
    expect(redactDeep({ name: 'hunter2-correct-horse-battery' }, known)).toEqual({ name: 'hunter2-correct-horse-battery' })
    // The same text under a key that names a secret is judged afresh.
    expect(redactDeep({ password: 'hunter2-correct-horse-battery' }, known)).toEqual(redactDeep({ password: 'hunter2-correct-horse-battery' }))
    expect(JSON.stringify(redactDeep({ password: 'hunter2-correct-horse-battery' }, known))).not.toContain('hunter2')
    // A list item is known as a list item only.
    expect(redactDeep({ x: [TOKEN] }, knownRedacted({ y: TOKEN }))).toEqual(redactDeep({ x: [TOKEN] }))
  })
})
