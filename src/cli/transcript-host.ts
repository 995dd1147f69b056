/** Whose transcript `bookmark snapshot` was given: told from its first line unless `--host` says. */
import { resolve } from 'node:path'
import type { Host, HostId } from '../hosts/host.js'
import { hostOf } from '../hosts/index.js'
import { codexSessionId, sniffHost } from '../hosts/codex/sniff.js'
import { readHead } from '../hosts/codex/transcripts.js'

/**
 * The host of `transcript` (or `forced`), and the session id when a Codex rollout names it (its file name or
 * `session_meta`): a rollout's file name is not its session id. No transcript, no `--host`: Claude Code.
 */
export async function transcriptHost(
  cwd: string,
  transcript: string | undefined,
  forced: HostId | undefined,
  sessionId: string | undefined,
): Promise<{ host?: Host; sessionId?: string }> {
  let head: string | undefined
  if (transcript !== undefined) head = await readHead(resolve(cwd, transcript), 64 * 1024).catch(() => undefined)
  const id = forced ?? (head !== undefined ? sniffHost(head) : undefined)
  if (id === undefined) return sessionId ? { sessionId } : {}
  const sid = sessionId ?? (id === 'codex' && transcript !== undefined ? codexSessionId(transcript, head) : undefined)
  return { host: hostOf(id), ...(sid ? { sessionId: sid } : {}) }
}
