/** PEM private key blocks (a cursor loop: a regex with a lazy body would rescan the text for every BEGIN). */

import { marker } from './kinds.js'

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
export const PEM_BREAK = String.raw`(?:\r?\n|(?:\\{1,2}r)?\\{1,2}n)`
/** One base64 character; `\/` is a slash as JSON writers that escape slashes (PHP) put it. */
const PEM_B64 = String.raw`(?:[A-Za-z0-9+/=]|\\{1,2}/)`
/**
 * One body line of a truncated block: optional line-number gutter (`cat -n`, the Read tool), then base64 words
 * or an armor header (`Proc-Type: 4,ENCRYPTED`, `Comment: ...`), then a line break (captured). A line without a
 * break is the last one: the body stops there (`...\nMIIEv...` at the end of a JSON string, `ABC... (truncated)`).
 * The gutter's `→` is the regex escape `\u2192`: a raw template keeps non-ASCII text, and the bundles are ASCII only
 * (scripts/bundle.mjs).
 */
const PEM_LINE = new RegExp(
  String.raw`[ \t]*(?:\d{1,7}(?:\t|\u2192))?[ \t]*(?:${PEM_B64}{1,128}(?: ${PEM_B64}{40,128})*` +
    String.raw`|[A-Za-z][A-Za-z-]{0,39}: [^\r\n\\]{0,200})?[ \t]*(${PEM_BREAK})?`,
  'y',
)
/** Blank lines, each maybe with its line-number gutter (`     2\t`): alternatives that start with different characters. */
const PEM_BLANKS = String.raw`(?:\s|\\{1,2}[nr]|\d{1,7}(?:\t|\u2192))*`
/** Just after a BEGIN line: blank lines, armor headers, then a run of base64. */
const PEM_BODY_START = new RegExp(`${PEM_BLANKS}(?:[A-Za-z][A-Za-z-]{0,39}: [^\\r\\n\\\\]{0,200}${PEM_BREAK}${PEM_BLANKS}){0,8}${PEM_B64}{16}`, 'y')
/** A base64 character (or the backslash of an escaped slash): a line that stops at one was cut by the 128 cap. */
const PEM_B64_START = /[A-Za-z0-9+/=\\]/

export function redactPrivateKeys(text: string): string {
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
