/**
 * Line-level change of a file: which lines were added and which removed.
 * Pure: no I/O, no clock; bounded in time and memory for any input.
 *
 * Conventions shared by both functions:
 * - `\r\n` and `\n` are the same line ending; a lone `\r` stays part of the line.
 * - A missing final newline is not a change: "a\nb" and "a\nb\n" are the same two lines.
 * - `added` keeps the order of the new text, `removed` the order of the old text.
 */

export interface LineDiff {
  added: string[]
  removed: string[]
  /** Set (to true) only when the edit-distance search hit its cap and the multiset approximation was used. */
  approximate?: boolean
}

export interface LineDiffOptions {
  /** Largest edit distance (lines added + removed among lines both sides share) searched exactly. */
  maxEditDistance?: number
}

/** Exact search stops past this many edits: the backtracking trace grows with its square, time with O((N + M) * D). */
export const MAX_EDIT_DISTANCE = 1000

/** Snake-following steps allowed before falling back, whatever D is. */
const MAX_WORK = 20_000_000

/**
 * Minimal line diff (Myers O(ND)) of two texts.
 *
 * Steps: split lines, trim the common prefix and suffix, then set aside lines that occur
 * on one side only (they are edits in every alignment, and leaving them out does not change
 * the longest common subsequence), and run Myers on what remains. When that still needs more
 * than `maxEditDistance` edits (or too much work), the remaining lines are compared as
 * multisets instead: a line is removed if the old side has more copies of it than the new
 * side, added in the converse case. That approximation never over-counts, but it does not
 * see reordering: lines that only moved count as unchanged. The result then carries
 * `approximate: true`.
 */
export function lineDiff(oldText: string, newText: string, options: LineDiffOptions = {}): LineDiff {
  const a = splitLines(oldText)
  const b = splitLines(newText)

  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--
    endB--
  }
  const midA = a.slice(start, endA)
  const midB = b.slice(start, endB)
  if (midA.length === 0 || midB.length === 0) return { added: midB, removed: midA }

  // Intern lines as small integers and count them per side.
  const ids = new Map<string, number>()
  const intern = (line: string): number => {
    let id = ids.get(line)
    if (id === undefined) {
      id = ids.size
      ids.set(line, id)
    }
    return id
  }
  const idsA = Int32Array.from(midA, intern)
  const idsB = Int32Array.from(midB, intern)
  const inA = new Uint32Array(ids.size)
  const inB = new Uint32Array(ids.size)
  for (const id of idsA) inA[id] = (inA[id] ?? 0) + 1
  for (const id of idsB) inB[id] = (inB[id] ?? 0) + 1

  // Positions (into midA / midB) of the lines the other side also has.
  const sharedA = positions(idsA, inB)
  const sharedB = positions(idsB, inA)
  const seqA = Int32Array.from(sharedA, (i) => idsA[i] ?? -1)
  const seqB = Int32Array.from(sharedB, (i) => idsB[i] ?? -1)

  const maxD = Math.max(0, Math.floor(options.maxEditDistance ?? MAX_EDIT_DISTANCE))
  const exact = myersMatches(seqA, seqB, maxD)
  const matches = exact ?? multisetMatches(seqA, seqB, ids.size)

  const keptA = new Uint8Array(midA.length)
  const keptB = new Uint8Array(midB.length)
  matches.a.forEach((hit, i) => {
    if (hit) keptA[sharedA[i] ?? 0] = 1
  })
  matches.b.forEach((hit, j) => {
    if (hit) keptB[sharedB[j] ?? 0] = 1
  })
  const diff: LineDiff = {
    added: midB.filter((_, j) => keptB[j] === 0),
    removed: midA.filter((_, i) => keptA[i] === 0),
  }
  if (!exact) diff.approximate = true
  return diff
}

/**
 * Lines added and removed by a Claude Code `structuredPatch` (the hunks of an Edit, MultiEdit
 * or Write "update" result). Returns null when the value is not an array of hunks whose
 * `lines` are strings starting with '+', '-', ' ' or '\' (or empty), or when it is an empty
 * array: Claude Code writes `[]` for a created file and for some no-op updates, so an empty
 * patch says nothing and the caller should diff the texts instead. Never throws.
 */
export function patchLines(structuredPatch: unknown): LineDiff | null {
  if (!Array.isArray(structuredPatch) || structuredPatch.length === 0) return null
  const added: string[] = []
  const removed: string[] = []
  for (const hunk of structuredPatch as unknown[]) {
    if (typeof hunk !== 'object' || hunk === null) return null
    const h = hunk as Record<string, unknown>
    for (const key of ['oldStart', 'oldLines', 'newStart', 'newLines']) {
      if (key in h && typeof h[key] !== 'number') return null
    }
    const lines = h['lines']
    if (!Array.isArray(lines)) return null
    for (const line of lines as unknown[]) {
      if (typeof line !== 'string') return null
      const mark = line.charAt(0)
      const text = stripCr(line.slice(1))
      if (mark === '+') added.push(text)
      else if (mark === '-') removed.push(text)
      else if (mark !== ' ' && mark !== '\\' && mark !== '') return null // '\' is "No newline at end of file"
    }
  }
  return { added, removed }
}

/** `text.split(/\r?\n/)`, without running the pattern on text that has no CR (almost all of it). */
export function splitCrLf(text: string): string[] {
  return text.includes('\r') ? text.split(/\r?\n/) : text.split('\n')
}

function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = splitCrLf(text)
  if (lines[lines.length - 1] === '') lines.pop()
  return lines
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line
}

function positions(ids: Int32Array, otherCounts: Uint32Array): number[] {
  const out: number[] = []
  ids.forEach((id, i) => {
    if ((otherCounts[id] ?? 0) > 0) out.push(i)
  })
  return out
}

interface Matches {
  /** 1 where the element of each sequence belongs to the common subsequence. */
  a: Uint8Array
  b: Uint8Array
}

/**
 * Myers' greedy forward search with a per-round trace for backtracking.
 * Returns null when the edit distance exceeds maxD or the work budget runs out.
 */
function myersMatches(a: Int32Array, b: Int32Array, maxD: number): Matches | null {
  const n = a.length
  const m = b.length
  const result: Matches = { a: new Uint8Array(n), b: new Uint8Array(m) }
  const limit = Math.min(maxD, n + m)
  const offset = limit + 1
  const v = new Int32Array(2 * limit + 3)
  const trace: Int32Array[] = []
  let work = 0
  let found = -1

  search: for (let d = 0; d <= limit; d++) {
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0))
      const x0 = down ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1
      let x = x0
      let y = x - k
      while (x < n && y < m && a[x] === b[y]) {
        x++
        y++
      }
      work += x - x0 + 1
      v[offset + k] = x
      if (x >= n && y >= m) {
        found = d
        break search
      }
    }
    if (work > MAX_WORK) return null
    trace.push(v.slice(offset - d, offset + d + 1))
  }
  if (found < 0) return null

  let x = n
  let y = m
  for (let d = found; d > 0; d--) {
    const prev = trace[d - 1]
    if (!prev) return null
    const at = (k: number): number => prev[k + d - 1] ?? 0
    const k = x - y
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1))
    const prevK = down ? k + 1 : k - 1
    const prevX = at(prevK)
    const snakeStart = down ? prevX : prevX + 1
    while (x > snakeStart) {
      x--
      y--
      result.a[x] = 1
      result.b[y] = 1
    }
    x = prevX
    y = prevX - prevK
  }
  while (x > 0 && y > 0) {
    x--
    y--
    result.a[x] = 1
    result.b[y] = 1
  }
  return result
}

/** Cheap approximation: match each line against any unused copy of it on the other side. */
function multisetMatches(a: Int32Array, b: Int32Array, idCount: number): Matches {
  const mark = (seq: Int32Array, other: Int32Array): Uint8Array => {
    const left = new Uint32Array(idCount)
    for (const id of other) left[id] = (left[id] ?? 0) + 1
    const hit = new Uint8Array(seq.length)
    seq.forEach((id, i) => {
      const n = left[id] ?? 0
      if (n > 0) {
        left[id] = n - 1
        hit[i] = 1
      }
    })
    return hit
  }
  return { a: mark(a, b), b: mark(b, a) }
}
