/**
 * Secret redaction, applied by the store to everything it writes and by restore to everything it injects.
 *
 * Pure: no fs, no env, no clock. `redact` replaces each secret with `[REDACTED:<kind>]`; for assignments,
 * headers and URLs only the secret part is replaced so the text stays readable (`DB_PASSWORD=[REDACTED:password]`,
 * `postgres://app:[REDACTED:url-credentials]@db/prod`). Three families of rules, in this order:
 * - shapes: PEM private key blocks and tokens with a known prefix (`ghp_`, `sk-ant-`, `AKIA`, JWTs...);
 * - context: credentials in URLs, `Authorization` headers, `Bearer`/`Basic`, signed URL parameters;
 * - names: the value of a key that names a secret (`password=`, `"api_key": "..."`, `--token x`), unless the
 *   value is a placeholder (`<your-token>`, `${VAR}`, `****`) or code (`process.env.X`, `password: string`).
 *
 * Performance rules for every pattern here (this runs on every string we write, some of them megabytes):
 * - a pattern that starts with a repeated class starts with a negative lookbehind of that class, so the engine
 *   only tries it at the start of a run and a long run costs one scan, not one scan per position;
 * - no nested quantifiers over overlapping alternatives; repeated groups start with a separator that the
 *   preceding class cannot match;
 * - work that a regex would do quadratically (PEM blocks without an END) is done by a cursor loop.
 *
 * Idempotent: `redact(redact(x)) === redact(x)`. Every rule leaves values that start with `[REDACTED` alone, and
 * `redact` repeats its rules until the text stops changing.
 */

const KINDS = [
  'private-key',
  'url-credentials',
  'slack-webhook',
  'discord-webhook',
  'anthropic-key',
  'openai-key',
  'groq-key',
  'xai-key',
  'perplexity-key',
  'replicate-token',
  'github-token',
  'gitlab-token',
  'slack-token',
  'stripe-key',
  'google-api-key',
  'google-oauth-secret',
  'google-oauth-token',
  'npm-token',
  'pypi-token',
  'sendgrid-key',
  'twilio-key',
  'mailgun-key',
  'azure-key',
  'heroku-key',
  'doppler-token',
  'digitalocean-token',
  'huggingface-token',
  'shopify-token',
  'discord-token',
  'telegram-bot-token',
  'databricks-token',
  'linear-key',
  'postman-key',
  'grafana-token',
  'sentry-token',
  'newrelic-key',
  'notion-token',
  'supabase-token',
  'vault-token',
  'age-secret-key',
  'atlassian-token',
  'docker-token',
  'flyio-token',
  'planetscale-token',
  'pulumi-token',
  'terraform-token',
  'dynatrace-token',
  'sourcegraph-token',
  'contentful-token',
  'square-token',
  'azure-client-secret',
  'mapbox-token',
  'aws-access-key-id',
  'aws-secret-access-key',
  'jwt',
  'bearer-token',
  'basic-auth',
  'auth-header',
  'url-signature',
  'password',
  'token',
  'api-key',
  'secret',
] as const

export type SecretKind = (typeof KINDS)[number]

/** Every kind `redact` can emit, in the order the rules run. */
export const SECRET_KINDS: readonly string[] = KINDS

/** What `redactDeep` puts in place of a value nested deeper than its depth cap. */
export const TOO_DEEP_MARKER = '[REDACTED:too-deep]'

const MAX_DEPTH = 100

const marker = (kind: SecretKind): string => `[REDACTED:${kind}]`

export function redact(text: string): string {
  return redactFully(text).out
}

/** `redact(text)`, and whether that is a fixed point (redacting it again is known to change nothing). */
function redactFully(text: string): { out: string; fixed: boolean } {
  if (typeof text !== 'string' || text.length < 6) return { out: text, fixed: true }
  // Rules overlap: a match that one rule leaves alone can hide a secret that shows once another rule has put a
  // marker there. Repeating until nothing changes makes the result a fixed point, hence `redact` idempotent.
  // Text without secrets takes one pass; text with secrets usually two.
  let out = text
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const next = redactOnce(out)
    if (next === out) return { out, fixed: true }
    out = next
  }
  return { out, fixed: false }
}

const MAX_PASSES = 6

/** Characters of a token-looking run: base64 (plain and URL-safe), hex, `.`-joined parts, `%`-escapes. */
/** A run of token characters longer than this, cut in the middle, loses its cut end. */
const CUT_RUN_KEEP = 8

/**
 * `text` redacted, then cut to at most `max` characters (UTF-16 units). Redacting first means a cut can never
 * hide a secret from the rules (a PEM block cut before its END, `password=hun`); the cut then never ends inside
 * a `[REDACTED:kind]` marker (the whole marker goes), inside a surrogate pair, or inside a run of token
 * characters longer than 8 (the partial run goes: the head of a long unrecognised token is not kept).
 * For every place that shortens text before storing it.
 */
export function cutRedacted(text: string, max: number): string {
  return cutText(redact(text), max)
}

/**
 * `[cutRedacted(text, max), cutRedacted(cutRedacted(text, max), shorter)]`: a text kept whole and shortened. When
 * the first cut kept the whole redacted text and that was a fixed point, the second is only a cut.
 */
export function cutRedactedTwice(text: string, max: number, shorter: number): [string, string] {
  const { out, fixed } = redactFully(text)
  const whole = cutText(out, max)
  return [whole, fixed && whole === out ? cutText(out, shorter) : cutRedacted(whole, shorter)]
}

/** The cut of `cutRedacted`, on text already redacted. */
function cutText(out: string, max: number): string {
  if (out.length <= max) return out
  if (!(max > 0)) return ''
  let cut = Math.floor(max)
  // inside a word (a run without whitespace, where secrets live: `123456789:AA…`, `key=value`): drop the
  // partial word when the whole word is long, so no first characters of a secret stay behind
  if (cut > 0 && /\S/.test(out[cut - 1] ?? '') && /\S/.test(out[cut] ?? '')) {
    let start = cut
    while (start > 0 && /\S/.test(out[start - 1] ?? '')) start--
    let end = cut
    while (end < out.length && end - start <= CUT_RUN_KEEP && /\S/.test(out[end] ?? '')) end++
    // A word of normal length goes whole; in a very long run (minified code) the last 64 characters go.
    if (end - start > CUT_RUN_KEEP) cut = cut - start <= 256 ? start : cut - 64
  }
  // inside a marker, or inside its `[REDACTED:` head: cut before it; again while the text would still end in a
  // `[REDACTED:` without its `]` (one the input held as text). Each round scans only the span it cuts off.
  for (;;) {
    const open = cut > 0 ? out.lastIndexOf('[REDACTED:', cut - 1) : -1
    if (open === -1) break
    let closed = false
    for (let i = open + 1; i < cut && !closed; i++) closed = out.charCodeAt(i) === 0x5d // `]`
    if (closed) break
    cut = open
  }
  // never half a surrogate pair
  const last = out.charCodeAt(cut - 1)
  if (cut > 0 && last >= 0xd800 && last <= 0xdbff) cut--
  return out.slice(0, cut)
}

/**
 * False only when `cutRedacted(text, max)` cannot be `stored` for any `max`: a cheap test before redacting `text` just
 * to compare it with a stored result. Every rule keeps the text in front of the marker it puts in, so a redacted
 * text agrees with its source up to its first `[REDACTED:`, and a cut keeps a prefix. One rule rewrites blanks
 * (`Bearer<TAB>x` becomes `Bearer [REDACTED…]`): `text` must have its white space folded to single spaces.
 */
export function mayRedactTo(text: string, stored: string): boolean {
  const marker = stored.indexOf('[REDACTED:')
  return text.startsWith(marker === -1 ? stored : stored.slice(0, marker))
}

function redactOnce(text: string): string {
  let out = redactPrivateKeys(text)
  // The needles of a short text, found in one scan; they describe `scanned`, so once a rule has changed the text
  // the next ones are looked up in the new text. A long text is not scanned: it holds the hints anyway.
  const scanned = out
  const found = out.length < 4096 ? needlesIn(out) : undefined
  let lowerOf = ''
  let lower = ''
  const holds = (id: number): boolean => {
    if (found !== undefined && out === scanned) return found[id] === 1
    const needle = NEEDLES[id]!
    if (!needle.anyCase) return out.includes(needle.text)
    if (out !== lowerOf) {
      lowerOf = out
      lower = out.toLowerCase()
    }
    return lower.includes(needle.text)
  }
  for (const rule of TOKENS) {
    const hinted = found === undefined && !rule.hintAlways ? true : rule.hintIds.some(holds)
    if (hinted && (rule.requires === undefined || rule.requires(out))) out = out.replace(rule.re, rule.replace)
  }
  // Each rule below needs its words (the case-insensitive ones in any letter case): without them it cannot match.
  if (holds(NEEDLE.url)) out = out.replace(URL_CREDENTIALS, replaceUrlCredentials)
  if (holds(NEEDLE.authorization)) out = out.replace(AUTH_HEADER, replaceAuthHeader)
  if (holds(NEEDLE.bearer)) out = out.replace(BEARER, replaceBearer)
  if (holds(NEEDLE.basic)) out = out.replace(BASIC, replaceBasic)
  if (holds(NEEDLE.equals)) out = out.replace(URL_SIGNATURE, replaceUrlSignature)
  if (NEEDLE.sensitive.some(holds)) out = out.replace(ASSIGNMENT, replaceAssignment)
  if (holds(NEEDLE.flag)) out = out.replace(CLI_FLAG, replaceCliFlag)
  if (holds(NEEDLE.login) && holds(NEEDLE.password)) out = out.replace(NETRC, replaceNetrc)
  if (holds(NEEDLE.curlUser)) out = out.replace(CURL_USER, replaceCurlUser)
  return out
}

/**
 * A copy of `value` with every string value redacted; a string under a key that names a secret (`apiKey`,
 * `DB_PASSWORD`, `authorization`) is judged with that key (as written) as context. String keys of objects and Maps
 * are redacted too, by the same rules as text (`{"notes/ghp_...txt": ...}` is a path holding a token); two keys
 * that redact to the same text are both kept, the later ones suffixed ` (2)`, ` (3)`...
 * Arrays, plain objects, Maps and Sets are copied; other objects (Date, Buffer, class instances) are returned as
 * they are.
 * Shared references stay shared in the copy and cycles are reproduced, so the walk always ends; anything nested
 * deeper than 100 levels is replaced by `TOO_DEEP_MARKER` (fail closed: never written unredacted).
 */
export function redactDeep<T>(value: T, known?: KnownRedacted): T {
  return walk(value, 0, new Map(), { known, keys: new Map() }) as T
}

/**
 * What an earlier `redactDeep` already wrote, as found when reading it back (`knownRedacted`): a string
 * there, under the same key, comes out of redaction unchanged, so `redactDeep` skips it. A capture rewrites
 * its stored state after each turn; without this it would redact the whole session again every time.
 */
export interface KnownRedacted {
  /** Field values by key. */
  readonly fields: ReadonlyMap<string, ReadonlySet<string>>
  readonly keys: ReadonlySet<string>
  /** Strings that were items of a list. */
  readonly items: ReadonlySet<string>
}

/** The strings of `value`, a parsed file that `redactDeep` wrote (see KnownRedacted). */
export function knownRedacted(value: unknown): KnownRedacted {
  const fields = new Map<string, Set<string>>()
  const keys = new Set<string>()
  const items = new Set<string>()
  const visit = (v: unknown, depth: number): void => {
    if (v === null || typeof v !== 'object' || depth >= MAX_DEPTH) return
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

interface WalkContext {
  known: KnownRedacted | undefined
  /** Keys repeat in every record: each is redacted once per walk. */
  keys: Map<string, string>
}

function redactKey(key: string, ctx: WalkContext): string {
  let out = ctx.keys.get(key)
  if (out === undefined) {
    out = ctx.known?.keys.has(key) ? key : redact(key)
    ctx.keys.set(key, out)
  }
  return out
}

/**
 * A string under a key: redacted as text, and replaced whole when the key names a secret
 * (`{"apiKey": "..."}` in a tool input, `{"env": {"GITHUB_TOKEN": "..."}}` in a settings file).
 */
function redactField(key: string, value: string): string {
  const out = redact(value)
  if (out !== value) return out
  if (/^(?:proxy-)?authorization$/i.test(key)) {
    // `{"authorization": "Bearer abc"}`: judged as the header line it stands for
    const header = redact(`Authorization: ${value}`)
    return header.slice('Authorization: '.length)
  }
  const kind = keyKind(key, false)
  return kind === undefined || isNonSecretValue(value, key, true, false) ? out : marker(kind)
}

function walk(value: unknown, depth: number, copies: Map<object, unknown>, ctx: WalkContext): unknown {
  if (typeof value === 'string') return redact(value)
  if (value === null || typeof value !== 'object') return value
  const known = copies.get(value)
  if (known !== undefined) return known
  if (depth >= MAX_DEPTH) return TOO_DEEP_MARKER
  if (Array.isArray(value)) {
    const out: unknown[] = []
    copies.set(value, out)
    for (const item of value) out.push(typeof item === 'string' && ctx.known?.items.has(item) ? item : walk(item, depth + 1, copies, ctx))
    return out
  }
  if (value instanceof Map) {
    const out = new Map<unknown, unknown>()
    copies.set(value, out)
    const names = keyNames()
    for (const [key, item] of value) {
      const copy = typeof key === 'string' && typeof item === 'string' ? redactField(key, item) : walk(item, depth + 1, copies, ctx)
      out.set(typeof key === 'string' ? uniqueKey(redactKey(key, ctx), names) : key, copy)
    }
    return out
  }
  if (value instanceof Set) {
    const out = new Set<unknown>()
    copies.set(value, out)
    for (const item of value) out.add(walk(item, depth + 1, copies, ctx))
    return out
  }
  const proto: unknown = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return value
  const source = value as Record<string, unknown>
  const out: Record<string, unknown> = {}
  copies.set(value, out)
  const keys = Object.keys(source)
  const named = keys.map((key) => redactKey(key, ctx))
  // Keys of one object are distinct: they can only collide when redaction changed one of them.
  const names = named.some((name, i) => name !== keys[i]) ? keyNames() : undefined
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    const item = source[key]
    const name = names ? uniqueKey(named[i]!, names) : key
    const copy = typeof item === 'string' ? (ctx.known?.fields.get(key)?.has(item) ? item : redactField(key, item)) : walk(item, depth + 1, copies, ctx)
    // A JSON key named "__proto__" must stay a plain property: assignment would set the prototype.
    if (name === '__proto__') Object.defineProperty(out, name, { value: copy, enumerable: true, writable: true, configurable: true })
    else out[name] = copy
  }
  return out
}

/** Keys given out so far in one object, and the next suffix to try for each key that collided. */
interface KeyNames {
  used: Set<string>
  next: Map<string, number>
}

const keyNames = (): KeyNames => ({ used: new Set(), next: new Map() })

/**
 * `key`, or `key (2)`, `key (3)`... when an earlier key of the same object already took it: two keys that
 * redact to the same text both stay. Every name given out is recorded, so a later key that happens to read
 * `x (2)` is suffixed in turn rather than overwriting; `next` keeps n colliding keys at O(n), not O(n²).
 */
function uniqueKey(key: string, names: KeyNames): string {
  if (!names.used.has(key)) {
    names.used.add(key)
    return key
  }
  let n = names.next.get(key) ?? 2
  while (names.used.has(`${key} (${n})`)) n++
  const name = `${key} (${n})`
  names.next.set(key, n + 1)
  names.used.add(name)
  return name
}

// ---------------------------------------------------------------------------------------------------------------
// Value heuristics shared by the rules

const PLACEHOLDER_WORDS = new Set([
  'null', 'none', 'nil', 'undefined', 'true', 'false', 'yes', 'no', 'on', 'off',
  'string', 'str', 'number', 'int', 'integer', 'bool', 'boolean', 'any', 'unknown', 'object', 'bytes', 'text',
  'varchar', 'char', 'secretstr', 'optional', 'required', 'default', 'hidden', 'masked', 'redacted', 'removed',
  'empty', 'env', 'secret', 'secrets', 'password', 'passwd', 'passphrase', 'pwd', 'pass', 'token', 'tokens',
  'key', 'apikey', 'api_key', 'api-key', 'changeme', 'change_me', 'change-me', 'changeit', 'todo', 'tbd', 'fixme',
  'n/a', 'value', 'test', 'testing', 'dummy', 'fake', 'sample', 'example',
  'placeholder', 'inherit', 'auto', 'prompt', 'stdin', 'ask', 'omitted', 'sensitive', 'private',
])

const PLACEHOLDER_SHAPE =
  /^(?:\[REDACTED|[$%<{[]|@\w|:\w|\?$)|\*{3}|x{4}|(?:^|[_.-])x{3}(?:$|[_.-])|•|\.{3}|…|\$\{|\{\{|example|changeme|placeholder|redacted/i
const PLACEHOLDER_AFFIX = /^(?:your|my|enter|insert|put|replace|some|fake|dummy|sample|test)[\s_-]|[\s_-]here$/i

/** Values that stand for a secret rather than being one: `<your-token>`, `${VAR}`, `****`, `changeme`... */
function isPlaceholder(value: string): boolean {
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

const PATH_LIKE = /^(?:~|\.{1,2})?\/|^[A-Za-z]:[\\/]|^\.{1,2}$/
const MEMBER_ACCESS = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+$/
const BARE_WORD = /^[A-Za-z_]+$/

/** An unquoted value that is code, not a literal: a call, an index, a member access, a decorator... */
function isCodeExpression(v: string): boolean {
  return /[()[\]{}]/.test(v) || MEMBER_ACCESS.test(v) || /^[@:?=&|<>-]/.test(v)
}

/** Opaque-token test for values with no prefix to go by: a long run of mixed character classes. */
function looksRandom(v: string, minRun = 16): boolean {
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

function hasDigit(v: string): boolean {
  return /\d/.test(v)
}

function hasMixedCase(v: string): boolean {
  return /[a-z]/.test(v) && /[A-Z]/.test(v)
}

/** `Bearer x`, `https://<user>@` with no other context: only opaque, token-looking values count. */
function tokenish(v: string): boolean {
  if (v.length < 8 || isPlaceholder(v)) return false
  if (hasDigit(v) && /[A-Za-z]/.test(v)) return true
  return v.length >= 24 && hasMixedCase(v)
}

// ---------------------------------------------------------------------------------------------------------------
// PEM private key blocks (a cursor loop: a regex with a lazy body would rescan the text for every BEGIN)

const PEM_BEGIN = /-----BEGIN (?:[A-Z0-9]{1,20} ){0,5}PRIVATE KEY(?: BLOCK)?-----/g
const PEM_END = /-----END (?:[A-Z0-9]{1,20} ){0,5}PRIVATE KEY(?: BLOCK)?-----/g
/** Longest complete block we accept (a PGP key with several subkeys is ~10 kB). */
const PEM_MAX_BLOCK = 64 * 1024
/** Longest body we take when the END line is missing (truncated output such as `head id_rsa`). */
const PEM_MAX_TRUNCATED = 16 * 1024
/**
 * A line break inside a block: a real one, or the text of one as a JSON string holds it (`\n`, `\r\n`), or as
 * JSON inside a JSON string holds it (`\\n`).
 */
const PEM_BREAK = String.raw`(?:\r?\n|(?:\\{1,2}r)?\\{1,2}n)`
/** One base64 character; `\/` is a slash as JSON writers that escape slashes (PHP) put it. */
const PEM_B64 = String.raw`(?:[A-Za-z0-9+/=]|\\{1,2}/)`
/**
 * One body line of a truncated block: optional line-number gutter (`cat -n`, the Read tool), then base64 words
 * or an armor header (`Proc-Type: 4,ENCRYPTED`, `Comment: ...`), then a line break (captured). A line without a
 * break is the last one: the body stops there (`...\nMIIEv...` at the end of a JSON string, `ABC... (truncated)`).
 */
const PEM_LINE = new RegExp(
  String.raw`[ \t]*(?:\d{1,7}(?:\t|→))?[ \t]*(?:${PEM_B64}{1,128}(?: ${PEM_B64}{40,128})*` +
    String.raw`|[A-Za-z][A-Za-z-]{0,39}: [^\r\n\\]{0,200})?[ \t]*(${PEM_BREAK})?`,
  'y',
)
/** Blank lines, each maybe with its line-number gutter (`     2\t`): alternatives that start with different characters. */
const PEM_BLANKS = String.raw`(?:\s|\\{1,2}[nr]|\d{1,7}(?:\t|→))*`
/** Just after a BEGIN line: blank lines, armor headers, then a run of base64. */
const PEM_BODY_START = new RegExp(
  `${PEM_BLANKS}(?:[A-Za-z][A-Za-z-]{0,39}: [^\\r\\n\\\\]{0,200}${PEM_BREAK}${PEM_BLANKS}){0,8}${PEM_B64}{16}`,
  'y',
)
/** A base64 character (or the backslash of an escaped slash): a line that stops at one was cut by the 128 cap. */
const PEM_B64_START = /[A-Za-z0-9+/=\\]/

function redactPrivateKeys(text: string): string {
  if (!text.includes('PRIVATE KEY')) return text
  let out = ''
  let copied = 0
  let endAt = -1 // start of the next END line at or after the current block, -1 when not searched yet
  let endLen = 0
  let noMoreEnds = false
  PEM_BEGIN.lastIndex = 0
  for (let m = PEM_BEGIN.exec(text); m !== null; m = PEM_BEGIN.exec(text)) {
    const start = m.index
    const bodyStart = start + m[0].length
    if (!noMoreEnds && endAt < bodyStart) {
      PEM_END.lastIndex = bodyStart
      const end = PEM_END.exec(text)
      if (end === null) noMoreEnds = true
      else {
        endAt = end.index
        endLen = end[0].length
      }
    }
    // A key's body starts right away with base64; a header followed by `${key}` or `...` is a template.
    PEM_BODY_START.lastIndex = bodyStart
    if (!PEM_BODY_START.test(text)) continue
    const complete = !noMoreEnds && endAt >= bodyStart && endAt - bodyStart <= PEM_MAX_BLOCK
    const stop = complete ? endAt + endLen : truncatedBodyEnd(text, bodyStart)
    out += text.slice(copied, start) + marker('private-key')
    copied = stop
    PEM_BEGIN.lastIndex = stop
  }
  return copied === 0 ? text : out + text.slice(copied)
}

/** End of the last non-blank key-looking line after `from` (the line break after it is kept). */
function truncatedBodyEnd(text: string, from: number): number {
  const limit = Math.min(text.length, from + PEM_MAX_TRUNCATED)
  let pos = from
  let lastContentEnd = from
  while (pos < limit) {
    PEM_LINE.lastIndex = pos
    const line = PEM_LINE.exec(text)
    if (line === null || line[0].length === 0) break
    const lineBreak = line[1]
    const content = lineBreak === undefined ? line[0] : line[0].slice(0, line[0].length - lineBreak.length)
    const words = content.trimEnd()
    const end = pos + line[0].length
    // A short word, a blank, then more text on the same line: prose after the block (`thanks for looking`).
    const prose = lineBreak === undefined && words.trim().length < 16 && words.length < content.length && end < text.length
    if (!prose && words.trim().length > 0) lastContentEnd = pos + words.length
    pos = end
    // No line break: the body ends here, unless the line only stopped at the 128-character cap of a long line.
    if (lineBreak === undefined && (prose || !PEM_B64_START.test(text[pos] ?? ''))) break
  }
  return Math.min(lastContentEnd, limit)
}

// ---------------------------------------------------------------------------------------------------------------
// Credentials in URLs: keep scheme, user and host; replace the password (or a token used as the user)

/** Starts at the literal `://` (fast to scan for); the scheme in front of it is checked by the callback. */
const URL_CREDENTIALS = /:\/\/([^\s:/?#@"'`<>[\]{}|\\^]*)(?::([^\s/?#"'`<>\\]*))?@(?=[A-Za-z0-9[._-])/g

function replaceUrlCredentials(
  match: string,
  user: string,
  password: string | undefined,
  offset: number,
  text: string,
): string {
  if (!/[A-Za-z0-9]/.test(text[offset - 1] ?? '')) return match // no scheme: not a URL
  if (password === undefined) {
    return user.length >= 20 && tokenish(user) ? `://${marker('url-credentials')}@` : match
  }
  if (password.length === 0 || isPlaceholder(password)) return match
  return `://${user}:${marker('url-credentials')}@`
}

// ---------------------------------------------------------------------------------------------------------------
// Tokens recognisable by their own shape (prefix, length, alphabet), replaced whole

interface TokenRule {
  kind: SecretKind
  /** Substrings of which one must occur for the rule to run: a cheap skip for the many short strings. */
  hints: readonly string[]
  /** Regex source of the token, without capturing groups; starts with its own boundary lookbehind. */
  source: string
  /** Literal context kept in front of the token (`AccountKey=`); a group, so each rule starts with a literal. */
  before?: string
  /** Extra check on the matched token, for shapes that ordinary words could take. */
  accept?: (token: string) => boolean
  /**
   * Check the hints on long text too. For a rule that starts with a class (tried at every word start, ~50 ms on
   * 5 MB) and has a rare literal for a hint (one `includes` scan, ~1 ms).
   */
  hintAlways?: true
  /**
   * A test that holds wherever the pattern matches, much cheaper than the pattern (for one that starts with a class
   * and has only a common character for a hint); checked on every text, after the hints.
   */
  requires?: (text: string) => boolean
}

const W = '(?<![A-Za-z0-9_])' // starts a word
const WD = '(?<![A-Za-z0-9_-])' // starts a word, not after a dash
const NW = '(?![A-Za-z0-9_])' // ends a word
const NWD = '(?![A-Za-z0-9_-])'

/**
 * One regex per rule: V8 scans quickly for a pattern that starts with a literal, and loses that when 40
 * alternatives are joined (5 MB of random text: ~550 ms as one alternation, ~100 ms as separate regexes).
 */
const TOKEN_RULES: readonly TokenRule[] = [
  {
    kind: 'slack-webhook', hints: ['hooks.slack.com/'],
    before: 'hooks\\.slack\\.com/(?:services|workflows|triggers)/',
    source: '[A-Za-z0-9_/-]{8,}',
  },
  {
    kind: 'discord-webhook', hints: ['/api/webhooks/'],
    before: 'discord(?:app)?\\.com/api/webhooks/\\d{5,25}/',
    source: '[A-Za-z0-9_-]{20,}',
  },
  { kind: 'anthropic-key', hints: ['sk-ant-'], source: `${WD}sk-ant-[a-z]{2,10}\\d{0,3}-[A-Za-z0-9_-]{16,}` },
  { kind: 'openai-key', hints: ['sk-'], source: `${WD}sk-[A-Za-z0-9_-]{20,}`, accept: (t) => looksRandom(t) },
  { kind: 'groq-key', hints: ['gsk_'], source: `${W}gsk_[A-Za-z0-9]{40,}` },
  { kind: 'xai-key', hints: ['xai-'], source: `${WD}xai-[A-Za-z0-9]{60,}` },
  { kind: 'perplexity-key', hints: ['pplx-'], source: `${WD}pplx-[A-Za-z0-9]{40,}` },
  { kind: 'replicate-token', hints: ['r8_'], source: `${W}r8_[A-Za-z0-9]{30,}`, accept: (t) => looksRandom(t) },
  {
    kind: 'github-token', hints: ['gh', 'github_pat_'],
    source: `${W}(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})`,
  },
  {
    kind: 'gitlab-token', hints: ['gl'],
    source: `${WD}gl(?:pat|oas|dt|rt|rtr|cbt|ptt|ft|imt|agent|soat|ffct)-[A-Za-z0-9_-]{20,}(?:\\.[A-Za-z0-9_-]{2,})*`,
  },
  {
    kind: 'slack-token', hints: ['xox', 'xapp-'],
    source: `${WD}(?:xoxe\\.)?(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}`,
    accept: hasDigit,
  },
  {
    kind: 'stripe-key', hints: ['k_live_', 'k_test_', 'whsec_'],
    source: `${W}(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{20,})`,
  },
  { kind: 'google-api-key', hints: ['AIza'], source: `${W}AIza[0-9A-Za-z_-]{35}${NWD}` },
  { kind: 'google-oauth-secret', hints: ['GOCSPX-'], source: `${W}GOCSPX-[A-Za-z0-9_-]{20,}` },
  { kind: 'google-oauth-token', hints: ['ya29.'], source: `${W}ya29\\.[A-Za-z0-9_-]{20,}` },
  { kind: 'npm-token', hints: ['npm_'], source: `${W}npm_[A-Za-z0-9]{36,}` },
  { kind: 'pypi-token', hints: ['pypi-AgE'], source: `${W}pypi-AgE[A-Za-z0-9_-]{40,}` },
  { kind: 'sendgrid-key', hints: ['SG.'], source: `${W}SG\\.[A-Za-z0-9_-]{16,32}\\.[A-Za-z0-9_-]{16,64}${NWD}` },
  { kind: 'twilio-key', hints: ['SK'], source: `${W}SK[0-9a-fA-F]{32}${NW}` },
  { kind: 'mailgun-key', hints: ['key-'], source: `${WD}key-[0-9a-f]{32}${NWD}` },
  // Mailgun's newer private keys: 32-8-8 hex. Starts with a class, so it runs only where a `-` follows 32 hex.
  {
    kind: 'mailgun-key', hints: ['-'], source: `${WD}[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}${NWD}`,
    requires: (text) => runBefore(text, '-', 32, isLowerHex),
  },
  {
    kind: 'azure-key', hints: ['Key='],
    before: '(?:[Aa]ccount|SharedAccess)Key=',
    source: '[A-Za-z0-9+/]{20,}={0,2}',
  },
  { kind: 'heroku-key', hints: ['HRKU-'], source: `${W}HRKU-[A-Za-z0-9_-]{20,}` },
  { kind: 'doppler-token', hints: ['dp.'], source: `${W}dp\\.(?:st|sa|ct|pt|scim|audit)\\.[A-Za-z0-9_.-]{20,}` },
  { kind: 'digitalocean-token', hints: ['_v1_'], source: `${W}do[opr]_v1_[a-f0-9]{64}` },
  { kind: 'huggingface-token', hints: ['hf_'], source: `${W}hf_[A-Za-z0-9]{30,}`, accept: (t) => looksRandom(t) },
  { kind: 'shopify-token', hints: ['shp'], source: `${W}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}` },
  {
    kind: 'discord-token', hints: ['.'],
    requires: (text) => runBefore(text, '.', 24, isTokenChar),
    source: `(?<![A-Za-z0-9_.-])[MNO][A-Za-z0-9_-]{23,27}\\.[A-Za-z0-9_-]{6,7}\\.[A-Za-z0-9_-]{27,40}${NWD}`,
    accept: (t) => hasDigit(t.slice(0, t.indexOf('.'))) && hasMixedCase(t),
  },
  { kind: 'telegram-bot-token', hints: [':AA'], source: `(?<![A-Za-z0-9_:])\\d{8,10}:AA[A-Za-z0-9_-]{33}${NWD}` },
  { kind: 'databricks-token', hints: ['dapi'], source: `${W}dapi[0-9a-f]{32}(?:-\\d)?${NW}` },
  { kind: 'linear-key', hints: ['lin_'], source: `${W}lin_(?:api|oauth)_[A-Za-z0-9]{40,}` },
  { kind: 'postman-key', hints: ['PMAK-'], source: `${W}PMAK-[0-9a-f]{24}-[0-9a-f]{34}` },
  {
    kind: 'grafana-token', hints: ['glsa_', 'glc_'],
    source: `${W}(?:glsa_[A-Za-z0-9]{32}_[0-9a-f]{8}|glc_[A-Za-z0-9+/]{32,}={0,2})`,
  },
  { kind: 'sentry-token', hints: ['sntry'], source: `${W}sntry[su]_[A-Za-z0-9+/=_-]{40,}` },
  { kind: 'newrelic-key', hints: ['NRA'], source: `${WD}NRA[KI]-[A-Z0-9]{27}${NW}` },
  {
    kind: 'notion-token', hints: ['ntn_', 'secret_'],
    source: `${W}(?:ntn_[A-Za-z0-9]{40,}|secret_[A-Za-z0-9]{43}${NW})`,
  },
  { kind: 'supabase-token', hints: ['sbp_'], source: `${W}sbp_[a-f0-9]{40}` },
  { kind: 'vault-token', hints: ['hvs.', 'hvb.', 'hvr.'], source: `${W}hv[sbr]\\.[A-Za-z0-9_-]{24,}` },
  { kind: 'age-secret-key', hints: ['AGE-SECRET-KEY-1'], source: `${W}AGE-SECRET-KEY-1[0-9A-Z]{58}` },
  { kind: 'atlassian-token', hints: ['ATATT3'], source: `${W}ATATT3[A-Za-z0-9_=-]{100,}` },
  { kind: 'docker-token', hints: ['dckr_'], source: `${W}dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}` },
  {
    kind: 'flyio-token', hints: ['fo1_', 'fm1a_', 'fm1r_', 'fm2_'],
    source: `${W}(?:fo1_[A-Za-z0-9_-]{30,}|fm(?:1[ar]|2)_[A-Za-z0-9+/]{60,}={0,3})`,
  },
  { kind: 'planetscale-token', hints: ['pscale_'], source: `${W}pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_=.-]{32,}` },
  { kind: 'pulumi-token', hints: ['pul-'], source: `${WD}pul-[a-f0-9]{40}${NW}` },
  // `<14-character id>.atlasv1.<secret>`: starts with a class, so it needs its lookbehind (and its hint)
  {
    kind: 'terraform-token', hints: ['.atlasv1.'], hintAlways: true,
    source: `${W}[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{60,}`,
  },
  {
    kind: 'dynatrace-token', hints: ['dt0'],
    source: `dt0[a-z]\\d{2}\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64}${NW}`,
  },
  {
    kind: 'sourcegraph-token', hints: ['sgp_'],
    source: `sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}${NW}`,
  },
  { kind: 'contentful-token', hints: ['CFPAT-'], source: `CFPAT-[A-Za-z0-9_-]{40,}` },
  { kind: 'square-token', hints: ['sq0csp-', 'sq0atp-'], source: `${WD}sq0(?:csp-[A-Za-z0-9_-]{40,}|atp-[A-Za-z0-9_-]{22,})` },
  // `EAAA` + 60: exactly 64 characters that no base64 character touches (not a window of a base64 blob)
  {
    kind: 'square-token', hints: ['EAAA'],
    source: '(?<![A-Za-z0-9_+/=-])EAAA[A-Za-z0-9_-]{60}(?![A-Za-z0-9_+/=-])',
    accept: (t) => looksRandom(t),
  },
  // Entra ID (Azure AD) client secrets: 3 characters, a digit, `Q~`, 31 to 34 more (40 in all)
  {
    kind: 'azure-client-secret', hints: ['Q~'], hintAlways: true,
    source: '[A-Za-z0-9_~.]{3}\\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~-])',
    accept: hasMixedCase,
  },
  // secret (`sk.`) and temporary (`tk.`) tokens; public `pk.` tokens are meant to be published
  { kind: 'mapbox-token', hints: ['k.eyJ'], source: `[st]k\\.eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,}` },
  {
    kind: 'aws-access-key-id', hints: ['AKIA', 'ASIA', 'ABIA', 'ACCA'],
    source: `${W}(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}${NW}`,
  },
  { kind: 'jwt', hints: ['eyJ'], source: `${WD}eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*` },
]

/** Whether some `char` in `text` follows at least `run` characters that `inClass` accepts. */
function runBefore(text: string, char: string, run: number, inClass: (code: number) => boolean): boolean {
  for (let at = text.indexOf(char, run); at !== -1; at = text.indexOf(char, at + 1)) {
    let k = 1
    while (k <= run && inClass(text.charCodeAt(at - k))) k++
    if (k > run) return true
  }
  return false
}

/** `[0-9a-f]` */
function isLowerHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102)
}

/** `[A-Za-z0-9_-]` */
function isTokenChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45
}

interface CompiledTokenRule {
  hints: readonly string[]
  /** The hints' places in NEEDLES. */
  hintIds: readonly number[]
  hintAlways: boolean
  requires: ((text: string) => boolean) | undefined
  re: RegExp
  replace: (match: string, before: string, token: string) => string
}

/** Every hint of the token rules, once; their places here are their places in NEEDLES. */
const HINTS: readonly string[] = [...new Set(TOKEN_RULES.flatMap((rule) => rule.hints))]

const TOKENS: readonly CompiledTokenRule[] = TOKEN_RULES.map((rule) => ({
  hints: rule.hints,
  hintIds: rule.hints.map((hint) => HINTS.indexOf(hint)),
  hintAlways: rule.hintAlways === true,
  requires: rule.requires,
  re: new RegExp(`(${rule.before ?? ''})(${rule.source})`, 'g'),
  replace: (match: string, before: string, token: string): string => {
    if (token.startsWith('[REDACTED') || lowDiversity(token)) return match
    if (rule.accept !== undefined && !rule.accept(token)) return match
    return before + marker(rule.kind)
  },
}))

/** `ghp_xxxxxxxx...`, `sk-...EXAMPLE`: shaped like a token, obviously not one. */
function lowDiversity(token: string): boolean {
  if (/(.)\1{5}|EXAMPLE/.test(token)) return true
  return new Set(token).size < 8
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP authorization: headers with any scheme, then `Bearer <token>` / `Basic <b64>` anywhere

const AUTH_HEADER = new RegExp(
  '(?<![\\w-])((?:proxy-)?authorization\\\\?["\']?[ \\t]*[:=][ \\t]*(?:\\\\?["\'][ \\t]*)?)' + // name, maybe in JSON
    '(?:(bearer|basic|token|bot|apikey|api-key|key|sso-key|splunk)[ \\t]+)?' + // scheme
    '([^\\s"\'`,;\\\\]+)', // credentials
  'gi',
)

function replaceAuthHeader(match: string, head: string, scheme: string | undefined, value: string): string {
  if (isPlaceholder(value) || /[()]/.test(value)) return match
  // without a scheme: `Authorization: Digest username=...`, `authorization: required` (prose), `authorization: req.auth`
  if (scheme === undefined && (value.length < 4 || BARE_WORD.test(value) || isCodeExpression(value))) return match
  const lower = scheme?.toLowerCase()
  const kind: SecretKind = lower === 'bearer' ? 'bearer-token' : lower === 'basic' ? 'basic-auth' : 'auth-header'
  return `${head}${scheme === undefined ? '' : `${scheme} `}${marker(kind)}`
}

const BEARER = /(?<![\w-])(bearer[ \t]+)([A-Za-z0-9._~+/-]+=*)/gi

/** An opaque-looking token after `Bearer`; or any value when the quotes hold exactly `"Bearer <value>"`. */
function replaceBearer(match: string, head: string, value: string, offset: number, text: string): string {
  if (tokenish(value)) return `${head}${marker('bearer-token')}`
  const quote = text[offset - 1]
  const quoted = (quote === '"' || quote === "'" || quote === '`') && text[offset + match.length] === quote
  if (!quoted || value.length < 3 || isPlaceholder(value) || BEARER_PROSE.has(value.toLowerCase())) return match
  return `${head}${marker('bearer-token')}`
}

/** Words that follow "Bearer" in prose and docs (`"Bearer auth"`, `"Bearer JWT"`), not credentials. */
const BEARER_PROSE = new Set([
  'auth', 'authentication', 'authorization', 'scheme', 'header', 'headers', 'type', 'prefix', 'credentials', 'jwt',
  'oauth', 'access', 'only', 'format', 'realm', 'tokens',
])

const BASIC = /(?<![\w-])(basic[ \t]+)([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/gi

function replaceBasic(match: string, head: string, value: string): string {
  if (value.length % 4 !== 0 || !tokenish(value)) return match
  let decoded: string
  try {
    decoded = atob(value)
  } catch {
    return match
  }
  return decoded.includes(':') ? `${head}${marker('basic-auth')}` : match
}

// ---------------------------------------------------------------------------------------------------------------
// Signed URLs (Azure SAS, S3 and GCS presigned)

const URL_SIGNATURE =
  /([?&](?:sig|X-Amz-Signature|X-Amz-Security-Token|X-Goog-Signature|X-Goog-Credential)=)([^&#\s"'<>`]{8,})/gi

function replaceUrlSignature(match: string, head: string, value: string): string {
  return value.startsWith('[REDACTED') ? match : `${head}${marker('url-signature')}`
}

// ---------------------------------------------------------------------------------------------------------------
// Assignments: `KEY=value`, `"key": "value"`, `key: value`, `$env:KEY = "value"`, `password: str = "value"`

/** Key endings that name a secret. `pass` and `pwd` get extra checks in `keyKind`. */
const SENSITIVE =
  'passw(?:or)?d|passphrase|pass|pwd|secret|token|secret[_.-]?key[_.-]?base' +
  '|(?:api|access|private|secret|auth|signing|encryption|master|account|sas)[_.-]?key'

/** Every alternative of SENSITIVE contains one of these words: a text without any of them has no assignment to judge. */
export const SENSITIVE_WORDS: readonly string[] = ['pass', 'pwd', 'secret', 'token', 'key']

/**
 * Starts at the sensitive ending of the key (a literal alternation is quick to scan for); the callback reads the
 * rest of the key backwards. Starting at the key's first character instead costs a scan of every identifier.
 */
const ASSIGNMENT = new RegExp(
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
  '(?:^|[_.-])(?:eos|bos|pad|unk|sep|cls|mask|special|start|end|stop|next|page|continuation|cancellation|cancel' +
    '|sync|max|min|num|total|count)[_.-]?token$',
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
function keyKind(key: string, equals: boolean): SecretKind | undefined {
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
  if (/api[_.-]?key$/.test(lower)) return 'api-key'
  return 'secret'
}

/** Values of a sensitive key that are not secrets themselves. */
function isNonSecretValue(value: string, key: string, quoted: boolean, equals: boolean): boolean {
  if (isPlaceholder(value) || PATH_LIKE.test(value)) return true
  const lower = value.toLowerCase()
  const keyLower = key.replace(/^-+/, '').toLowerCase()
  // password=password, self.token = token
  if (lower === keyLower || keyLower.endsWith(`_${lower}`) || keyLower.endsWith(`.${lower}`)) return true
  if (quoted) {
    // a label or a message, not a credential: "Enter your password", "not persisted" (a passphrase may be words)
    if (!/\s/.test(value)) return false
    return /pass|token|secret|key|credential/i.test(value) || (!/passphrase$/i.test(key) && PROSE.test(value))
  }
  if (value.length < 3 || isCodeExpression(value)) return true
  if (/^\d{1,5}$|^\d+\.\d+$/.test(value)) return true
  // Env names (`DB_PASSWORD=postgres`) and flags take literals; elsewhere `password = pwd` is code,
  // and `privateKey: Uint8Array` is a type annotation.
  if (key.startsWith('--') || !/[a-z]/.test(key)) return false
  return BARE_WORD.test(value) || (!equals && looksLikeTypeName(value))
}

const PROSE = /^[A-Za-z]{1,15}(?: [A-Za-z]{1,15}){1,11}[.!]?$/

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
  'Id', 'Io', 'Db', 'Ui', 'Os', 'Fs', 'Js', 'Ts', 'Ok', 'Op', 'Tx', 'Rx', 'Ip', 'Vm', 'Qr', 'Gc', 'Ec', 'Ed', 'Pg',
  'Fn', 'Md', 'Rc', 'Ws', 'Ng', 'Xy', 'Is', 'Of', 'To', 'By', 'In', 'On', 'At', 'Or', 'No', 'Up', 'As', 'If', 'It',
  'Do', 'Go', 'My', 'Me', 'We', 'An', 'Be', 'So', 'Us', 'Ex', 'Re',
])

/** Words without a vowel that type names use (`HttpClient`, `JwtSecret`, `SecretStr`). */
const VOWELLESS_WORDS = new Set([
  'Http', 'Https', 'Html', 'Grpc', 'Smtp', 'Mqtt', 'Sftp', 'Xmpp', 'Pkcs', 'Nntp', 'Jwks', 'Csrf', 'Xsrf', 'Hkdf',
  'Pbkdf', 'Str', 'Jwt', 'Jwk', 'Ssh', 'Gpg', 'Pgp', 'Xml', 'Rng', 'Std', 'Dns', 'Tls', 'Ssl', 'Rpc', 'Sql', 'Xhr',
  'Crl', 'Csr', 'Pfx', 'Txt', 'Cfg', 'Ctx', 'Msg', 'Req', 'Res', 'Src', 'Dst', 'Fmt', 'Buf', 'Ptr', 'Vec', 'Cmd',
  'Pwd', 'Tmp', 'Hsm', 'Pkg', 'Mgr', 'Svc', 'Ttl', 'Pdf', 'Png', 'Svg', 'Css', 'Sdk', 'Wss', 'Mtx', 'Kms', 'Kdf',
  'Mfa', 'Otp', 'Tpm', 'Crc', 'Nft', 'Rtc', 'Cdn', 'Dkim', 'Spf', 'Sdp', 'Bls',
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

function replaceAssignment(
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

// ---------------------------------------------------------------------------------------------------------------
// Command lines: `--password hunter2`, `.netrc` lines, `curl -u user:pass`

const CLI_FLAG = new RegExp(
  `(?<![\\w-])(--((?:[\\w-]*[_-])?(?:${SENSITIVE}))[ \\t]+)` +
    '(?:"((?:[^"\\\\\\r\\n]|\\\\.)*)"|\'([^\'\\r\\n]*)\'|([^\\s"\'`;&|<>-][^\\s"\'`;&|<>]*))',
  'gi',
)

function replaceCliFlag(
  match: string,
  head: string,
  name: string,
  dq: string | undefined,
  sq: string | undefined,
  bare: string | undefined,
): string {
  const kind = keyKind(`--${name}`, false)
  const value = dq ?? sq ?? bare
  if (kind === undefined || value === undefined || isPlaceholder(value) || PATH_LIKE.test(value)) return match
  if (bare !== undefined && isCodeExpression(value)) return match
  const quote = dq !== undefined ? '"' : sq !== undefined ? "'" : ''
  return `${head}${quote}${marker(kind)}${quote}`
}

const NETRC = /(?<![\w-])(login\s+\S+\s+password\s+)(\S+)/g

function replaceNetrc(match: string, head: string, value: string): string {
  return isPlaceholder(value) ? match : `${head}${marker('password')}`
}

const CURL_USER = /(?<![\w-])((?:-u|--user)[ \t]+["']?[^\s:"'[\]]+:)([^\s"'@]+)/g

function replaceCurlUser(match: string, head: string, value: string): string {
  return isPlaceholder(value) || /^\d+$/.test(value) ? match : `${head}${marker('password')}`
}

// ---------------------------------------------------------------------------------------------------------------
// Needles: what a rule needs in a text before it can match, found in one scan of a short text (looking each up
// with `includes`, ~90 scans of every text, took half of all the time `redact` spent)

interface Needle {
  text: string
  /** Found in any ASCII letter case (for the rules with the `i` flag, which folds ASCII letters only). */
  anyCase: boolean
}

/** The token rules' hints first (their places are the ids in `hintIds`), then the words of the other rules. */
export const NEEDLES: readonly Needle[] = [
  ...HINTS.map((text) => ({ text, anyCase: false })),
  ...['://', '=', '--', '-u', 'login', 'password'].map((text) => ({ text, anyCase: false })),
  ...['authorization', 'bearer', 'basic', ...SENSITIVE_WORDS].map((text) => ({ text, anyCase: true })),
]

function needleId(text: string, anyCase = false): number {
  const id = NEEDLES.findIndex((n) => n.text === text && n.anyCase === anyCase)
  if (id === -1) throw new Error(`redact: no needle ${text}`)
  return id
}

const NEEDLE = {
  url: needleId('://'),
  equals: needleId('='),
  flag: needleId('--'),
  curlUser: needleId('-u'),
  login: needleId('login'),
  password: needleId('password'),
  authorization: needleId('authorization', true),
  bearer: needleId('bearer', true),
  basic: needleId('basic', true),
  sensitive: SENSITIVE_WORDS.map((word) => needleId(word, true)),
}

const lowerAscii = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c)
/** `lowerAscii` of the ASCII codes, as a table. */
const LOWER = Uint8Array.from({ length: 128 }, (_, c) => lowerAscii(c))

/** One-character needles by character code, else -1. */
const NEEDLE_OF_CHAR = new Int16Array(128).fill(-1)
/** Longer needles by their first two character codes, lower-cased (`c0 * 128 + c1`): 1 + a place in PAIR_NEEDLES, or 0. */
const PAIR_INDEX = new Int16Array(128 * 128)
const PAIR_NEEDLES: number[][] = []
for (const [id, { text, anyCase }] of NEEDLES.entries()) {
  // The tables hold ASCII only: a needle outside it would silently never be found.
  if (!/^[\x20-\x7e]+$/.test(text) || (anyCase && text !== text.toLowerCase())) throw new Error(`redact: needle ${JSON.stringify(text)} must be printable ASCII (lower case when anyCase)`)
  if (text.length === 1) {
    if (anyCase) throw new Error(`redact: needle ${JSON.stringify(text)} is too short to look for in any case`)
    NEEDLE_OF_CHAR[text.charCodeAt(0)] = id
    continue
  }
  const pair = lowerAscii(text.charCodeAt(0)) * 128 + lowerAscii(text.charCodeAt(1))
  if (PAIR_INDEX[pair] === 0) PAIR_INDEX[pair] = PAIR_NEEDLES.push([])
  PAIR_NEEDLES[PAIR_INDEX[pair]! - 1]!.push(id)
}

function startsWithAnyCase(text: string, at: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if (lowerAscii(text.charCodeAt(at + k)) !== word.charCodeAt(k)) return false
  return true
}

/** Which NEEDLES occur in `text` (1 at their place), in one scan. */
export function needlesIn(text: string): number[] {
  const found: number[] = new Array<number>(NEEDLES.length).fill(0)
  const last = text.length - 1
  if (last < 0) return found
  let c = text.charCodeAt(0)
  for (let i = 0; i < last; i++) {
    const next = text.charCodeAt(i + 1)
    if (c < 128) {
      const one = NEEDLE_OF_CHAR[c]!
      if (one >= 0) found[one] = 1
      const pair = next < 128 ? PAIR_INDEX[(LOWER[c]! << 7) | LOWER[next]!]! : 0
      if (pair !== 0) {
        for (const id of PAIR_NEEDLES[pair - 1]!) {
          if (found[id] === 1) continue
          const { text: needle, anyCase } = NEEDLES[id]!
          if (anyCase ? startsWithAnyCase(text, i, needle) : text.startsWith(needle, i)) found[id] = 1
        }
      }
    }
    c = next
  }
  if (c < 128 && NEEDLE_OF_CHAR[c]! >= 0) found[NEEDLE_OF_CHAR[c]!] = 1
  return found
}
