import { describe, expect, it } from 'vitest'
import { ALNUM, B64, fake2, HEX, mark, opaque, pemLines, prng } from '../../test/helpers/fake-secrets.js'
import { NEEDLES, SENSITIVE_WORDS, cutRedacted, cutRedactedTwice, mayRedactTo, needlesIn, redact } from './secrets.js'

describe('cutRedacted', () => {
  const gho = `gho_${fake2(ALNUM, 36)}`

  it('redacts before it cuts: a cut cannot hide a secret from the rules', () => {
    const body = pemLines(4)
    const text = `{"private_key": "-----BEGIN PRIVATE KEY-----\\n${body.join('\\n')}\\n-----END PRIVATE KEY-----\\n"}`
    // cut inside the body: a cut-then-redact would keep the lines a truncated-block rule leaves out
    const out = cutRedacted(text, 60)
    for (const line of body) expect(out).not.toContain(line.slice(0, 12))
    expect(out).toBe(`{"private_key": "${mark('private-key')}\\n"}`)
    // the cut falls inside the word `password=[REDACTED:password]`: none of that word is kept
    expect(cutRedacted(`password=${opaque} and more`, 18)).toBe('')
    expect(cutRedacted(`set password=${opaque} and more`, 22)).toBe('set ')
  })

  it('returns text that fits unchanged but redacted, and is never longer than max', () => {
    expect(cutRedacted('short text', 100)).toBe('short text')
    expect(cutRedacted(`use ${gho}`, 100)).toBe(`use ${mark('github-token')}`)
    expect(cutRedacted('anything', 0)).toBe('')
    expect(cutRedacted('anything', -5)).toBe('')
    expect(cutRedacted('anything', Number.NaN)).toBe('')
    expect(cutRedacted('anything at all', 7.9)).toBe('anythin')
    const text = `token ${gho} then ${opaque} and plain words, Bearer ${opaque} end`
    for (let max = 0; max <= text.length + 5; max++) {
      const out = cutRedacted(text, max)
      expect(out.length).toBeLessThanOrEqual(max)
      expect(redact(text).startsWith(out)).toBe(true)
    }
  })

  it('never ends inside a [REDACTED:...] marker', () => {
    const text = `token ${gho} and more`
    const redacted = `token ${mark('github-token')} and more`
    const markerStart = 'token '.length
    const markerEnd = markerStart + mark('github-token').length
    for (let max = markerStart + 1; max < markerEnd; max++) expect(cutRedacted(text, max)).toBe('token ')
    expect(cutRedacted(text, markerEnd)).toBe(redacted.slice(0, markerEnd))
    expect(cutRedacted(text, markerEnd + 4)).toBe(`${redacted.slice(0, markerEnd)} and`)
  })

  it('never ends in a "[REDACTED:" left open, even one the input held as text', () => {
    expect(cutRedacted('log: [REDACTED: reason unknown] done', 20)).toBe('log: ')
    expect(cutRedacted(`a [REDACTED:${mark('jwt')} b`, 20)).toBe('a ')
    expect(cutRedacted(`a ${mark('jwt')} b`, 40)).toBe(`a ${mark('jwt')} b`)
    const start = performance.now()
    expect(cutRedacted('[REDACTED:'.repeat(100_000), 900_000)).toBe('')
    expect(performance.now() - start).toBeLessThan(1000)
  })

  it('drops a partial token-looking run longer than 8 characters, keeps a short word cut short', () => {
    // `opaque` is 40 random characters the rules leave alone without context
    expect(cutRedacted(`id ${opaque} end`, 3 + 20)).toBe('id ')
    expect(cutRedacted(`see ${fake2(B64, 30)}/${fake2(HEX, 20)} end`, 20)).toBe('see ')
    expect(cutRedacted('a sentence with internationalization in it', 25)).toBe('a sentence with ')
    expect(cutRedacted('hello wonders', 9)).toBe('hello won')
    expect(cutRedacted('hello world, then more', 8)).toBe('hello wo')
    // a run of exactly 9 is longer than 8: dropped; a cut at its end keeps it whole
    expect(cutRedacted('abc 123456789 x', 8)).toBe('abc ')
    expect(cutRedacted('abc 123456789 x', 13)).toBe('abc 123456789')
  })

  it('never leaves half a surrogate pair', () => {
    expect(cutRedacted('ok \u{1F600}\u{1F600}', 4)).toBe('ok ')
    expect(cutRedacted('ok \u{1F600}\u{1F600}', 5)).toBe('ok \u{1F600}')
  })
})

/** Built in 64 kB chunks so that no multi-million-element array is alive (and traced by the GC) while timing. */

describe('redact: the cheap tests that skip a rule', () => {
  it('needlesIn finds exactly the needles that `includes` finds (ASCII letters lower-cased for the any-case ones)', () => {
    const next = prng(29)
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T
    const words = NEEDLES.map((n) => n.text)
    const texts = [
      '',
      'g',
      'gh',
      'sk-ant-',
      'xsk-ant-x',
      'é-é.éQ~',
      '\u{1F600}eyJ',
      'a'.repeat(50),
      'BeArEr',
      'pAsSwOrD',
      '\u212Aey',
      'İ',
      words.join(''),
      words.join(' '),
      [...words].reverse().join('é'),
      words.map((w) => w.toUpperCase()).join(' '),
    ]
    for (let n = 0; n < 3000; n++) {
      let text = ''
      const parts = Math.floor(next() * 12)
      for (let i = 0; i < parts; i++) {
        const roll = next()
        const word = pick(words)
        text +=
          roll < 0.3
            ? word
            : roll < 0.4
              ? word.toUpperCase()
              : roll < 0.6
                ? fake2(ALNUM, 1 + Math.floor(next() * 6))
                : pick(['é', ' ', '\n', '→', '.', '-', '_', '\u212A'])
      }
      texts.push(text)
    }
    // The `i` flag without `u` folds ASCII letters only: the Kelvin sign is no `k` to it (toLowerCase would say it is).
    expect(/key/i.test('\u212Aey')).toBe(false)
    for (const text of texts) {
      const found = needlesIn(text)
      const lower = text.replace(/[A-Z]/g, (c) => c.toLowerCase())
      expect({ text, found: NEEDLES.filter((_, id) => found[id] === 1) }).toEqual({
        text,
        found: NEEDLES.filter((n) => (n.anyCase ? lower : text).includes(n.text)),
      })
    }
  })

  it('names every key ending that an assignment rule judges in SENSITIVE_WORDS', () => {
    const keys = [
      'password',
      'PASSWD',
      'passphrase',
      'DB_PASS',
      'pwd',
      'client_secret',
      'authToken',
      'secret_key_base',
      'API_KEY',
      'access-key',
      'privateKey',
      'secret.key',
      'authkey',
      'signing_key',
      'encryptionKey',
      'masterKey',
      'account_key',
      'sasKey',
    ]
    for (const key of keys) {
      expect(SENSITIVE_WORDS.some((word) => key.toLowerCase().includes(word))).toBe(true)
      expect(redact(`${key}=Zq8vR2mX9kLp4Tw7`)).toBe(
        `${key}=${mark(key.toLowerCase().includes('pass') || key.toLowerCase().endsWith('pwd') ? 'password' : /token$/i.test(key) ? 'token' : /api.?key$/i.test(key) ? 'api-key' : 'secret')}`,
      )
    }
  })

  it('still finds a token that starts with a class wherever it stands', () => {
    const mailgun = `${fake2(HEX, 32)}-${fake2(HEX, 8)}-${fake2(HEX, 8)}`
    for (const text of [mailgun, `x ${mailgun}`, `${mailgun}.`, `re-run a-b ${'ab12'.repeat(20)}-x ${mailgun}`, `${'é'.repeat(40)}${mailgun}`]) {
      expect(redact(text)).toContain(mark('mailgun-key'))
    }
    expect(redact(`${fake2(HEX, 31)}-${fake2(HEX, 8)}-${fake2(HEX, 8)}`)).not.toContain('[REDACTED')
  })
})

describe('mayRedactTo', () => {
  const PARTS = [
    'ghp_',
    'sk-ant-api03-',
    'xoxb-',
    'AKIA',
    'eyJ',
    '.eyJ',
    'password',
    'token',
    'api_key',
    'PASS',
    '=',
    ': ',
    '"',
    "'",
    ' ',
    '\t',
    '\n',
    '://',
    '@',
    'https://u:',
    'Bearer',
    'Bearer ',
    'Basic ',
    'Authorization:',
    '--password ',
    '-u ',
    'login x password ',
    '?sig=',
    'AccountKey=',
    '-----BEGIN RSA PRIVATE KEY-----',
    '[REDACTED:token]',
    '[REDACTED:',
    'é',
  ]

  it('is true for every cut of a redacted text whose white space is folded', () => {
    const next = prng(41)
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T
    let redacted = 0
    for (let n = 0; n < 3000; n++) {
      let text = ''
      const parts = 1 + Math.floor(next() * 25)
      for (let i = 0; i < parts; i++) text += next() < 0.5 ? pick(PARTS) : fake2(ALNUM, 1 + Math.floor(next() * 40))
      text = text.replace(/\s+/g, ' ').trim()
      const whole = redact(text)
      if (whole !== text) redacted++
      for (const max of [0, 5, 20, 60, 160, Math.floor(next() * (whole.length + 5))]) {
        const stored = cutRedacted(text, max)
        expect({ text, max, ok: mayRedactTo(text, stored) }).toEqual({ text, max, ok: true })
      }
    }
    expect(redacted).toBeGreaterThan(500)
  })

  it('is false when the text differs before the first marker', () => {
    expect(mayRedactTo('git push origin main', 'git pull origin main')).toBe(false)
    expect(mayRedactTo('curl -H "Authorization: Bearer abc"', 'curl -H "Authorization: Bearer [REDACTED:bearer-token]"')).toBe(true)
    expect(mayRedactTo('wget -H "Authorization: Bearer abc"', 'curl -H "Authorization: Bearer [REDACTED:bearer-token]"')).toBe(false)
  })
})

describe('cutRedactedTwice', () => {
  it('gives the two cuts that cutRedacted gives, whole and shortened', () => {
    const next = prng(53)
    const parts = ['ghp_', 'password=', 'token: ', 'Bearer ', ' ', '\n', '[REDACTED:', 'é', '\u{1F600}', 'https://u:p@h/']
    for (let n = 0; n < 2000; n++) {
      let text = ''
      const count = 1 + Math.floor(next() * 30)
      for (let i = 0; i < count; i++) text += next() < 0.4 ? parts[Math.floor(next() * parts.length)]! : fake2(ALNUM, 1 + Math.floor(next() * 50))
      const max = Math.floor(next() * 600)
      const shorter = Math.floor(next() * 200)
      const whole = cutRedacted(text, max)
      expect({ text, max, shorter, got: cutRedactedTwice(text, max, shorter) }).toEqual({ text, max, shorter, got: [whole, cutRedacted(whole, shorter)] })
    }
  })
})
