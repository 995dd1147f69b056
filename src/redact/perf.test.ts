import { describe, expect, it } from 'vitest'
import { ALNUM, B64, fake, fake2, prng } from '../../test/helpers/fake-secrets.js'
import { cutRedacted, redact, redactDeep } from './secrets.js'

function randomText(length: number, alphabet: string): string {
  const next = prng(42)
  const chunks: string[] = []
  const codes = new Uint16Array(65_536)
  for (let done = 0; done < length; done += codes.length) {
    const n = Math.min(codes.length, length - done)
    for (let i = 0; i < n; i++) codes[i] = alphabet.charCodeAt(Math.floor(next() * alphabet.length))
    chunks.push(String.fromCharCode(...codes.subarray(0, n)))
  }
  return chunks.join('')
}

/**
 * Generous bounds: they catch backtracking blow-ups (minutes to hours), not small regressions, which the bench
 * measures. About 0.4 s alone; a loaded 2-core machine running the suite beside other work took over 6 s.
 */
const BLOW_UP_MS = 20_000

describe('redact: performance (linear regexes)', () => {
  const timed = (text: string): number => {
    const start = performance.now()
    redact(text)
    return performance.now() - start
  }

  it('5 MB of random text', () => {
    expect(timed(randomText(5_000_000, `${ALNUM}     \n=:/@._-"'{}[](),;&?#$%*+`))).toBeLessThan(BLOW_UP_MS)
  })

  it('1 MB of "a=" repeated', () => {
    expect(timed('a='.repeat(500_000))).toBeLessThan(BLOW_UP_MS)
  })

  const adversarial: Array<[string, () => string]> = [
    ['one 1 MB word', () => 'a'.repeat(1_000_000)],
    ['1 MB of base64', () => randomText(1_000_000, B64)],
    ['eyJ repeated', () => 'eyJ'.repeat(330_000)],
    ['password=" repeated', () => 'password="'.repeat(100_000)],
    ["password=' \\ repeated", () => "password='\\".repeat(90_000)],
    ['password: repeated', () => 'password: '.repeat(100_000)],
    ['api_key run', () => `${'api_key'.repeat(140_000)}=`],
    ['BEGIN lines without END', () => '-----BEGIN RSA PRIVATE KEY-----\n'.repeat(30_000)],
    ['BEGIN lines, one END far away', () => `${'-----BEGIN RSA PRIVATE KEY-----\n'.repeat(30_000)}-----END RSA PRIVATE KEY-----`],
    ['BEGIN then base64 lines, no END', () => `-----BEGIN RSA PRIVATE KEY-----\n${`${fake(B64, 64)}\n`.repeat(15_000)}`],
    ['scheme-like runs', () => 'https://a:'.repeat(100_000)],
    ['at signs', () => 'a@'.repeat(500_000)],
    ['colons', () => ':'.repeat(1_000_000)],
    ['Bearer repeated', () => 'Bearer '.repeat(150_000)],
    ['Authorization repeated', () => 'Authorization: '.repeat(70_000)],
    ['--password repeated', () => '--password '.repeat(100_000)],
    ['sk- repeated', () => 'sk-'.repeat(330_000)],
    ['escaped quotes', () => '\\"'.repeat(500_000)],
    // shapes that were quadratic before a fix
    ['Authorization: then 1 MB of blanks', () => `Authorization: ${' '.repeat(1_000_000)}x`],
    ['api key then a 1 MB run of "<"', () => `x-api-key: a${'<'.repeat(1_000_000)}`],
    ['dense matches', () => 'token: A@'.repeat(110_000)],
    ['quoted assignments nested three deep, repeated', () => `token="a token='b token=\\"c\\" x' y" `.repeat(28_000)],
    ['one quoted value holding 1 MB of assignments', () => `secret = "${"token='x y' ".repeat(90_000)}"`],
    ['one quoted value holding 1 MB of unclosed assignments', () => `secret = "${"password='".repeat(100_000)}"`],
    // JSON-escaped PEM blocks
    ['escaped BEGIN lines without END', () => '-----BEGIN RSA PRIVATE KEY-----\\n'.repeat(30_000)],
    ['BEGIN then escaped base64 lines, no END', () => `-----BEGIN PRIVATE KEY-----\\n${`${fake2(B64, 64)}\\n`.repeat(15_000)}`],
    ['BEGIN then escaped slashes, no END', () => `-----BEGIN PRIVATE KEY-----\\n${'\\/'.repeat(500_000)}`],
    ['BEGIN then a 1 MB base64 line, repeated', () => `-----BEGIN PRIVATE KEY-----${fake2(B64, 200_000)}`.repeat(5)],
    ['BEGIN then gutter-only lines', () => `-----BEGIN PRIVATE KEY-----${'\n     1\t'.repeat(125_000)}`],
    ['BEGIN and gutter-only lines, repeated', () => `-----BEGIN PRIVATE KEY-----${'\n     1\t'.repeat(20)}`.repeat(5_000)],
    ['BEGIN then 200 base64 characters, repeated', () => `-----BEGIN PRIVATE KEY-----${fake2(B64, 200)}`.repeat(4_500)],
    // token formats with a repeated class
    ['ATATT3 repeated', () => 'ATATT3'.repeat(170_000)],
    ['ATATT3 then a 1 MB run', () => `ATATT3${'a-'.repeat(500_000)}`],
    ['dckr_pat_ repeated', () => 'dckr_pat_'.repeat(110_000)],
    ['fo1_ and fm2_ repeated', () => 'fo1_fm2_'.repeat(125_000)],
    ['fm2_ then 1 MB of base64', () => `fm2_${randomText(1_000_000, B64)}`],
    ['pscale_tkn_ repeated', () => 'pscale_tkn_.'.repeat(85_000)],
    ['pul- repeated', () => 'pul-'.repeat(250_000)],
    ['14 characters and .atlasv1. repeated', () => 'abcdefghijklmn.atlasv1.'.repeat(43_000)],
    ['.atlasv1. then a 1 MB run', () => `abcdefghijklmn.atlasv1.${'a'.repeat(1_000_000)}`],
    ['dt0c01. repeated', () => 'dt0c01.'.repeat(140_000)],
    ['sgp_ repeated', () => `sgp_${'a'.repeat(16)}_`.repeat(45_000)],
    ['CFPAT- repeated', () => 'CFPAT-'.repeat(170_000)],
    ['sq0csp- repeated', () => 'sq0csp-sq0atp-'.repeat(70_000)],
    ['EAAA repeated', () => 'EAAA'.repeat(250_000)],
    ['EAAA after every blank', () => `EAAA${'a'.repeat(60)} `.repeat(15_000)],
    ['Q~ shapes repeated', () => 'abc8Q~'.repeat(170_000)],
    ['Q~ shapes between blanks', () => `abc8Q~${'a.'.repeat(20)} `.repeat(21_000)],
    ['sk.eyJ repeated', () => 'sk.eyJ'.repeat(170_000)],
    ['sk.eyJ with one dot each, repeated', () => `sk.eyJ${'a'.repeat(12)}.`.repeat(50_000)],
    // the free-text rule: a keyword, a gap of words, a value
    ['token= repeated', () => 'token='.repeat(170_000)],
    ['token= repeated, then a code bracket', () => `${'token='.repeat(170_000)}(`],
    ['token then a 500-character run then (, repeated', () => `token ${'aB3'.repeat(170)}( `.repeat(1_900)],
    ['password is is is repeated', () => 'password is is is is '.repeat(50_000)],
    ['password for the x is, repeated', () => 'password for the x is '.repeat(45_000)],
    ['secret then a 1 MB run', () => `secret ${fake2(ALNUM, 1_000_000)}`],
    ['token:\n repeated', () => 'token:\n'.repeat(125_000)],
    ['api key then a token, repeated', () => `api key ${fake2(ALNUM, 40)} `.repeat(20_000)],
  ]

  it.each(adversarial)('%s', (_name, build) => {
    expect(timed(build())).toBeLessThan(BLOW_UP_MS)
  })
})

describe('redact: fuzz', () => {
  const FRAGMENTS = [
    'ghp_',
    'github_pat_',
    'glpat-',
    'sk-',
    'sk-ant-api03-',
    'xoxb-',
    'AKIA',
    'AIza',
    'eyJ',
    '.eyJ',
    'npm_',
    'hf_',
    'password',
    'passwd',
    'token',
    'api_key',
    'secret',
    'PASS',
    'pwd',
    '=',
    ':',
    ': ',
    '=>',
    ':=',
    '"',
    "'",
    '`',
    '\\"',
    '\\n',
    '\n',
    '\r\n',
    ' ',
    '\t',
    '-----BEGIN RSA PRIVATE KEY-----',
    '-----END RSA PRIVATE KEY-----',
    '-----BEGIN PGP PRIVATE KEY BLOCK-----',
    '://',
    '@',
    'https://',
    'postgres://u:',
    'Bearer ',
    'Basic ',
    'Authorization: ',
    '--password ',
    '--token=',
    '-u ',
    'login ',
    ' password ',
    '?sig=',
    '&token=',
    'AccountKey=',
    'hooks.slack.com/services/',
    '[REDACTED:jwt]',
    '[REDACTED:',
    ']',
    '${',
    '}',
    '<',
    '>',
    '(',
    ')',
    '[',
    '{',
    'é',
    '→',
    '\u{1F600}',
    '\uD800',
    '\uDC00',
    '\u0000',
    '==',
    '/',
    '+',
    '.',
    '_',
    '-',
    'ATATT3',
    'dckr_pat_',
    'fo1_',
    'fm2_',
    'pscale_tkn_',
    'pul-',
    '.atlasv1.',
    'dt0c01.',
    'sgp_',
    'CFPAT-',
    'sq0csp-',
    'EAAA',
    '8Q~',
    'sk.eyJ',
    '\\r\\n',
    '\\/',
    '-----BEGIN PRIVATE KEY-----\\n',
  ]

  it('never throws, always returns a string, and is idempotent', () => {
    const next = prng(7)
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T
    for (let n = 0; n < 3000; n++) {
      let text = ''
      const parts = 1 + Math.floor(next() * 40)
      for (let i = 0; i < parts; i++) {
        const roll = next()
        if (roll < 0.45) text += pick(FRAGMENTS)
        else if (roll < 0.8) text += fake(ALNUM, 1 + Math.floor(next() * 48))
        else text += String.fromCharCode(Math.floor(next() * 0x3000))
      }
      const once = redact(text)
      expect(typeof once).toBe('string')
      expect(redact(once)).toBe(once)
    }
  })

  it('cutRedacted is a prefix of redact, at most max long, and ends in no partial marker', () => {
    const next = prng(13)
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T
    for (let n = 0; n < 1000; n++) {
      let text = ''
      const parts = 1 + Math.floor(next() * 30)
      for (let i = 0; i < parts; i++) text += next() < 0.5 ? pick(FRAGMENTS) : fake2(ALNUM, 1 + Math.floor(next() * 48))
      const whole = redact(text)
      const max = Math.floor(next() * (whole.length + 10))
      const out = cutRedacted(text, max)
      expect(out.length).toBeLessThanOrEqual(max)
      expect(whole.startsWith(out)).toBe(true)
      // no marker of the redacted text straddles the cut
      for (const m of whole.matchAll(/\[REDACTED:[a-z-]+\]/g)) {
        expect(m.index < out.length && out.length < m.index + m[0].length).toBe(false)
      }
      // and, when cut, no `[REDACTED:` is left open at the end
      const open = out.lastIndexOf('[REDACTED:')
      if (out.length < whole.length && open !== -1) expect(out.indexOf(']', open)).not.toBe(-1)
    }
  })

  it('redactDeep never throws on random nested values', () => {
    const next = prng(11)
    const build = (depth: number): unknown => {
      const roll = next()
      if (depth > 6 || roll < 0.3) return fake(ALNUM + ' =:"', Math.floor(next() * 30))
      if (roll < 0.4) return Math.floor(next() * 100)
      if (roll < 0.45) return null
      if (roll < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => build(depth + 1))
      return Object.fromEntries(Array.from({ length: Math.floor(next() * 4) }, (_, i) => [`k${i}`, build(depth + 1)]))
    }
    for (let n = 0; n < 500; n++) {
      const value = build(0)
      expect(() => redactDeep(value)).not.toThrow()
    }
  })
})
