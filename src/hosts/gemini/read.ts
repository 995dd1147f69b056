/**
 * Reads a Gemini chat file: the 0.61 JSONL through the shared streaming reader with a parser that remembers
 * what it read (lines.ts `Seen`, kept in the state between reads), and the older `.json` session, one object
 * rewritten whole on every message, read whole each time (the corpus' biggest is 33 KB; capped below).
 */
import { open } from '../../shared/fsp.js'
import { fingerprint } from '../../transcript/fingerprint.js'
import { HEAD_BYTES, type ReadOptions, type ReadStats, type TranscriptCursor, readTranscript } from '../../transcript/read.js'
import type { TranscriptEntry } from '../../transcript/types.js'
import { isObject } from '../../shared/json.js'
import { Seen, geminiLineParser, messagesEntries } from './lines.js'

/** An older `.json` session above this is not read (a chat file of that size would be a JSONL one). */
export const MAX_JSON_SESSION_BYTES = 64 * 1024 * 1024

/** Whether a file's first bytes are a single pretty-printed object (the older format), not a JSONL line. */
export function isJsonSession(head: string): boolean {
  return /^\s*\{\s*\r?\n/.test(head)
}

export async function readGeminiChat(
  path: string,
  cursor: TranscriptCursor | undefined,
  kept: readonly number[] | undefined,
  onEntry: (entry: TranscriptEntry) => void,
  options: ReadOptions = {},
): Promise<ReadStats & { seen: number[] }> {
  const fh = await open(path, 'r')
  let whole: Buffer | undefined
  try {
    const { size } = await fh.stat()
    const head = Buffer.alloc(Math.min(size, 256))
    await fh.read(head, 0, head.length, 0)
    if (isJsonSession(head.toString('utf8'))) {
      whole = Buffer.alloc(size <= MAX_JSON_SESSION_BYTES ? size : 0)
      if (whole.length > 0) await fh.read(whole, 0, size, 0)
      if (size > MAX_JSON_SESSION_BYTES) return { ...unread(cursor), oversized: 1, skipped: 1, seen: [...(kept ?? [])] }
    }
  } finally {
    await fh.close()
  }
  if (whole) return readJsonSession(whole, cursor, kept, onEntry, options)
  let seen = new Seen(kept)
  const stats = await readTranscript(path, cursor, (text, line) => geminiLineParser(seen)(text, line), onEntry, {
    ...options,
    onRestart: () => {
      seen = new Seen()
      options.onRestart?.()
    },
  })
  return { ...stats, seen: seen.toJSON() }
}

/** A read that took nothing: the cursor stays. */
function unread(cursor: TranscriptCursor | undefined): ReadStats {
  return {
    cursor: cursor ?? { offset: 0, lines: 0, head: '' },
    bytesRead: 0,
    lines: 0,
    skipped: 0,
    oversized: 0,
    restarted: false,
    partialTail: false,
    entries: 0,
  }
}

/**
 * The older session object: its messages not read before. The file is rewritten on every message, so the
 * cursor only tells whether it is the same session (its first bytes); the messages' ids say what is new. A
 * message's line is its place in the list (stable, as the list only grows).
 */
function readJsonSession(
  bytes: Buffer,
  cursor: TranscriptCursor | undefined,
  kept: readonly number[] | undefined,
  onEntry: (entry: TranscriptEntry) => void,
  options: ReadOptions,
): ReadStats & { seen: number[] } {
  const head = fingerprint(bytes.subarray(0, HEAD_BYTES))
  const restarted = cursor !== undefined && cursor.offset > 0 && cursor.head !== head
  if (restarted) options.onRestart?.()
  const seen = new Seen(restarted ? undefined : kept)
  const stats: ReadStats & { seen: number[] } = {
    cursor: { offset: bytes.length, lines: 0, head },
    bytesRead: bytes.length,
    lines: 0,
    skipped: 0,
    oversized: 0,
    restarted,
    partialTail: false,
    entries: 0,
    seen: [],
  }
  let session: unknown
  try {
    session = JSON.parse(bytes.toString('utf8'))
  } catch {
    // Caught mid-write, or not a session: left for the next read, which reads it whole again.
    return { ...unread(cursor), bytesRead: bytes.length, partialTail: true, seen: [...(kept ?? [])] }
  }
  const messages = isObject(session) && Array.isArray(session.messages) ? session.messages : []
  for (const entry of messagesEntries(messages, undefined, seen)) {
    stats.entries++
    onEntry(entry)
  }
  stats.lines = messages.length
  stats.cursor.lines = messages.length
  if (bytes.length > 0) stats.cursor.tail = fingerprint(bytes.subarray(Math.max(0, bytes.length - HEAD_BYTES)))
  stats.seen = seen.toJSON()
  return stats
}
