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
    const decoder = new TextDecoder('utf-8', { fatal: false })
    let pending: Buffer[] = []
    let pendingLen = 0
    let dropping = false
    let position = start.offset
    let lineNo = start.lines

    const consumeLine = (buf: Buffer): void => {
      lineNo++
      stats.lines++
      let text = decoder.decode(buf)
      if (text.endsWith('\r')) text = text.slice(0, -1)
      const parsed = parseLine(text, lineNo)
      if (!parsed.ok) stats.skipped++
      for (const entry of parsed.entries) {
        stats.entries++
        onEntry(entry)
      }
    }

    const chunk = Buffer.alloc(CHUNK)
    while (position < size) {
      const want = Math.min(CHUNK, size - position)
      const { bytesRead } = await fh.read(chunk, 0, want, position)
      if (bytesRead <= 0) break
      stats.bytesRead += bytesRead
      let from = 0
      while (from < bytesRead) {
        const nl = chunk.indexOf(0x0a, from)
        const end = nl === -1 || nl >= bytesRead ? bytesRead : nl
        const piece = chunk.subarray(from, end)
        if (!dropping) {
          if (pendingLen + piece.length > maxLine) {
            dropping = true
            pending = []
            pendingLen = 0
          } else if (piece.length > 0) {
            pending.push(Buffer.from(piece))
            pendingLen += piece.length
          }
        }
        if (end === bytesRead && (nl === -1 || nl >= bytesRead)) break
        // A complete line ends at `end`.
        if (dropping) {
          lineNo++
          stats.lines++
          stats.oversized++
          stats.skipped++
          dropping = false
        } else {
          consumeLine(pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingLen))
        }
        pending = []
        pendingLen = 0
        stats.cursor.offset = position + end + 1
        stats.cursor.lines = lineNo
        from = end + 1
      }
      position += bytesRead
    }

    // An unterminated last line: consume it only if it is a whole JSON record; else leave it for next time.
    if (dropping) {
      stats.partialTail = true
    } else if (pendingLen > 0) {
      const buf = Buffer.concat(pending, pendingLen)
      let text = decoder.decode(buf)
      if (text.endsWith('\r')) text = text.slice(0, -1)
      const parsed = parseLine(text, lineNo + 1)
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
