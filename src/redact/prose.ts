/**
 * Secrets in free text: a high-entropy token a few words after a word that names a secret, as a user types it
 * in a prompt (`my token is …`, `api key: …`, `the client secret '…'`, `password for prod → …`). gitleaks'
 * generic-api-key rule does this for assignments (a keyword, a short gap, an operator, a value of Shannon
 * entropy 3.5 or more); here the gap may also hold a few connecting words. The assignment rule has already
 * judged `token=…`; this one takes what has no operator, and judges the value by its shape alone.
 */

import { type SecretKind, type TextRule, marker, word } from './kinds.js'
import { PATH_LIKE, hasDigit, hasMixedCase, isJoinedWords, isPathOfWords, isPlaceholder, shannonEntropy } from './values.js'

/**
 * The words, each in its own group (its kind). Starts at a word start; `GITHUB_TOKEN` counts (`_` is no letter),
 * `accessToken`, `OAuth`, `author`, `tokenizer`, `terminal.Pwd`, `/auth`, `x-token` do not. Longer alternatives first.
 */
const KEYWORD =
  /(?<![A-Za-z0-9./\\$-])(?:(passw(?:or)?d|passphrase|pwd)|(api[ _-]?key|apikey)|(token|auth)|(secret[ _-]?access[ _-]?key|(?:secret|access|private)[ _-]?key|client[ _-]?secret|secret))s?(?![A-Za-z])/gi

const KINDS: readonly SecretKind[] = ['password', 'api-key', 'token', 'secret']

/** Words that may stand between the keyword and the value: `token is now`, `password for the`, `secret and`. */
const CONNECTORS = new Set([
  'is',
  'was',
  'are',
  'be',
  'now',
  'here',
  "here's",
  'set',
  'to',
  'as',
  'of',
  'for',
  'my',
  'your',
  'the',
  'our',
  'this',
  'value',
  'equals',
  'and',
  'new',
])
/** At most this many connecting words, and this many characters of gap in all. */
const MAX_WORDS = 4
const MAX_GAP = 48

/** Characters of a token; a password may also hold the symbols people put in passwords. */
const isTokenChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 43 || c === 47 || c === 61 || c === 95 || c === 46 || c === 126 || c === 45
const PASSWORD_SYMBOLS = new Set('!#$%&*?@^'.split('').map((c) => c.charCodeAt(0)))
const isPasswordChar = (c: number): boolean => isTokenChar(c) || PASSWORD_SYMBOLS.has(c)

/** Separators in the gap: `:`, `=`, `=>`, `->`, `→`, dashes, commas, Markdown emphasis, a closing quote. */
const GAP_PUNCTUATION = new Set([':', '=', '>', '-', '–', '—', '→', ',', '*', '"', "'", '`', '“', '”', '‘', '’'])
const OPENING_QUOTES = new Set(['"', "'", '`', '“', '‘'])

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const HEX = /^[0-9a-f]+$|^[0-9A-F]+$/
/** Ids of API objects that prompts and logs quote (`msg_01…`, `toolu_01…`, `req_011…`): names, not secrets. */
const OBJECT_ID = /^(?:msg|toolu|srvtoolu|req|call|run|thread|asst|batch|file|evt|chatcmpl|resp|sess|session)[_-]/
/** `github.com`, `config.yaml`, `v1.2.3`, `foo.bar.baz`: a name with dots. */
const DOTTED_NAME = /^[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{1,6}$|^v?\d+(?:\.\d+)+/

const MIN_TOKEN = 16
const MIN_PASSWORD = 10
const MAX_VALUE = 512
/** gitleaks' entropy floor for its generic rule; a random base62 run of 16 has ~3.7, a camelCase name ~3.3. */
const MIN_ENTROPY = 3.5

/**
 * Whether `value` reads as a secret with nothing but a keyword to go by: long, of mixed classes, of high entropy,
 * and none of the things that follow such words in code and tool output (paths, names, hashes, UUIDs, ids).
 * `explicit`: an `is`, `:` or `=` stood between (a 32+ hex run then counts: `my token is 3f78…`).
 */
function secretShaped(value: string, password: boolean, explicit: boolean): boolean {
  if (value.length > MAX_VALUE || value.length < (password ? MIN_PASSWORD : MIN_TOKEN)) return false
  if (isPlaceholder(value) || PATH_LIKE.test(value) || isPathOfWords(value) || UUID.test(value) || OBJECT_ID.test(value)) return false
  if (DOTTED_NAME.test(value) || isJoinedWords(value)) return false
  // a commit id, a digest: only when the text says outright that it is the secret
  if (HEX.test(value)) return explicit && value.length >= 32 && !/^\d+$/.test(value) && shannonEntropy(value) >= 3
  if (/(.)\1{4}/.test(value)) return false // `aaaaa`, `-----`, `=====`: filler
  const symbols = /[^A-Za-z0-9+/=_.~-]/.test(value)
  if (password && symbols) {
    const classes = (/[a-z]/.test(value) ? 1 : 0) + (/[A-Z]/.test(value) ? 1 : 0) + (hasDigit(value) ? 1 : 0) + 1
    return classes >= 3 && shannonEntropy(value) >= 3
  }
  if (value.length < MIN_TOKEN) return false
  const mixed = (hasDigit(value) && /[A-Za-z]/.test(value)) || (value.length >= 24 && hasMixedCase(value))
  return mixed && shannonEntropy(value) >= MIN_ENTROPY
}

/** The characters that a line break takes in the gap: a real one, or `\n` as JSON string text holds it. */
function lineBreakAt(text: string, at: number): number {
  const c = text[at]
  if (c === '\n') return 1
  if (c === '\r') return text[at + 1] === '\n' ? 2 : 1
  if (c === '\\' && (text[at + 1] === 'n' || text[at + 1] === 'r')) return 2
  return 0
}

interface Hit {
  start: number
  end: number
  kind: SecretKind
}

/**
 * The value after the keyword that ends at `from`, if one is there: skips blanks, one line break, separators and
 * up to MAX_WORDS connecting words (MAX_GAP characters in all), then takes the run of token characters.
 */
function valueAfter(
  text: string,
  from: number,
  password: boolean,
  last: { start: number; end: number },
): { start: number; end: number; explicit: boolean } | undefined {
  let at = from
  let words = 0
  let breaks = 0
  let explicit = false
  let owner = false
  const limit = Math.min(text.length, from + MAX_GAP)
  while (at < limit) {
    const c = text[at]!
    if (c === ' ' || c === '\t') {
      at++
      continue
    }
    const br = lineBreakAt(text, at)
    if (br > 0) {
      if (++breaks > 1) return undefined
      at += br
      continue
    }
    // a dash between words joins them (`token-plan`, `auth-friction`): no value follows
    if ((c === '-' || c === '–') && /\S/.test(text[at - 1] ?? ' ') && /\S/.test(text[at + 1] ?? ' ')) return undefined
    if (GAP_PUNCTUATION.has(c)) {
      // an opening quote right before the value is not gap: the value starts after it either way
      if (c === ':' || c === '=') explicit = true
      at++
      continue
    }
    // a connecting word, whole; after `for`/`of`, one word of any kind (`password for the db is`)
    let end = at
    while (end < text.length && end - at < 16 && /[A-Za-z0-9']/.test(text[end]!)) end++
    if (end === at || end - at >= 16 || /[\w-]/.test(text[end] ?? ' ')) break
    const w = text.slice(at, end).toLowerCase()
    if (CONNECTORS.has(w)) {
      if (w === 'is' || w === 'equals') explicit = true
      if (w === 'for' || w === 'of') owner = true
    } else if (owner) owner = false
    else break
    if (++words > MAX_WORDS) return undefined
    at = end
  }
  if (at >= text.length) return undefined
  // glued to the keyword (`secrets.X`, `token_id`, `auth/`): a name or a path, not a value after a word
  if (at === from) return undefined
  const start = at
  // inside the run taken last (`token=token=…`): a suffix of it, not looked at again (that would be quadratic)
  if (start > last.start && start < last.end) return undefined
  const inClass = password ? isPasswordChar : isTokenChar
  let end = start
  while (end < text.length && end - start <= MAX_VALUE && inClass(text.charCodeAt(end))) end++
  // a sentence's full stop, or an ellipsis, is not part of the value
  while (end > start && text[end - 1] === '.') end--
  last.start = start
  last.end = end
  if (end === start || !/[A-Za-z0-9!#$%&*?@^]/.test(text[start]!)) return undefined
  // a value glued to what follows (`abc123…(x)`, `key[0]`) is code
  const next = text[end]
  if (next !== undefined && (next === '(' || next === '[' || next === '{')) return undefined
  const before = text[start - 1]
  if (before !== undefined && OPENING_QUOTES.has(before)) {
    // quoted: the quote must close right after the value
    const close = text[end]
    if (close !== before && !(before === '“' && close === '”') && !(before === '‘' && close === '’')) return undefined
  }
  return { start, end, explicit }
}

function redactProseSecrets(text: string): string {
  const hits: Hit[] = []
  const last = { start: -1, end: -1 }
  KEYWORD.lastIndex = 0
  for (let m = KEYWORD.exec(text); m !== null; m = KEYWORD.exec(text)) {
    const group = m[1] !== undefined ? 0 : m[2] !== undefined ? 1 : m[3] !== undefined ? 2 : 3
    const password = group === 0
    const value = valueAfter(text, m.index + m[0].length, password, last)
    if (value === undefined) continue
    if (secretShaped(text.slice(value.start, value.end), password, value.explicit)) hits.push({ ...value, kind: KINDS[group]! })
  }
  if (hits.length === 0) return text
  let out = ''
  let copied = 0
  for (const hit of hits) {
    out += text.slice(copied, hit.start) + marker(hit.kind)
    copied = hit.end
  }
  return out + text.slice(copied)
}

/** Runs after the other text rules, which leave markers where they found a more specific secret. */
export const PROSE_RULE: TextRule = {
  needles: [word('pass', true), word('pwd', true), word('secret', true), word('token', true), word('key', true), word('auth', true)],
  apply: redactProseSecrets,
}
