/**
 * Whether Gemini CLI compressed a session since the last look: after a compression its chat file gets a
 * `{"$set":{"messages":[…]}}` checkpoint whose history starts again from a `<state_snapshot>` summary. Gemini
 * fires no SessionStart then (and PreCompress before every model call), so this is how a hook learns of it.
 * Reads only the bytes past `from`, whole lines only.
 */
import { open } from 'node:fs/promises'
import { isObject } from '../../shared/json.js'

/** Bytes read at most per look: a longer stretch is looked at from its end (a compression is recent). */
const MAX_SCAN = 4 * 1024 * 1024

export interface ChatScan {
  /** Where the next look starts: the end of the last whole line. */
  bytes: number
  compressed: boolean
}

/** A compression checkpoint: a history rebuilt as session context, the `<state_snapshot>` turn and the model's acknowledgement. */
export function isCompressionCheckpoint(line: string): boolean {
  if (!line.startsWith('{"$set":{"messages"') || !line.includes('<state_snapshot>')) return false
  let rec: unknown
  try {
    rec = JSON.parse(line)
  } catch {
    return false
  }
  const messages = isObject(rec) && isObject(rec.$set) ? rec.$set.messages : undefined
  if (!Array.isArray(messages)) return false
  // A resume rewrites the whole history too (the old summary included): a compression's holds little after it.
  const at = messages.findIndex(
    (m) =>
      isObject(m) &&
      m.type === 'user' &&
      Array.isArray(m.content) &&
      m.content.some((p) => isObject(p) && typeof p.text === 'string' && p.text.trimStart().startsWith('<state_snapshot>')),
  )
  return at >= 0 && messages.length - at <= 2
}

export async function scanChat(path: string, from: number): Promise<ChatScan> {
  const fh = await open(path, 'r')
  try {
    const size = (await fh.stat()).size
    // A file shorter than before was replaced: looked at again from its start.
    const start = from > size ? 0 : Math.max(from, size - MAX_SCAN)
    const buf = Buffer.alloc(size - start)
    const { bytesRead } = await fh.read(buf, 0, buf.length, start)
    const text = buf.subarray(0, bytesRead).toString('utf8')
    const end = text.lastIndexOf('\n')
    if (end < 0) return { bytes: start, compressed: false }
    const lines = text.slice(0, end).split('\n')
    return { bytes: start + Buffer.byteLength(text.slice(0, end + 1)), compressed: lines.some(isCompressionCheckpoint) }
  } finally {
    await fh.close()
  }
}
