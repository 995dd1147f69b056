import { describe, expect, it } from 'vitest'
import { type KnownRedacted, redactDeep, redactOver } from './secrets.js'
import { LONG_STRING } from './deep.js'

/** The strings of `value`, a parsed file that `redactDeep` wrote, as a KnownRedacted (captures now use redactOver). */
function knownRedacted(value: unknown): KnownRedacted {
  const fields = new Map<string, Set<string>>()
  const keys = new Set<string>()
  const items = new Set<string>()
  const visit = (v: unknown, depth: number): void => {
    if (v === null || typeof v !== 'object' || depth >= 100) return
    if (Array.isArray(v)) {
      for (const item of v) {
        if (typeof item === 'string') items.add(item)
        else visit(item, depth + 1)
      }
      return
    }
    const source = v as Record<string, unknown>
    for (const key in source) {
      if (!Object.prototype.hasOwnProperty.call(source, key)) continue
      const item = source[key]
      keys.add(key)
      if (typeof item === 'string') {
        let set = fields.get(key)
        if (!set) fields.set(key, (set = new Set()))
        set.add(item)
      } else visit(item, depth + 1)
    }
  }
  visit(value, 0)
  return { fields, keys, items }
}

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

describe('redactOver: redactDeep of a value grown out of a stored one', () => {
  const stored = () =>
    redactDeep({
      prompts: [
        { ts: '1', text: `use ${TOKEN} for the API` },
        { ts: '2', text: 'second' },
        { ts: '3', text: 'third' },
      ],
      files: { [`notes/${TOKEN}.txt`]: { path: `notes/${TOKEN}.txt`, hints: [`+token ${TOKEN}`, 'plain hint'] } },
      env: { GITHUB_TOKEN: 'plainvalue123', other: 'x'.repeat(LONG_STRING) },
      tags: ['a', 'b', 'c'],
      ['__proto__']: { id: 'proto' },
    })
  // The capture folds a turn into a copy parsed from the file, and compares with another parse of it.
  const parsed = (): Record<string, unknown> => JSON.parse(JSON.stringify(stored())) as Record<string, unknown>

  it('gives what redactDeep gives, whatever the fold changed, added, dropped or moved', () => {
    const folds: Array<(s: Record<string, any>) => void> = [
      () => undefined,
      (s) => s.prompts.push({ ts: '4', text: `now ${TOKEN}` }),
      (s) => (s.prompts = [...s.prompts.slice(1), { ts: '4', text: 'new' }]),
      (s) => s.prompts.unshift({ ts: '0', text: `password=hunter2hunter2 and ${TOKEN}` }),
      (s) => (s.prompts[1].text = `changed ${TOKEN}`),
      (s) => (s.tags = ['z', ...s.tags.slice(1), TOKEN]),
      (s) => (s.files[`more/${TOKEN}`] = { path: TOKEN }),
      (s) => (s.env.apiKey = 'sk-live-not-a-real-one-but-a-key'),
      (s) => (s.env.GITHUB_TOKEN = 'anothervalue456'),
      (s) => (s.env = [s.env]),
      (s) => (s.shared = s.files),
      (s) => (s.map = new Map([['password', 'hunter2hunter2']])),
      (s) => (s.prompts = { 0: s.prompts[0] }),
    ]
    for (const [i, fold] of folds.entries()) {
      const next = parsed()
      fold(next)
      const long = new Set<string>()
      const out = redactOver(next, parsed(), long)
      expect(out, `fold ${i}`).toEqual(redactDeep(next))
      expect(JSON.stringify(out), `fold ${i}`).toBe(JSON.stringify(redactDeep(next)))
      expect(JSON.stringify(out), `fold ${i}`).not.toContain(TOKEN)
      expect([...long], `fold ${i}`).toContain('x'.repeat(LONG_STRING))
    }
  })

  it('keeps only what equals the stored value at the same place: the prior must be our own file', () => {
    expect(redactOver({ text: TOKEN }, { text: TOKEN })).toEqual({ text: TOKEN })
    expect(redactOver({ text: TOKEN }, { other: TOKEN })).toEqual(redactDeep({ text: TOKEN }))
    expect(redactOver({ a: { text: TOKEN } }, { b: { text: TOKEN } })).toEqual(redactDeep({ a: { text: TOKEN } }))
    expect(redactOver({ x: [TOKEN] }, { x: ['other'] })).toEqual(redactDeep({ x: [TOKEN] }))
    // A list item is compared with the stored item it lines up with (the stored list lost its oldest).
    expect(redactOver({ x: [TOKEN] }, { x: ['other', TOKEN] })).toEqual({ x: [TOKEN] })
  })

  it('keeps shared references shared and gives a copy', () => {
    const next = parsed()
    next.again = next.files
    const out = redactOver(next, parsed())
    expect(out.again).toBe(out.files)
    expect(out.files).not.toBe(next.files)
  })
})

describe('KnownRedacted.strings', () => {
  it('keeps a known string under a key that names no secret, and judges it afresh under one that does', () => {
    const known = { fields: new Map(), keys: new Set<string>(), items: new Set<string>(), strings: new Set([TOKEN, 'hunter2-correct-horse-battery']) }
    expect(redactDeep({ text: TOKEN }, known)).toEqual({ text: TOKEN })
    expect(redactDeep({ password: 'hunter2-correct-horse-battery' }, known)).toEqual(redactDeep({ password: 'hunter2-correct-horse-battery' }))
    expect(redactDeep({ authorization: 'hunter2-correct-horse-battery' }, known)).toEqual(redactDeep({ authorization: 'hunter2-correct-horse-battery' }))
    expect(redactDeep({ x: [TOKEN] }, known)).toEqual(redactDeep({ x: [TOKEN] }))
  })
})
