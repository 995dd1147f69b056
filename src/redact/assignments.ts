/**
 * Assignments: `KEY=value`, `"key": "value"`, `key: value`, `$env:KEY = "value"`, `password: str = "value"`.
 */

import { type SecretKind, marker } from './kinds.js'
import { BARE_WORD, PATH_LIKE, isCodeExpression, isPlaceholder } from './values.js'

/** Key endings that name a secret. `pass` and `pwd` get extra checks in `keyKind`. */
export const SENSITIVE =
  'passw(?:or)?d|passphrase|pass|pwd|secret|token|secret[_.-]?key[_.-]?base' +
  '|(?:api|app|application|access|private|secret|auth|signing|encryption|master|account|sas)[_.-]?key' +
  '|private[_.-]?key[_.-]?id'

/** Every alternative of SENSITIVE contains one of these words: a text without any of them has no assignment to judge. */
export const SENSITIVE_WORDS: readonly string[] = ['pass', 'pwd', 'secret', 'token', 'key']

/**
 * Starts at the sensitive ending of the key (a literal alternation is quick to scan for); the callback reads the
 * rest of the key backwards. Starting at the key's first character instead costs a scan of every identifier.
 */
export const ASSIGNMENT = new RegExp(
  '(' +
    `(${SENSITIVE})` +
    '(?:\\\\?["\'])?[ \\t]*' + // closing quote of the key, maybe JSON-escaped
    '(?:=>|:=|=(?![=>~])' + // separators; then `password: str = "..."`; then `:` (not `::`, `:/`)
    '|:[ \\t]*(?:Optional\\[str\\]|SecretStr|str|string|String|bytes)\\??[ \\t]*=(?![=>])|:(?![:=/]|\\\\(?!")))' +
    '[ \\t]*)' +
    '(?:"((?:[^"\\\\\\r\\n]|\\\\.)*)"' + // "double"
    "|'((?:[^'\\\\\\r\\n]|\\\\.)*)'" + // 'single'
    '|\\\\"((?:[^"\\\\\\r\\n]|\\\\[^"\\r\\n])*)\\\\"' + // \"escaped\" (JSON inside a string)
    '|(["\'`]?)([^\\s"\'`,;&|)}\\]\\\\]+))', // unquoted (maybe after an unterminated quote)
  'gi',
)

const SENSITIVE_KEY = new RegExp(`(?:${SENSITIVE})$`, 'i')
/** Tokenizer vocab entries, pagination cursors, counters: keys that end in "token" without holding one. */
const TOKEN_KEY_NOT_SECRET = new RegExp(
  '(?:^|[_.-])(?:eos|bos|pad|unk|sep|cls|mask|special|start|end|stop|next|page|continuation|cancellation|cancel' + '|sync|max|min|num|total|count)[_.-]?token$',
  'i',
)
/** Owners that make `..._pass` a password (`DB_PASS`, `smtpPass`); `bypass`, `first_pass` and `PASS:` are not. */
const PASS_PREFIXES = new RegExp(
  '(?:^|[_.-])(?:db|database|user|admin|root|smtp|mail|email|ftp|sftp|sql|mysql|pg|postgres|redis|proxy|ldap' +
    '|auth|login|basic|http|wifi|vpn|ssh|sudo|vault|keystore|store|key)[_.-]?pass$',
  'i',
)

/**
 * The kind a key name calls for, or undefined when the name is not really about a secret.
 * `equals` says the separator was `=` (`pwd=` in a connection string, unlike `"pwd": "osc99"` in a prompt config).
 */
export function keyKind(key: string, equals: boolean): SecretKind | undefined {
  const bare = key.replace(/^-+/, '')
  if (!SENSITIVE_KEY.test(bare)) return undefined
  const lower = bare.toLowerCase()
  const isFlag = key.startsWith('--')
  if (/passw(?:or)?d$|passphrase$/.test(lower)) return 'password'
  if (lower.endsWith('pass')) {
    // `--- PASS: TestX`, `bypass:`, `first_pass`: only a flag or a known owner (`DB_PASS`, `smtpPass`) counts
    if (isFlag) return 'password'
    if (lower === 'pass') return undefined
    return PASS_PREFIXES.test(bare) ? 'password' : undefined
  }
  if (lower.endsWith('pwd')) {
    if (lower === 'oldpwd' || bare === 'PWD') return undefined // the shell's working directory
    if (lower === 'pwd') return isFlag || equals ? 'password' : undefined
    return /[_.-]pwd$|[a-z]Pwd$/.test(bare) ? 'password' : undefined
  }
  if (lower.endsWith('token')) return TOKEN_KEY_NOT_SECRET.test(bare) ? undefined : 'token'
  if (/secret[_.-]?access[_.-]?key$/.test(lower)) return 'aws-secret-access-key'
  if (/(?:api|app|application)[_.-]?key$/.test(lower)) return 'api-key'
  return 'secret'
}

/** Values of a sensitive key that are not secrets themselves. */
export function isNonSecretValue(value: string, key: string, quoted: boolean, equals: boolean): boolean {
  if (isPlaceholder(value) || PATH_LIKE.test(value)) return true
  const lower = value.toLowerCase()
  const keyLower = key.replace(/^-+/, '').toLowerCase()
  // password=password, self.token = token
  if (lower === keyLower || keyLower.endsWith(`_${lower}`) || keyLower.endsWith(`.${lower}`)) return true
  if (quoted) {
    // A quoted value is a literal, words included (`"correct horse battery staple"`, `"hunter two"`), unless it
    // reads as a label or a message about the secret: "Enter your password", "not persisted".
    if (!/\s/.test(value)) return false
    return /pass|token|secret|key|credential/i.test(value) || (!/passphrase$/i.test(key) && PROSE_WORD.test(value))
  }
  if (value.length < 3 || isCodeExpression(value)) return true
  if (/^\d{1,5}$|^\d+\.\d+$/.test(value)) return true
  // Env names (`DB_PASSWORD=postgres`) and flags take literals; elsewhere `password = pwd` is code,
  // and `privateKey: Uint8Array` is a type annotation.
  if (key.startsWith('--') || !/[a-z]/.test(key)) return false
  return BARE_WORD.test(value) || (!equals && looksLikeTypeName(value))
}

/**
 * Words that make a quoted value a sentence rather than a passphrase: function words, which random-word
 * passphrases rarely hold and messages nearly always do.
 */
const PROSE_WORD =
  /(?:^|\s)(?:not|no|is|are|was|be|been|will|would|can|cannot|must|should|the|to|of|for|in|on|at|by|with|from|your|you|this|that|it|if|when|please|here|there|and|or|a|an)(?=\s|[.,:;!?]|$)/i

/**
 * `Uint8Array`, `CryptoKey`, `Option<String>`, `Buffer[]`; not `RUTLa2zNZ1a9VeZ1JL3r` (digits, capitals) nor
 * `ZeeCmOiBETzdj3dlBBv1uGhi` (no word structure: `Cm`, `Tzdj`, `3dl`).
 */
function looksLikeTypeName(value: string): boolean {
  if (value.length > 60) return false // also keeps the suffix regex below from rescanning a long `<<<<` run
  const name = value.replace(/(?:<[\w, <>]*>|\[\])$/, '')
  if (name.length > 40 || !/^[A-Z][A-Za-z0-9_]*$/.test(name)) return false
  let upper = 0
  let lower = 0
  let digits = 0
  for (const c of name) {
    if (c >= 'A' && c <= 'Z') upper++
    else if (c >= 'a' && c <= 'z') lower++
    else if (c >= '0' && c <= '9') digits++
  }
  if (digits > 2 || lower < upper) return false
  if (digits > 0 && name.length > 24) return false // long and with digits: random, whatever its shape
  return hasWordStructure(name)
}

/** Two-letter words that type names use (`IdToken`, `IoRedis`, `EcKey`, `Md5Hash`). */
const SHORT_WORDS = new Set([
  'Id',
  'Io',
  'Db',
  'Ui',
  'Os',
  'Fs',
  'Js',
  'Ts',
  'Ok',
  'Op',
  'Tx',
  'Rx',
  'Ip',
  'Vm',
  'Qr',
  'Gc',
  'Ec',
  'Ed',
  'Pg',
  'Fn',
  'Md',
  'Rc',
  'Ws',
  'Ng',
  'Xy',
  'Is',
  'Of',
  'To',
  'By',
  'In',
  'On',
  'At',
  'Or',
  'No',
  'Up',
  'As',
  'If',
  'It',
  'Do',
  'Go',
  'My',
  'Me',
  'We',
  'An',
  'Be',
  'So',
  'Us',
  'Ex',
  'Re',
])

/** Words without a vowel that type names use (`HttpClient`, `JwtSecret`, `SecretStr`). */
const VOWELLESS_WORDS = new Set([
  'Http',
  'Https',
  'Html',
  'Grpc',
  'Smtp',
  'Mqtt',
  'Sftp',
  'Xmpp',
  'Pkcs',
  'Nntp',
  'Jwks',
  'Csrf',
  'Xsrf',
  'Hkdf',
  'Pbkdf',
  'Str',
  'Jwt',
  'Jwk',
  'Ssh',
  'Gpg',
  'Pgp',
  'Xml',
  'Rng',
  'Std',
  'Dns',
  'Tls',
  'Ssl',
  'Rpc',
  'Sql',
  'Xhr',
  'Crl',
  'Csr',
  'Pfx',
  'Txt',
  'Cfg',
  'Ctx',
  'Msg',
  'Req',
  'Res',
  'Src',
  'Dst',
  'Fmt',
  'Buf',
  'Ptr',
  'Vec',
  'Cmd',
  'Pwd',
  'Tmp',
  'Hsm',
  'Pkg',
  'Mgr',
  'Svc',
  'Ttl',
  'Pdf',
  'Png',
  'Svg',
  'Css',
  'Sdk',
  'Wss',
  'Mtx',
  'Kms',
  'Kdf',
  'Mfa',
  'Otp',
  'Tpm',
  'Crc',
  'Nft',
  'Rtc',
  'Cdn',
  'Dkim',
  'Spf',
  'Sdp',
  'Bls',
])

/**
 * CamelCase made of words: capitalised words that read as words (a vowel, no run of four consonants), acronyms
 * (at most two), one group of digits. A random mixed-case value breaks one of these rules almost always
 * (`Cm` and `Oi`, `Tzdj`, `3dl` after a digit); of random 12-character values that pass the counts above, ~3% pass.
 */
function hasWordStructure(name: string): boolean {
  const words = name.match(/[A-Z]+(?![a-z])|[A-Z][a-z]+|[a-z]+|\d+/g) ?? []
  let digitGroups = 0
  let acronyms = 0
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? ''
    const c = word.charCodeAt(0)
    if (c >= 48 && c <= 57) {
      if (++digitGroups > 1) return false
    } else if (c >= 97) {
      // lowercase after a digit or `_`: only a one-letter suffix (`Blake2b`)
      if (word.length > 1 || i !== words.length - 1) return false
    } else if (word.length === 1 || !/[a-z]/.test(word)) {
      if (++acronyms > 2) return false
    } else if (word.length === 2) {
      if (!SHORT_WORDS.has(word)) return false
    } else if (!VOWELLESS_WORDS.has(word)) {
      if (!/[aeiouy]/i.test(word) || /[^aeiouy]{4}/i.test(word.replace(/ngth|tch|sch/g, 'a'))) return false
    }
  }
  return true
}

export function replaceAssignment(
  match: string,
  head: string,
  ending: string,
  dq: string | undefined,
  sq: string | undefined,
  edq: string | undefined,
  openQuote: string | undefined,
  bare: string | undefined,
  offset: number,
  text: string,
): string {
  const key = keyBefore(text, offset) + ending
  const equals = /^[^:]*=/.test(head.slice(ending.length))
  const kind = keyKind(key, equals)
  // A quoted value that stays is still searched for assignments of its own (`X = "aws_secret_access_key = ..."`,
  // a .env line quoted in code): the match has consumed it, so the global scan would not see them. Quotes nest
  // at most three deep (`"...'...\\"...\\"...'..."`), so this stays linear.
  const kept = (value: string, quote: string): string => `${head}${quote}${redactNestedAssignments(value)}${quote}`
  if (dq !== undefined) return kind === undefined || isNonSecretValue(dq, key, true, equals) ? kept(dq, '"') : `${head}"${marker(kind)}"`
  if (sq !== undefined) return kind === undefined || isNonSecretValue(sq, key, true, equals) ? kept(sq, "'") : `${head}'${marker(kind)}'`
  if (edq !== undefined) {
    return kind === undefined || isNonSecretValue(edq, key, true, equals) ? kept(edq, '\\"') : `${head}\\"${marker(kind)}\\"`
  }
  if (kind === undefined || bare === undefined) return match
  // after an unterminated quote or a Markdown backtick: judged like an unquoted value
  return isNonSecretValue(bare, key, false, equals) ? match : `${head}${openQuote ?? ''}${marker(kind)}`
}

function redactNestedAssignments(value: string): string {
  return value.includes('=') || value.includes(':') ? value.replace(ASSIGNMENT, replaceAssignment) : value
}

const MAX_KEY_PREFIX = 128

/** The identifier characters (`[A-Za-z0-9_.-]`) right before `end`, at most MAX_KEY_PREFIX of them. */
function keyBefore(text: string, end: number): string {
  let start = end
  while (start > 0 && end - start < MAX_KEY_PREFIX && /[\w.-]/.test(text[start - 1] ?? '')) start--
  return text.slice(start, end)
}
