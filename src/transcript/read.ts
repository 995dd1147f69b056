/**
 * Streams a transcript JSONL file from a cursor, line by line, never holding the whole file.
 * The only I/O in src/transcript: parsing each line is delegated to parse.ts.
 */
import { isAscii, isUtf8, transcode } from 'node:buffer'
import { type FileHandle, open, readInBackground } from '../shared/fsp.js'
import { fingerprint, keptLength, sameBytes } from './fingerprint.js'
import type { LineParser, TranscriptEntry } from './types.js'

/** Where the last read stopped: the byte offset just past the last complete line. */
export interface TranscriptCursor {
  offset: number
  /** Lines consumed so far (so line numbers stay absolute across reads). */
  lines: number
  /** Fingerprint of the file's first bytes when the cursor was made (fingerprint.ts); a file whose head differs was rewritten. */
  head: string
  /** Fingerprint of the bytes just before `offset`: a file rewritten with the same head still differs here. */
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
/** Reads longer than this fetch their chunks in the background (readInBackground); shorter ones have little to overlap. */
const BACKGROUND_BYTES = 8 * CHUNK
/** Lines above this size are skipped whole (a 500 MB line would not fit in a JS string anyway). */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024

export interface ReadOptions {
  maxLineBytes?: number
  /** Bytes read at a time (tests use tiny reads to put chunk boundaries everywhere). */
  chunkBytes?: number
  /** Reads longer than this fetch their chunks in the background (tests use 0 to put every chunk there). */
  backgroundBytes?: number
  /** Called before any entry when the cursor did not fit and reading starts again from byte 0. */
  onRestart?: () => void
}

/** The `len` bytes before `offset` (as many as there are). */
async function bytesBefore(fh: FileHandle, offset: number, len = Math.min(HEAD_BYTES, offset)): Promise<Buffer> {
  const buf = Buffer.alloc(Math.max(0, Math.min(len, offset)))
  if (buf.length > 0) await fh.read(buf, 0, buf.length, offset - buf.length)
  return buf
}

/** Lines shorter than this are decoded the plain way whatever they hold: the faster way costs a buffer. */
const TRANSCODE_BYTES = 1024

/**
 * `buf.toString('utf8', start, end)`, faster for a long line of valid UTF-8 that is not all ASCII (a Read result,
 * whose every line holds a `→`): V8 decodes such text a character at a time, several times slower than ASCII,
 * while ICU converts it to UTF-16 in bulk. Both give the same string for valid UTF-8; anything else (ASCII, short,
 * malformed, a Node without ICU) takes the plain way, so malformed bytes become U+FFFD exactly as before.
 */
export function decodeLine(buf: Buffer, start: number, end: number): string {
  if (end - start >= TRANSCODE_BYTES) {
    const bytes = buf.subarray(start, end)
    if (!isAscii(bytes) && isUtf8(bytes)) {
      try {
        return transcode(bytes, 'utf8', 'utf16le').toString('utf16le')
      } catch {
        // no ICU in this Node: the plain way below
      }
    }
  }
  return buf.toString('utf8', start, end)
}

export const EMPTY_CURSOR: TranscriptCursor = { offset: 0, lines: 0, head: '' }

/**
 * Reads the lines appended after `cursor`, parses each with the host's `parseLine` and hands each entry to `onEntry`.
 * Never throws for content problems; throws only when the file cannot be opened.
 */
export async function readTranscript(
  path: string,
  cursor: TranscriptCursor | undefined,
  parseLine: LineParser,
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
    const head = fingerprint(headBuf)

    let start = cursor ?? EMPTY_CURSOR
    let restarted = false
    let tailMatches = true
    if (start.offset > 0 && start.offset <= size && start.tail !== undefined) {
      tailMatches = sameBytes(start.tail, await bytesBefore(fh, start.offset, keptLength(start.tail)))
    }
    // The first bytes the cursor saw are still the file's first bytes (the file may have been shorter then).
    const headLength = keptLength(start.head)
    const headMatches = headLength >= 0 && headLength <= headBuf.length && sameBytes(start.head, headBuf.subarray(0, headLength))
    if (start.offset > size || !headMatches || (start.head === '' && start.offset > 0) || !tailMatches) {
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

    // One buffer of fixed size: each line is decoded straight from it, never copied on its own. The next read goes
    // into the free space after the data while the lines already there are parsed; in a long read it runs on the
    // thread pool meanwhile, so the disk and the parser overlap (a short one reads at once: a hook's few lines have
    // nothing to overlap with a thread's round trip). A line too long for the buffer is read on its own, into a
    // buffer of its exact size; a line over the cap is only scanned for its end, never held.
    const buf = Buffer.allocUnsafe(4 * chunk)
    const background = size - start.offset > (options.backgroundBytes ?? BACKGROUND_BYTES)
    const longLine = Math.min(maxLine, 2 * chunk) // an unfinished line longer than this leaves the buffer
    let lineStart = 0 // where the first line not yet consumed starts in `buf`
    let from = 0 // where to look for the next newline
    let filled = 0 // bytes of `buf` holding file data
    let position = start.offset // file offset of `buf[filled]`
    let furthest = start.offset // end of what was read from the file
    let tail: Buffer | undefined // an unterminated last line, when it was read on its own
    let droppedTail = false // the file ends in an unterminated line over the cap

    const readAt = async (into: Buffer, offset: number, length: number, at: number): Promise<number> => {
      const { bytesRead } = await fh.read(into, offset, length, at)
      furthest = Math.max(furthest, at + Math.max(0, bytesRead))
      return bytesRead
    }

    /** File offset of the first newline in [offset, limit) (limit capped at the file's end), or -1. */
    let scratch: Buffer | undefined
    const newlineIn = async (offset: number, limit: number): Promise<number> => {
      scratch ??= Buffer.allocUnsafe(chunk)
      for (let at = offset; at < Math.min(limit, size);) {
        const n = await readAt(scratch, 0, Math.min(chunk, Math.min(limit, size) - at), at)
        if (n <= 0) return -1
        const nl = scratch.subarray(0, n).indexOf(0x0a)
        if (nl !== -1) return at + nl
        at += n
      }
      return -1
    }

    /** Bytes [a, b) of the file, or undefined when it ended first. */
    const bytesAt = async (a: number, b: number): Promise<Buffer | undefined> => {
      const out = Buffer.allocUnsafe(b - a)
      for (let got = 0; got < out.length;) {
        const n = await readAt(out, got, out.length - got, a + got)
        if (n <= 0) return undefined
        got += n
      }
      return out
    }

    /**
     * The unfinished line in `buf` (no newline in it so far) is too long for the buffer: find its end in the file,
     * then consume it read on its own, or count it over the cap. False when reading is over.
     */
    const takeLongLine = async (): Promise<boolean> => {
      const lineOffset = position - (filled - lineStart)
      const limit = lineOffset + maxLine + 1
      let nl = await newlineIn(position, limit)
      filled = lineStart = from = 0
      if (nl !== -1) {
        const line = await bytesAt(lineOffset, nl)
        if (!line) {
          stats.partialTail = true // the file shrank under us: left for the next read
          return false
        }
        lineNo++
        stats.lines++
        const end = line.length > 0 && line[line.length - 1] === 0x0d ? line.length - 1 : line.length
        if (!emit(decodeLine(line, 0, end), lineNo)) stats.skipped++
      } else if (limit <= size) {
        nl = await newlineIn(limit, size) // over the cap: only its end is looked for
        if (nl === -1) {
          droppedTail = true
          return false
        }
        lineNo++
        stats.lines++
        stats.oversized++
        stats.skipped++
      } else {
        tail = await bytesAt(lineOffset, size)
        if (!tail) stats.partialTail = true
        return false
      }
      position = nl + 1
      stats.cursor.offset = position
      stats.cursor.lines = lineNo
      return true
    }

    try {
      for (;;) {
        if (position < size) {
          if (buf.length - filled < chunk) {
            buf.copyWithin(0, lineStart, filled) // the data still needed is at most 3 chunks: 1 chunk of room stays
            from -= lineStart
            filled -= lineStart
            lineStart = 0
          }
          const length = Math.min(chunk, buf.length - filled, size - position)
          inFlight = background ? readInBackground(fh.fd, buf, filled, length, position) : fh.read(buf, filled, length, position)
        }
        const data = buf.subarray(0, filled) // the read in flight writes only after `filled`
        for (let nl = data.indexOf(0x0a, from); nl !== -1; nl = data.indexOf(0x0a, from)) {
          lineNo++
          stats.lines++
          if (nl - lineStart > maxLine) {
            stats.oversized++
            stats.skipped++
          } else {
            const end = nl > lineStart && buf[nl - 1] === 0x0d ? nl - 1 : nl
            if (!emit(decodeLine(buf, lineStart, end), lineNo)) stats.skipped++
          }
          lineStart = from = nl + 1
          stats.cursor.offset = position - (filled - lineStart)
          stats.cursor.lines = lineNo
        }
        from = filled
        if (!inFlight) break // the rest of the file is in `buf`
        const { bytesRead } = await inFlight
        inFlight = undefined
        furthest = Math.max(furthest, position + Math.max(0, bytesRead))
        if (bytesRead <= 0) break
        if (filled - lineStart > longLine) {
          // what just arrived is read again from the file by takeLongLine
          if (await takeLongLine()) continue
          break
        }
        filled += bytesRead
        position += bytesRead
      }
    } finally {
      // Never close the file under a read still running (a callback may have thrown).
      await inFlight?.catch(() => undefined)
    }
    stats.bytesRead = furthest - start.offset

    // An unterminated last line: consume it only if it is a whole JSON record; else leave it for next time.
    const last = tail ?? buf.subarray(lineStart, filled)
    if (droppedTail || (tail === undefined && filled - lineStart > maxLine)) {
      stats.partialTail = true
    } else if (last.length > 0) {
      const end = last[last.length - 1] === 0x0d ? last.length - 1 : last.length
      const parsed = parseLine(decodeLine(last, 0, end), lineNo + 1)
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
    if (stats.cursor.offset > 0) stats.cursor.tail = fingerprint(await bytesBefore(fh, stats.cursor.offset))
    return stats
  } finally {
    await fh.close()
  }
}
