/**
 * The assistant's last reply: what of it to keep (its head and its tail, where a closing question or the next
 * step sits) and the next step it names. Pure string rules on text already redacted.
 */

/**
 * Where a kept piece may end: a line break near `at` (not below `floor`), else a sentence's end near it, else
 * any white space before it, else nothing is kept (a piece never ends inside a word: a redaction marker or the
 * head of a token).
 */
function boundaryBefore(text: string, at: number, floor: number): number {
  const nl = text.lastIndexOf('\n', at)
  if (nl >= floor) return nl
  for (let i = at; i >= floor; i--) if (/[.!?;:]/.test(text[i - 1] ?? '') && /\s/.test(text[i] ?? '')) return i
  for (let i = at; i > 0; i--) if (/\s/.test(text[i] ?? '')) return i
  return 0
}

/** Where a kept piece may start, the same way from the other side. */
function boundaryAfter(text: string, at: number, ceil: number): number {
  const nl = text.indexOf('\n', at)
  if (nl !== -1 && nl <= ceil) return nl + 1
  for (let i = at; i < ceil; i++) if (/[.!?;:]/.test(text[i - 1] ?? '') && /\s/.test(text[i] ?? '')) return i
  for (let i = at; i < text.length; i++) if (/\s/.test(text[i] ?? '')) return i + 1
  return text.length
}

/**
 * `text` when it fits in `max` characters; else its first `head` and last `tail` characters around a `…` line,
 * each cut at a line break or a sentence's end when one is near (never inside a word, so never inside a
 * `[REDACTED:…]` marker or the rest of a token). `head + tail + 3 <= max`.
 */
export function headAndTail(text: string, max: number, head = Math.floor(max * 0.4), tail = max - head - 3): string {
  const t = text.trim()
  if (t.length <= max) return t
  // A boundary may move a cut by at most a third of the piece: a reply of one long line is cut inside it.
  const headEnd = boundaryBefore(t, head, Math.floor((head * 2) / 3))
  const tailStart = boundaryAfter(t, t.length - tail, t.length - Math.floor((tail * 2) / 3))
  return `${t.slice(0, headEnd).trimEnd()}\n…\n${t.slice(tailStart).trimStart()}`
}

/** Markdown emphasis and closing marks that may follow a question mark at the end of a reply. */
const TRAILING_MARKS = /[\s*_`)"'”’\]]+$/

/** The reply's last line that says something (not a rule or a fence), trimmed; read from the end. */
function lastLine(text: string): string {
  let end = text.length
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1
    const l = text.slice(start, end).trim()
    if (l !== '' && !/^(?:-{3,}|\*{3,}|_{3,}|`{3,}.*)$/.test(l)) return l
    end = start - 1
  }
  return ''
}

/** True when the reply ends by asking the user something. */
export function endsWithQuestion(text: string): boolean {
  return /\?$/.test(lastLine(text).replace(TRAILING_MARKS, ''))
}

/** The closing question of a reply: the last sentence of its last line, up to its question mark. */
export function closingQuestion(text: string): string | undefined {
  if (!endsWithQuestion(text)) return undefined
  const line = lastLine(text).replace(/^(?:[-*+]|\d+[.)])\s+/, '')
  const end = line.replace(TRAILING_MARKS, '')
  // The sentence starts after the last `.`, `!` or `?` that ends an earlier sentence on the line.
  let start = 0
  for (let i = 0; i < end.length - 1; i++) if (/[.!?]/.test(end[i]!) && /\s/.test(end[i + 1] ?? '') && /[A-Z*_`"']/.test(end[i + 2] ?? '')) start = i + 1
  const q = end.slice(start).replace(/^[\s*_]+/, '')
  return q === '' ? undefined : q
}

/** `Next:`, `Next steps:`, `Remaining:`, `TODO:` at the start of a line, in any case, bold or as a heading. */
const NEXT_LABEL = /^\s{0,3}(?:#{1,6}\s*)?(?:[-*+]\s+)?(?:\*\*|__)?(next(?: steps?)?|remaining|todo|still to do)(?:\*\*|__)?\s*:?\s*(?:\*\*|__)?\s*:?\s*(.*)$/i
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)]|\[[ x]\])\s+/
const NEXT_LINES = 6
const NEXT_CHARS = 500

/**
 * The last `Next:`-style block of a reply: the label's line (without the label) and the list items or lines
 * that follow it, up to a blank line that is not followed by more items.
 */
export function nextBlock(text: string): string | undefined {
  const lines = text.split('\n')
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = NEXT_LABEL.exec(lines[i]!)
    if (!m) continue
    // A label must end in a colon (`**Next:**`, `Next steps:`) or be a heading of its own (`## Next steps`).
    const heading = /^\s{0,3}#{1,6}\s/.test(lines[i]!)
    if (!heading && !/:/.test(lines[i]!.slice(0, lines[i]!.length - m[2]!.length))) continue
    const out: string[] = []
    if (m[2]!.trim() !== '') out.push(m[2]!.trim())
    for (let j = i + 1; j < lines.length && out.length < NEXT_LINES; j++) {
      const l = lines[j]!.trimEnd()
      if (l.trim() === '') {
        if (out.length === 0 || LIST_ITEM.test(lines[j + 1] ?? '')) continue
        break
      }
      if (/^\s{0,3}#{1,6}\s/.test(l)) break
      out.push(l)
    }
    const block = out.join('\n').trim()
    if (block === '') continue
    return block.length > NEXT_CHARS ? `${block.slice(0, NEXT_CHARS - 1).trimEnd()}…` : block
  }
  return undefined
}

/**
 * The next step a reply names: its `Next:` block, and its closing question (both when it has both, the block
 * first). Undefined when it names none.
 */
export function nextStep(text: string): string | undefined {
  const block = nextBlock(text)
  const question = closingQuestion(text)
  if (block !== undefined && question !== undefined && !block.includes(question)) return `${block}\n${question}`
  return block ?? question
}
