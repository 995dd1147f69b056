/**
 * Whether a transcript is a Gemini CLI chat, from its first bytes, and its session id. Pure: the caller reads.
 * A 0.61 chat starts with its metadata (`sessionId`, `projectHash`), an older one-object session with `{` alone
 * on its line, and a chat without metadata with a message record (`type` user | gemini …, `content`, no `message`).
 */

const SESSION_ID = /"sessionId"\s*:\s*"([^"\\]{1,200})"/
const MESSAGE_TYPES = new Set(['user', 'gemini', 'info', 'warning', 'error'])

export function isGeminiChat(head: string): boolean {
  const text = head.trimStart()
  if (/^\{\s*\r?\n/.test(text)) return SESSION_ID.test(text.slice(0, 4096)) && /"(projectHash|messages)"\s*:/.test(text)
  const nl = text.indexOf('\n')
  const first = nl === -1 ? text : text.slice(0, nl)
  let r: unknown
  try {
    r = JSON.parse(first)
  } catch {
    // a first line cut by the head: the metadata's own keys say it
    return /^\{"sessionId"\s*:\s*"[^"]*"\s*,\s*"projectHash"\s*:/.test(first)
  }
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return false
  const rec = r as Record<string, unknown>
  if (typeof rec.sessionId === 'string' && typeof rec.projectHash === 'string') return true
  if (typeof rec.$set === 'object' && rec.$set !== null) return true
  return typeof rec.type === 'string' && MESSAGE_TYPES.has(rec.type) && 'content' in rec && !('message' in rec)
}

/** The session id a chat's first bytes name. */
export function geminiSessionId(head: string): string | undefined {
  return SESSION_ID.exec(head.slice(0, 4096))?.[1]
}
