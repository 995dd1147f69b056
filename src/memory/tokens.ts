/**
 * The two channels a text is indexed under, pure: words (lower-cased letter and digit runs, camelCase parts too)
 * and exact tokens (paths and identifiers as written, `resume.go`, `src/memory/log.ts`, `parseLine`), which keep
 * a file name made of common words apart from those words. Terms are stored as 53-bit hashes, never as strings.
 */

const STOP = new Set(
  'the a an and or of to in on at is it be as by for from with this that these those was were are been has have had do does did not no but if then so we you i me my our your its they them he she his her there here what which who how when where why can will would should could into out up about than just also only'.split(
    ' ',
  ),
)

const CAMEL = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g
/**
 * Letter and digit runs; path and identifier characters (a run of them holding a separator or mixed case is an
 * exact token). Made on first use: a regular expression is parsed when made, and these Unicode classes cost a
 * fresh process more than a whole selective search; an ASCII query never needs them.
 */
let unicode: { word: RegExp; exact: RegExp; separated: RegExp } | undefined
const UNICODE = (): { word: RegExp; exact: RegExp; separated: RegExp } =>
  (unicode ??= {
    word: /[\p{L}\p{N}]+/gu,
    exact: /[\p{L}\p{N}_./\\@:+-]+/gu,
    separated: /[\p{L}\p{N}][._/\\:-][\p{L}\p{N}]|[a-z][A-Z]|_/u,
  })
// The same three for ASCII text, where letters and digits are [A-Za-z0-9]: the tokens are the same, and a query
// (most are ASCII) spares a fresh process compiling the Unicode classes.
const WORD_ASCII = /[A-Za-z0-9]+/g
const EXACT_ASCII = /[A-Za-z0-9_./\\@:+-]+/g
const SEPARATED_ASCII = /[A-Za-z0-9][._/\\:-][A-Za-z0-9]|[a-z][A-Z]|_/
const NOT_ASCII = /[^\x00-\x7f]/

export function words(text: string): string[] {
  const out: string[] = []
  for (const m of text.matchAll(NOT_ASCII.test(text) ? UNICODE().word : WORD_ASCII)) {
    const raw = m[0]
    if (raw.length > 40) continue
    const w = raw.toLowerCase()
    if ((w.length >= 2 || /\d/.test(w)) && !STOP.has(w)) out.push(w)
    if (raw !== w && raw !== raw.toUpperCase()) {
      for (const part of raw.match(CAMEL) ?? []) {
        const p = part.toLowerCase()
        if (p !== w && p.length >= 2 && !STOP.has(p)) out.push(p)
      }
    }
  }
  return out
}

/** Exact tokens, lower-cased: the run as written and, for a path, its last part and last two parts. */
export function exactTokens(text: string): string[] {
  const out: string[] = []
  const ascii = !NOT_ASCII.test(text)
  const separated = ascii ? SEPARATED_ASCII : UNICODE().separated
  for (const m of text.matchAll(ascii ? EXACT_ASCII : UNICODE().exact)) {
    const token = m[0].replace(/^[.:@+\\/-]+|[.:@+\\/-]+$/g, '')
    if (token.length < 3 || token.length > 200 || !separated.test(token)) continue
    const t = token.toLowerCase().replace(/\\/g, '/')
    out.push(t)
    const parts = t.split('/').filter((p) => p !== '')
    if (parts.length > 1) {
      const last = parts[parts.length - 1]!
      if (last.length >= 3) out.push(last)
      if (parts.length > 2) out.push(parts.slice(-2).join('/'))
    }
  }
  return out
}

/** A term's hash: FNV-1a in two lanes, folded to 53 bits (a double holds it exactly). Exact terms hash apart from words. */
export function termHash(term: string, exact: boolean): number {
  let a = exact ? 0x050c5d1f : 0x811c9dc5
  let b = 0x811c9dc5
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x5bd1e995)
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff)
}

/** The terms of an event's text with their counts, and its length in words (BM25's document length). */
export function termsOf(text: string, paths: readonly string[] = []): { tf: Map<number, number>; length: number } {
  const tf = new Map<number, number>()
  const ws = words(text)
  for (const w of ws) {
    const h = termHash(w, false)
    tf.set(h, (tf.get(h) ?? 0) + 1)
  }
  const exact = new Set<string>()
  for (const t of exactTokens(text)) exact.add(t)
  for (const p of paths) for (const t of exactTokens(p)) exact.add(t)
  for (const t of exact) {
    const h = termHash(t, true)
    tf.set(h, (tf.get(h) ?? 0) + 1)
  }
  return { tf, length: Math.max(1, ws.length) }
}

export interface QueryTerms {
  words: string[]
  exact: string[]
}

/** A query's distinct words and exact tokens. */
export function queryTerms(query: string): QueryTerms {
  return { words: [...new Set(words(query))], exact: [...new Set(exactTokens(query))] }
}
