/** Value heuristics shared by the rules: placeholders, code, random-looking runs. */

const PLACEHOLDER_WORDS = new Set([
  'null',
  'none',
  'nil',
  'undefined',
  'true',
  'false',
  'yes',
  'no',
  'on',
  'off',
  'string',
  'str',
  'number',
  'int',
  'integer',
  'bool',
  'boolean',
  'any',
  'unknown',
  'object',
  'bytes',
  'text',
  'varchar',
  'char',
  'secretstr',
  'optional',
  'required',
  'default',
  'hidden',
  'masked',
  'redacted',
  'removed',
  'empty',
  'env',
  'secret',
  'secrets',
  'password',
  'passwd',
  'passphrase',
  'pwd',
  'pass',
  'token',
  'tokens',
  'key',
  'apikey',
  'api_key',
  'api-key',
  'changeme',
  'change_me',
  'change-me',
  'changeit',
  'todo',
  'tbd',
  'fixme',
  'n/a',
  'value',
  'test',
  'testing',
  'dummy',
  'fake',
  'sample',
  'example',
  'placeholder',
  'inherit',
  'auto',
  'prompt',
  'stdin',
  'ask',
  'omitted',
  'sensitive',
  'private',
])

const PLACEHOLDER_SHAPE = /^(?:\[REDACTED|[$%<{[]|@\w|:\w|\?$)|\*{3}|x{4}|(?:^|[_.-])x{3}(?:$|[_.-])|•|\.{3}|…|\$\{|\{\{|example|changeme|placeholder|redacted/i
const PLACEHOLDER_AFFIX = /^(?:your|my|enter|insert|put|replace|some|fake|dummy|sample|test)[\s_-]|[\s_-]here$/i

/** Values that stand for a secret rather than being one: `<your-token>`, `${VAR}`, `****`, `changeme`... */
export function isPlaceholder(value: string): boolean {
  const v = value.trim()
  if (v.length === 0) return true
  if (PLACEHOLDER_SHAPE.test(v) || PLACEHOLDER_AFFIX.test(v)) return true
  if (PLACEHOLDER_WORDS.has(v.toLowerCase())) return true
  return sameCharRepeated(v)
}

function sameCharRepeated(v: string): boolean {
  for (let i = 1; i < v.length; i++) if (v[i] !== v[0]) return false
  return true
}

export const PATH_LIKE = /^(?:~|\.{1,2})?\/|^[A-Za-z]:[\\/]|^\.{1,2}$/
const MEMBER_ACCESS = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+$/
export const BARE_WORD = /^[A-Za-z_]+$/

/** An unquoted value that is code, not a literal: a call, an index, a member access, a decorator... */
export function isCodeExpression(v: string): boolean {
  return /[()[\]{}]/.test(v) || MEMBER_ACCESS.test(v) || /^[@:?=&|<>-]/.test(v)
}

/** Opaque-token test for values with no prefix to go by: a long run of mixed character classes. */
export function looksRandom(v: string, minRun = 16): boolean {
  let run = 0
  let classes = 0
  for (let i = 0; i <= v.length; i++) {
    const c = i < v.length ? v.charCodeAt(i) : 0
    const cls = c >= 48 && c <= 57 ? 1 : c >= 65 && c <= 90 ? 2 : c >= 97 && c <= 122 ? 4 : 0
    if (cls !== 0) {
      run++
      classes |= cls
      continue
    }
    if (run >= minRun && (classes === 3 || classes === 5 || classes === 6 || classes === 7)) return true
    run = 0
    classes = 0
  }
  return false
}

export function hasDigit(v: string): boolean {
  return /\d/.test(v)
}

export function hasMixedCase(v: string): boolean {
  return /[a-z]/.test(v) && /[A-Z]/.test(v)
}

/** `Bearer x`, `https://<user>@` with no other context: only opaque, token-looking values count. */
export function tokenish(v: string): boolean {
  if (v.length < 8 || isPlaceholder(v)) return false
  if (hasDigit(v) && /[A-Za-z]/.test(v)) return true
  return v.length >= 24 && hasMixedCase(v)
}

/** Shannon entropy of `v` in bits per character (a random base62 run of 16: ~3.7; of 40: ~5; a 40-hex SHA: ~3.8). */
export function shannonEntropy(v: string): number {
  const counts = new Map<number, number>()
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i)
    counts.set(c, (counts.get(c) ?? 0) + 1)
  }
  let bits = 0
  for (const n of counts.values()) {
    const p = n / v.length
    bits -= p * Math.log2(p)
  }
  return bits
}

/** A part of a name: a word (`src`, `Secret`, `SecretsView12`, `Uint8ClampedArray`), an acronym, a number. */
const NAME_PART = /^(?:[A-Za-z][a-z]*(?:\d*[A-Z][a-z]+)*\d*|[A-Z]+\d*|\d+)$/

/**
 * `src/components/SecretPanel/View12.tsx`: a path of two or more segments that read as words. A base64 secret
 * has slashes too, but its segments mix cases at random (`wJalrXUtnFEMI`, `bPxRfiCY`).
 */
export function isPathOfWords(run: string): boolean {
  if (!run.includes('/')) return false
  let words = 0
  for (const segment of run.split('/')) {
    const name = segment.replace(/\.[A-Za-z0-9]{1,5}$/, '')
    if (name.length >= 3 && NAME_PART.test(name)) words++
  }
  return words >= 2
}

/** `refresh_token_v2`, `KEYCLOAK_CLIENT_SECRET`, `my-api-key.json`, `HttpClient`: words joined, not a secret. */
export function isJoinedWords(run: string): boolean {
  const parts = run.split(/[-_./]+/).filter((p) => p !== '')
  return parts.length > 0 && parts.every((p) => NAME_PART.test(p))
}
