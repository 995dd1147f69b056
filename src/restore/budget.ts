/**
 * Fitting restore text into the host's budget (Claude Code caps injected text at 10,000 characters;
 * our default is 6,000). Pure and deterministic.
 *
 * Layout: the head, each non-empty section and the foot are blocks separated by one blank line. A
 * section renders as `## title`, a blank line, its lines, and, when lines were left out, one
 * `- … N more` line. The text has no trailing newline. A fenced section's kept lines sit between its
 * fence lines, whatever is cut: the fence is counted in its length and never separated from its lines
 * (a cut that dropped the closing line would leave recorded text running into ours).
 *
 * Cutting order when the text is too long:
 * 1. Lines longer than the whole budget are left out up front (never sliced; callers pre-shorten).
 * 2. The least important section (highest `priority`; on a tie, the later one) loses lines from its
 *    end, one at a time, down to `minLines`; if it still does not fit it is dropped. Then the next.
 * 3. The foot goes before the most important section is dropped: that section is first shortened
 *    with the foot kept, then, without the foot, given back as many lines as fit.
 * 4. The head goes last, line by line from its end.
 */

export interface Section {
  id: string
  /** Rendered as `## title` followed by a blank line. */
  title?: string
  lines: string[]
  /** Lower is more important. */
  priority: number
  /** Fewest lines kept before the section is dropped instead (default 0: title and marker only). */
  minLines?: number
  /** Lines the caller already left out: counted in the `- … N more` marker (default 0). */
  omitted?: number
  /** Lines around the kept lines (none when no line is kept); the marker comes after the closing one. */
  fence?: { open: string; close: string }
}

export interface Fitted {
  text: string
  /** Ids of dropped sections in input order, then `:foot` and `:head` when those went. */
  dropped: string[]
  /** Ids of sections that lost lines but stayed, in input order, then `:head` when it lost lines. */
  shortened: string[]
}

export function moreLine(n: number): string {
  return `- … ${n} more`
}

interface Working {
  id: string
  index: number
  priority: number
  title: string[]
  fence: string[]
  lines: string[]
  /** Prefix sums of line lengths: prefix[k] = total length of the first k lines. */
  prefix: number[]
  omitted: number
  min: number
  /** Lines kept. */
  k: number
  dropped: boolean
  filtered: boolean
}

function linesLength(lines: string[]): number {
  let n = 0
  for (const l of lines) n += l.length
  return n
}

function hidden(s: Working): number {
  return s.omitted + (s.lines.length - s.k)
}

/** Length of a section's block, 0 when it renders nothing. */
function sectionLength(s: Working): number {
  if (s.dropped) return 0
  const h = hidden(s)
  if (s.k === 0 && h === 0) return 0
  const fence = s.k > 0 ? s.fence : []
  const count = s.title.length + fence.length + s.k + (h > 0 ? 1 : 0)
  return linesLength(s.title) + linesLength(fence) + s.prefix[s.k]! + (h > 0 ? moreLine(h).length : 0) + count - 1
}

function sectionLines(s: Working): string[] {
  if (s.dropped) return []
  const h = hidden(s)
  if (s.k === 0 && h === 0) return []
  const [open, close] = s.k > 0 ? s.fence : []
  return [...s.title, ...(open !== undefined ? [open] : []), ...s.lines.slice(0, s.k), ...(close !== undefined ? [close] : []), ...(h > 0 ? [moreLine(h)] : [])]
}

function blockLength(lines: string[]): number {
  return lines.length === 0 ? 0 : linesLength(lines) + lines.length - 1
}

export function fitSections(head: string[], sections: Section[], foot: string[], budget: number): Fitted {
  const max = Number.isFinite(budget) ? Math.max(0, Math.floor(budget)) : budget > 0 ? Number.MAX_SAFE_INTEGER : 0
  const fitsAlone = (l: string): boolean => l.length <= max
  const headLines = head.filter(fitsAlone)
  const footLines = foot.filter(fitsAlone)
  let headTrimmed = headLines.length < head.length
  let footOn = footLines.length > 0

  const work: Working[] = sections.map((s, index) => {
    const fence = s.fence ? [s.fence.open, s.fence.close] : []
    // A fence that cannot be shown cannot hold anything: every line is left out rather than shown bare.
    const lines = fence.every(fitsAlone) ? s.lines.filter(fitsAlone) : []
    const prefix = [0]
    for (const l of lines) prefix.push(prefix[prefix.length - 1]! + l.length)
    const minLines = Math.max(0, Math.floor(s.minLines ?? 0))
    return {
      id: s.id,
      index,
      priority: s.priority,
      title: s.title !== undefined ? [`## ${s.title}`, ''] : [],
      fence,
      lines,
      prefix,
      omitted: Math.max(0, Math.floor(s.omitted ?? 0)) + (s.lines.length - lines.length),
      min: Math.min(minLines, lines.length),
      k: lines.length,
      dropped: false,
      filtered: lines.length < s.lines.length,
    }
  })

  const total = (): number => {
    let sum = 0
    let blocks = 0
    const add = (n: number): void => {
      if (n > 0) {
        sum += n
        blocks++
      }
    }
    add(blockLength(headLines))
    for (const s of work) add(sectionLength(s))
    if (footOn) add(blockLength(footLines))
    return sum + Math.max(0, blocks - 1) * 2
  }
  const fits = (): boolean => total() <= max

  /** Keeps the most lines in [min, full) that fit; false (and all lines back) when none does. */
  const shorten = (s: Working): boolean => {
    const full = s.lines.length
    for (let k = full - 1; k >= s.min; k--) {
      s.k = k
      if (fits()) return true
    }
    s.k = full
    return false
  }

  const order = work.filter((s) => sectionLength(s) > 0).sort((a, b) => b.priority - a.priority || b.index - a.index)
  for (let i = 0; i < order.length && !fits(); i++) {
    const s = order[i]!
    if (shorten(s)) break
    if (i === order.length - 1 && footOn) {
      footOn = false
      if (fits() || shorten(s)) break
    }
    s.dropped = true
  }
  if (!fits()) footOn = false
  while (!fits() && headLines.length > 0) {
    headLines.pop()
    headTrimmed = true
  }

  const blocks: string[][] = [headLines, ...work.map(sectionLines)]
  if (footOn) blocks.push(footLines)
  const text = blocks
    .filter((b) => blockLength(b) > 0)
    .map((b) => b.join('\n'))
    .join('\n\n')

  const dropped = work.filter((s) => s.dropped).map((s) => s.id)
  if (!footOn && foot.length > 0) dropped.push(':foot')
  if (head.length > 0 && headLines.length === 0) dropped.push(':head')
  const shortened = work.filter((s) => !s.dropped && (s.k < s.lines.length || s.filtered)).map((s) => s.id)
  if (headTrimmed && headLines.length > 0) shortened.push(':head')
  return { text, dropped, shortened }
}

/**
 * Whole lines of `text`, at most `budget` characters: the last guard after redaction, which may lengthen
 * a text the renderers fitted. A cut inside a fenced block (CommonMark's rule: a run of N backticks
 * closes only on a line of N or more and nothing else) closes the block when its closing line fits, and
 * otherwise leaves out the block's lines back to its opening one: recorded text never runs on unfenced,
 * and no block is left empty.
 */
export function cutToBudget(text: string, budget: number): string {
  const max = Number.isFinite(budget) ? Math.max(0, Math.floor(budget)) : budget > 0 ? Number.MAX_SAFE_INTEGER : 0
  if (text.length <= max) return text
  const out: string[] = []
  let used = 0
  let open: { ticks: number; at: number } | undefined
  for (const line of text.split('\n')) {
    const cost = line.length + (out.length > 0 ? 1 : 0)
    if (used + cost > max) break
    used += cost
    out.push(line)
    if (open === undefined) {
      const m = /^ {0,3}(`{3,})[^`]*$/.exec(line)
      if (m) open = { ticks: m[1]!.length, at: out.length - 1 }
    } else {
      const m = /^ {0,3}(`{3,})[ \t]*$/.exec(line)
      if (m && m[1]!.length >= open.ticks) open = undefined
    }
  }
  if (open !== undefined) {
    const close = '`'.repeat(open.ticks)
    while (out.length > open.at + 1 && used + 1 + close.length > max) used -= out.pop()!.length + 1
    if (out.length > open.at + 1) out.push(close)
    else out.length = open.at
  }
  while (out.length > 0 && out[out.length - 1]!.trim() === '') out.pop()
  return out.join('\n')
}
