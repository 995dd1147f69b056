/** The passes of `redact` over one text, and the cuts that keep a shortened text redacted. */

import { ASSIGNMENT, replaceAssignment } from './assignments.js'
import { CLI_FLAG, CURL_USER, NETRC, replaceCliFlag, replaceCurlUser, replaceNetrc } from './commands.js'
import {
  AUTH_HEADER,
  BASIC,
  BEARER,
  URL_CREDENTIALS,
  URL_SIGNATURE,
  replaceAuthHeader,
  replaceBasic,
  replaceBearer,
  replaceUrlCredentials,
  replaceUrlSignature,
} from './context.js'
import { NEEDLE, NEEDLES, TEXT_RULES, needlesIn } from './needles.js'
import { redactPrivateKeys } from './pem.js'
import { TOKENS } from './tokens.js'

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

const NEEDLE_SCAN_MAX = 256 * 1024

/** For each needle, the token rules and the text rules that hint it. */
const TOKENS_OF_NEEDLE: number[][] = NEEDLES.map(() => [])
const TEXT_RULES_OF_NEEDLE: number[][] = NEEDLES.map(() => [])
TOKENS.forEach((rule, r) => {
  for (const id of rule.hintIds) TOKENS_OF_NEEDLE[id]!.push(r)
})
TEXT_RULES.forEach((rule, r) => {
  for (const id of rule.ids) TEXT_RULES_OF_NEEDLE[id]!.push(r)
})
/** Which rules one text's needles call for; scratch space reused by every call (`redactOnce` never nests). */
const TOKEN_MARKS = new Uint8Array(TOKENS.length)
const TEXT_MARKS = new Uint8Array(TEXT_RULES.length)

function redactOnce(text: string): string {
  let out = redactPrivateKeys(text)
  // The needles of the text, found in one scan; they describe `scanned`, so once a rule has changed the text the
  // next ones are looked up in the new text. With ~100 rules one scan costs less than running every rule whose
  // needle a text lacks (a regex pass costs about what an `includes` does); past NEEDLE_SCAN_MAX (minified code,
  // base64 blobs: texts that hold most two-letter pairs) the rules just run.
  const scanned = out
  const found = out.length <= NEEDLE_SCAN_MAX ? needlesIn(out) : undefined
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
  if (found === undefined) {
    for (const rule of TOKENS) {
      if (rule.hintAlways && !rule.hintIds.some(holds)) continue
      if (rule.requires === undefined || rule.requires(out)) out = out.replace(rule.re, rule.replace)
    }
  } else {
    // Only the rules whose needles the scan found, in their order: most texts call for a few of ~140. A rule that
    // changes the text only puts markers in, which no rule takes for a secret; the next pass scans again.
    TOKEN_MARKS.fill(0)
    TEXT_MARKS.fill(0)
    const todo: number[] = []
    for (let id = 0; id < found.length; id++) {
      if (found[id] !== 1) continue
      for (const r of TOKENS_OF_NEEDLE[id]!) {
        if (TOKEN_MARKS[r] === 1) continue
        TOKEN_MARKS[r] = 1
        todo.push(r)
      }
      for (const r of TEXT_RULES_OF_NEEDLE[id]!) TEXT_MARKS[r] = 1
    }
    todo.sort((a, b) => a - b)
    for (const r of todo) {
      const rule = TOKENS[r]!
      if (rule.requires === undefined || rule.requires(out)) out = out.replace(rule.re, rule.replace)
    }
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
  for (let r = 0; r < TEXT_RULES.length; r++) {
    const rule = TEXT_RULES[r]!
    // a text too long to scan: one regex of the rule's needles instead of an `includes` for each
    const hinted = found !== undefined ? TEXT_MARKS[r] === 1 : rule.gate.test(out)
    if (hinted) out = rule.apply(out)
  }
  return out
}
