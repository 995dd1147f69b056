/**
 * Streams a transcript JSONL file from a cursor, line by line, never holding the whole file.
 * The only I/O in src/transcript: parsing each line is delegated to parse.ts.
 */
import { open } from 'node:fs/promises'
import { parseLine } from './parse.js'
import type { TranscriptEntry } from './types.js'

/** Where the last read stopped: the byte offset just past the last complete line. */
export interface TranscriptCursor {
  offset: number
  /** Lines consumed so far (so line numbers stay absolute across reads). */
  lines: number
  /** Hex of the file's first bytes when the cursor was made; a file whose head differs was rewritten. */
  head: string
  /** Hex of the bytes just before `offset`: a file rewritten with the same head still differs here. */
  tail?: string
}

export interface ReadStats {
  cursor: TranscriptCursor
  /** Bytes read from disk by this call (the incremental cost). */
  bytesRead: number
  /** Lines handed to the parser by this call. */
  lines: number
  /** Lines that were not JSON or had an unusable shape. */
  skipped: number
  /** Lines longer than the line cap, dropped without decoding. */
  oversized: number
  /** True when the cursor did not fit the file (shrunk or rewritten) and reading restarted at 0. */
  restarted: boolean
  /** True when the file ended in an incomplete line that was left for the next read. */
  partialTail: boolean
  entries: number
}

export const HEAD_BYTES = 64
const CHUNK = 1 << 20
/** Lines above this size are skipped whole (a 500 MB line would not fit in a JS string anyway). */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024

export interface ReadOptions {
  maxLineBytes?: number
  /** Bytes read at a time (tests use tiny reads to put chunk boundaries everywhere). */
  chunkBytes?: number
  /** Called before any entry when the cursor did not fit and reading starts again from byte 0. */
  onRestart?: () => void
}

async function bytesBefore(fh: import('node:fs/promises').FileHandle, offset: number): Promise<string> {
  const len = Math.min(HEAD_BYTES, offset)
  const buf = Buffer.alloc(len)
  await fh.read(buf, 0, len, offset - len)
  return buf.toString('hex')
}

export const EMPTY_CURSOR: TranscriptCursor = { offset: 0, lines: 0, head: '' }

/**
 * Reads the lines appended after `cursor` and hands each parsed entry to `onEntry`.
 * Never throws for content problems; throws only when the file cannot be opened.
 */
export async function readTranscript(
  path: string,
  cursor: TranscriptCursor | undefined,
  onEntry: (entry: TranscriptEntry) => void,
  options: ReadOptions = {},
): Promise<ReadStats> {
  const maxLine = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES
  const chunk = Math.max(1, options.chunkBytes ?? CHUNK)
  const fh = await open(path, 'r')
  try {
    const { size } = await fh.stat()
    const headBuf = Buffer.alloc(Math.min(HEAD_BYTES, size))
    if (headBuf.length > 0) await fh.read(headBuf, 0, headBuf.length, 0)
    const head = headBuf.toString('hex')

    let start = cursor ?? EMPTY_CURSOR
    let restarted = false
    let tailMatches = true
    if (start.offset > 0 && start.offset <= size && start.tail !== undefined) {
      tailMatches = (await bytesBefore(fh, start.offset)) === start.tail
    }
    if (start.offset > size || !head.startsWith(start.head) || (start.head === '' && start.offset > 0) || !tailMatches) {
      start = EMPTY_CURSOR
      restarted = cursor !== undefined && cursor.offset > 0
      if (restarted) options.onRestart?.()
    }

    const stats: ReadStats = {
      cursor: { offset: start.offset, lines: start.lines, head },
      bytesRead: 0,
      lines: 0,
      skipped: 0,
      oversized: 0,
      restarted,
      partialTail: false,
      entries: 0,
    }
    let lineNo = start.lines
    let inFlight: Promise<{ bytesRead: number }> | undefined
    const emit = (text: string, line: number): boolean => {
      const parsed = parseLine(text, line)
      for (const entry of parsed.entries) {
        stats.entries++
        onEntry(entry)
      }
      return parsed.ok
    }

    // One buffer: each line is decoded straight from it, never copied on its own. The next read goes into the
    // free space after the data while the lines already there are parsed, so the disk and the parser overlap.
    // A line longer than the buffer grows it; a line over the cap is dropped while it streams past.
    const normal = 4 * chunk
    let buf = Buffer.allocUnsafe(normal)
    let lineStart = 0 // where the first line not yet consumed starts in `buf`
    let from = 0 // where to look for the next newline
    let filled = 0 // bytes of `buf` holding file data
    let dropping = false // the current line is over the cap: its bytes are discarded up to its newline
    let position = start.offset // file offset of `buf[filled]`

    /** Room for a whole read after the data still needed, by moving that data to the front and resizing if it must. */
    const makeRoom = (): void => {
      const keep = filled - lineStart
      let capacity = buf.length
      if (keep + chunk > capacity) capacity = Math.min(Math.max(capacity * 2, keep + chunk), maxLine + 2 * chunk)
      else if (capacity > normal && keep + chunk <= normal) capacity = normal // back to normal after a long line
      if (capacity !== buf.length) {
        const next = Buffer.allocUnsafe(capacity)
        buf.copy(next, 0, lineStart, filled)
        buf = next
      } else {
        buf.copyWithin(0, lineStart, filled)
      }
      from -= lineStart
      filled = keep
      lineStart = 0
    }

    try {
      for (;;) {
        if (position < size) {
          if (buf.length - filled < chunk) makeRoom()
          inFlight = fh.read(buf, filled, Math.min(chunk, buf.length - filled, size - position), position)
        }
        const data = buf.subarray(0, filled) // the read in flight writes only after `filled`
        for (let nl = data.indexOf(0x0a, from); nl !== -1; nl = data.indexOf(0x0a, from)) {
          lineNo++
          stats.lines++
          if (dropping || nl - lineStart > maxLine) {
            stats.oversized++
            stats.skipped++
            dropping = false
          } else {
            const end = nl > lineStart && buf[nl - 1] === 0x0d ? nl - 1 : nl
            if (!emit(buf.toString('utf8', lineStart, end), lineNo)) stats.skipped++
          }
          lineStart = from = nl + 1
          stats.cursor.offset = position - (filled - lineStart)
          stats.cursor.lines = lineNo
        }
        from = filled
        if (!dropping && filled - lineStart > maxLine) dropping = true
        if (dropping) lineStart = filled // discarded; the next makeRoom reclaims the space
        if (!inFlight) break
        const { bytesRead } = await inFlight
        inFlight = undefined
        if (bytesRead <= 0) break
        stats.bytesRead += bytesRead
        filled += bytesRead
        position += bytesRead
      }
    } finally {
      // Never close the file under a read still running (a callback may have thrown).
      await inFlight?.catch(() => undefined)
    }

    // An unterminated last line: consume it only if it is a whole JSON record; else leave it for next time.
    if (dropping) {
      stats.partialTail = true
    } else if (filled > lineStart) {
      const end = buf[filled - 1] === 0x0d ? filled - 1 : filled
      const parsed = parseLine(buf.toString('utf8', lineStart, end), lineNo + 1)
      if (parsed.ok && parsed.entries.length > 0) {
        lineNo++
        stats.lines++
        for (const entry of parsed.entries) {
          stats.entries++
          onEntry(entry)
        }
        stats.cursor.offset = size
        stats.cursor.lines = lineNo
      } else {
        stats.partialTail = true
      }
    }
    if (stats.cursor.offset > 0) stats.cursor.tail = await bytesBefore(fh, stats.cursor.offset)
    return stats
  } finally {
    await fh.close()
  }
}
