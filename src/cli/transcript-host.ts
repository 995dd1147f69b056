/**
 * Whose transcript `bookmark snapshot` was given: told from its first line unless `--host` says; given none, the
 * newest session of the folder in any host's store.
 */
import { resolve } from 'node:path'
import type { Host, HostId } from '../hosts/host.js'
import { hostOf } from '../hosts/index.js'
import { discoverAnyHost } from '../hosts/discover.js'
import { codexSessionId, sniffHost } from '../hosts/codex/sniff.js'
import { readHead } from '../hosts/codex/transcripts.js'
import { geminiSessionId } from '../hosts/gemini/sniff.js'
import { readStart } from '../hosts/gemini/transcripts.js'

/**
 * The host of `transcript` (or `forced`), and the session id when a Codex rollout (its file name or
 * `session_meta`) or a Gemini chat (its metadata) names it: neither file name is the session id. No transcript,
 * no `--host`: the session found in every host's store (`sessionId`'s, else the folder's newest), with the
 * `note` that says which it picked.
 */
export async function transcriptHost(
  cwd: string,
  transcript: string | undefined,
  forced: HostId | undefined,
  sessionId: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<{ host?: Host; sessionId?: string; transcript?: string; note?: string }> {
  if (transcript === undefined && forced === undefined) {
    const { host, found } = await discoverAnyHost(cwd, sessionId, env)
    return { host, sessionId: found.sessionId, transcript: found.path, ...(found.note ? { note: found.note } : {}) }
  }
  let head: string | undefined
  let start: string | undefined
  if (transcript !== undefined) {
    head = await readHead(resolve(cwd, transcript), 64 * 1024).catch(() => undefined)
    // An older Gemini session is one object over many lines: its first line alone is `{`.
    start = await readStart(resolve(cwd, transcript)).catch(() => undefined)
  }
  const sniffed = head !== undefined ? sniffHost(head.trim() === '{' && start !== undefined ? start : head) : undefined
  const id = forced ?? sniffed
  if (id === undefined) return sessionId ? { sessionId } : {}
  const sid =
    sessionId ??
    (id === 'codex' && transcript !== undefined
      ? codexSessionId(transcript, head)
      : id === 'gemini' && start !== undefined
        ? geminiSessionId(start)
        : undefined)
  return { host: hostOf(id), ...(sid ? { sessionId: sid } : {}) }
}
