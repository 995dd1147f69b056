import { describe, expect, it } from 'vitest'
import { ALNUM, fake2, ghp, mark, opaque } from '../../test/helpers/fake-secrets.js'
import { TOO_DEEP_MARKER, redactDeep } from './secrets.js'

describe('redactDeep', () => {
  it('redacts every string value and key at any depth and leaves numbers, booleans and null alone', () => {
    const input = {
      type: 'user',
      [ghp]: 'a key that is a token is redacted like a value',
      message: {
        content: [
          { type: 'text', text: `token ${ghp}` },
          { type: 'tool_use', input: { command: `export DB_PASSWORD=${opaque}` } },
        ],
      },
      usage: { input_tokens: 12, cached: false, extra: null },
      list: [[[`Bearer ${opaque}`]]],
    }
    expect(redactDeep(input)).toEqual({
      type: 'user',
      [mark('github-token')]: 'a key that is a token is redacted like a value',
      message: {
        content: [
          { type: 'text', text: `token ${mark('github-token')}` },
          { type: 'tool_use', input: { command: `export DB_PASSWORD=${mark('password')}` } },
        ],
      },
      usage: { input_tokens: 12, cached: false, extra: null },
      list: [[[`Bearer ${mark('bearer-token')}`]]],
    })
  })

  it('never mutates its input and returns new containers', () => {
    const deepFreeze = <T>(value: T): T => {
      if (value !== null && typeof value === 'object') {
        for (const child of Object.values(value)) deepFreeze(child)
        Object.freeze(value)
      }
      return value
    }
    const input = deepFreeze({ a: [`password=${opaque}`, { b: ghp }] })
    const before = JSON.stringify(input)
    const out = redactDeep(input)
    expect(JSON.stringify(input)).toBe(before)
    expect(out).not.toBe(input)
    expect(out.a).not.toBe(input.a)
    expect(out.a[1]).not.toBe(input.a[1])
  })

  it('redacts a value whole when its key names a secret, with the same placeholder rules as text', () => {
    const input = {
      tool: { name: 'mcp__vendor__query', input: { apiKey: opaque, query: 'select 1' } },
      env: { GITHUB_TOKEN: 'plain-looking-value-1', DB_PASSWORD: 'hunter2', HOME: '/home/me' },
      placeholders: { password: '', token: '${TOKEN}', secret: '<your-secret>', privateKey: '~/.ssh/id_ed25519' },
      usage: { input_tokens: 12, output_tokens: 3 },
      settings: new Map([['client_secret', opaque]]),
      headers: { authorization: 'Bearer abc.def', 'Proxy-Authorization': 'Basic ${CREDS}', accept: 'text/html' },
      wallet: { passphrase: 'correct horse battery staple', hint: 'four random words' },
    }
    expect(redactDeep(input)).toEqual({
      tool: { name: 'mcp__vendor__query', input: { apiKey: mark('api-key'), query: 'select 1' } },
      env: { GITHUB_TOKEN: mark('token'), DB_PASSWORD: mark('password'), HOME: '/home/me' },
      placeholders: { password: '', token: '${TOKEN}', secret: '<your-secret>', privateKey: '~/.ssh/id_ed25519' },
      usage: { input_tokens: 12, output_tokens: 3 },
      settings: new Map([['client_secret', mark('secret')]]),
      headers: { authorization: `Bearer ${mark('bearer-token')}`, 'Proxy-Authorization': 'Basic ${CREDS}', accept: 'text/html' },
      wallet: { passphrase: mark('password'), hint: 'four random words' },
    })
  })

  it('handles primitives and leaves non-plain objects as they are', () => {
    expect(redactDeep(ghp)).toBe(mark('github-token'))
    expect(redactDeep(42)).toBe(42)
    expect(redactDeep(undefined)).toBeUndefined()
    const when = new Date(0)
    expect(redactDeep({ when }).when).toBe(when)
    const map = redactDeep(
      new Map<unknown, string>([
        [ghp, ghp],
        [7, ghp],
      ]),
    )
    expect([...map]).toEqual([
      [mark('github-token'), mark('github-token')],
      [7, mark('github-token')],
    ])
    expect([...redactDeep(new Set([ghp]))]).toEqual([mark('github-token')])
  })

  it('redacts a secret inside a key (a file path used as a key) and judges the value by the key as written', () => {
    const token = `ghp_${fake2(ALNUM, 36)}`
    const input = JSON.parse(`{"files": {"notes/${token}.txt": {"size": 12}, "README.md": {"size": 3}}, "${token}_password": "${opaque}"}`) as unknown
    const out = redactDeep(input)
    expect(JSON.stringify(out)).not.toContain(token)
    expect(out).toEqual({
      files: { [`notes/${mark('github-token')}.txt`]: { size: 12 }, 'README.md': { size: 3 } },
      [`${mark('github-token')}_password`]: mark('password'),
    })
  })

  it('keeps every key when several redact to the same text, suffixing " (2)", " (3)"', () => {
    const tokens = [`ghp_${fake2(ALNUM, 36)}`, `ghp_${fake2(ALNUM, 36)}`, `ghp_${fake2(ALNUM, 36)}`]
    const key = `notes/${mark('github-token')}.txt`
    const input = {
      files: {
        [`notes/${tokens[0]}.txt`]: 1,
        [`notes/${tokens[1]}.txt`]: 2,
        [`${key} (3)`]: 'a key that already reads like a suffixed one',
        [`notes/${tokens[2]}.txt`]: 4,
      },
    }
    const out = redactDeep(input)
    expect(out.files).toEqual({
      [key]: 1,
      [`${key} (2)`]: 2,
      [`${key} (3)`]: 'a key that already reads like a suffixed one',
      [`${key} (4)`]: 4,
    })
    expect(Object.keys(out.files)).toHaveLength(4)
    const map = redactDeep(new Map(tokens.map((t, i) => [`notes/${t}.txt`, i])))
    expect([...map]).toEqual([
      [key, 0],
      [`${key} (2)`, 1],
      [`${key} (3)`, 2],
    ])
  })

  it('keeps many colliding keys in linear time', () => {
    const input: Record<string, number> = {}
    for (let i = 0; i < 20_000; i++) input[`Bearer ${fake2(ALNUM, 30)}`] = i
    const start = performance.now()
    const out = redactDeep(input)
    expect(performance.now() - start).toBeLessThan(2000)
    const keys = Object.keys(out)
    expect(keys).toHaveLength(20_000)
    expect(keys[0]).toBe(`Bearer ${mark('bearer-token')}`)
    expect(keys[19_999]).toBe(`Bearer ${mark('bearer-token')} (20000)`)
    expect(Object.values(out)).toEqual(Object.values(input))
  })

  it('keeps a "__proto__" key from JSON.parse as a plain property', () => {
    const input = JSON.parse(`{"__proto__": {"token": "${opaque}"}, "x": 1}`) as Record<string, unknown>
    const out = redactDeep(input)
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.keys(out)).toEqual(['__proto__', 'x'])
    expect(JSON.stringify(out)).toBe(`{"__proto__":{"token":"${mark('token')}"},"x":1}`)
  })

  it('terminates on cycles and on shared references, reproducing them in the copy', () => {
    const cyclic: Record<string, unknown> = { secret: `token=${opaque}` }
    cyclic.self = cyclic
    const out = redactDeep(cyclic)
    expect(out.self).toBe(out)
    expect(out.secret).toBe(`token=${mark('token')}`)

    // 2^64 paths if shared nodes were copied once per path
    let node: Record<string, unknown> = { leaf: ghp }
    for (let i = 0; i < 64; i++) node = { left: node, right: node }
    const copy = redactDeep(node)
    expect(copy.left).toBe(copy.right)
  })

  it('caps depth: a very deep value is replaced by the too-deep marker instead of overflowing the stack', () => {
    let deep: unknown = ghp
    for (let i = 0; i < 100_000; i++) deep = [deep]
    let out = redactDeep(deep)
    let depth = 0
    while (Array.isArray(out)) {
      out = out[0]
      depth++
    }
    expect(out).toBe(TOO_DEEP_MARKER)
    expect(depth).toBe(100)
  })
})
