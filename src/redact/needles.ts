/**
 * Needles: what a rule needs in a text before it can match, found in one scan of a short text (looking each up
 * with `includes`, ~90 scans of every text, took half of all the time `redact` spent)
 */

import { SENSITIVE_WORDS } from './assignments.js'
import { COMMAND_RULES } from './commands.js'
import { CONFIG_RULES, PGPASS_RULE } from './configs.js'
import type { Needle, TextRule } from './kinds.js'
import { PROSE_RULE } from './prose.js'
import { HINTS } from './tokens.js'

const BASE_NEEDLES: readonly Needle[] = [
  ...HINTS.map((text) => ({ text, anyCase: false })),
  ...['://', '=', '--', '-u', 'login', 'password'].map((text) => ({ text, anyCase: false })),
  ...['authorization', 'bearer', 'basic', ...SENSITIVE_WORDS].map((text) => ({ text, anyCase: true })),
]

/** The rules that rewrite a whole text, in the order they run (after the regex rules of the engine). */
const RULES: readonly TextRule[] = [...COMMAND_RULES, ...CONFIG_RULES, PGPASS_RULE, PROSE_RULE]

const needleKey = (n: Needle): string => `${n.anyCase ? 'i' : 's'}${n.text}`

/**
 * The token rules' hints first (their places are the ids in `hintIds`), then the words of the other rules, then
 * the text rules' words that are not among them yet. Places by key: comparing each needle with every one before
 * it cost every process that loads the redactor a millisecond.
 */
const NEEDLE_IDS = new Map<string, number>()
export const NEEDLES: readonly Needle[] = [...BASE_NEEDLES, ...RULES.flatMap((rule) => rule.needles)].filter((n) => {
  if (NEEDLE_IDS.has(needleKey(n))) return false
  NEEDLE_IDS.set(needleKey(n), NEEDLE_IDS.size)
  return true
})

/**
 * The text rules with the places of their needles in NEEDLES, and one regex of all their needles for a text too
 * long to scan for needles: one pass instead of an `includes` for each.
 */
export const TEXT_RULES: ReadonlyArray<{ ids: readonly number[]; gate: RegExp; apply: (text: string) => string }> = RULES.map((rule) => ({
  ids: rule.needles.map((n) => NEEDLE_IDS.get(needleKey(n))!),
  gate: new RegExp(rule.needles.map((n) => n.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), rule.needles.some((n) => n.anyCase) ? 'i' : ''),
  apply: rule.apply,
}))

function needleId(text: string, anyCase = false): number {
  const id = NEEDLE_IDS.get(needleKey({ text, anyCase }))
  if (id === undefined) throw new Error(`redact: no needle ${text}`)
  return id
}

export const NEEDLE = {
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
  if (!/^[\x20-\x7e]+$/.test(text) || (anyCase && text !== text.toLowerCase()))
    throw new Error(`redact: needle ${JSON.stringify(text)} must be printable ASCII (lower case when anyCase)`)
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
