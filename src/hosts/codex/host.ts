/**
 * Codex CLI as a host (host.ts says what each part is for). Its hook payload has Claude Code's field names
 * (session_id, transcript_path, cwd, hook_event_name, source, stop_hook_active, last_assistant_message …), and
 * its answers take exactly these keys: any other key makes Codex drop the whole output ("… Failed").
 */
import type { Host } from '../host.js'
import { readClaudePayload } from '../claude/payload.js'
import { cutToBudget } from '../../restore/budget.js'
import { parseLine } from './lines.js'
import { codexUsage } from './usage.js'
import { latestUsage } from '../../transcript/tail.js'
import { codexHeadless } from './headless.js'

/**
 * Codex replaces an additionalContext above 2,500 approximate tokens (its bytes / 4, about 10,000 characters)
 * with a preview and a file path: kept below that in bytes, whatever the text's alphabet.
 */
export const CODEX_CONTEXT_BYTES = 9_600

/** Codex replays every earlier SessionStart context on resume: the newest must say it wins. */
export const SUPERSEDES = 'This bookmark restore supersedes any earlier one in this conversation: where they differ, this one is current.'

/** `text` cut at line ends until its UTF-8 form fits `bytes`. */
export function withinBytes(text: string, bytes: number): string {
  // A character is at least one byte: cut to `bytes` characters, then in proportion to what is still over.
  let out = cutToBudget(text, bytes)
  for (let size = Buffer.byteLength(out); size > bytes; size = Buffer.byteLength(out)) out = cutToBudget(text, Math.floor((out.length * bytes) / size) - 1)
  return out
}

/** The restore after the line saying it supersedes earlier ones, both within `budget` characters. */
function superseding(text: string, budget?: number): string {
  const room = budget === undefined ? text.length : budget - SUPERSEDES.length - 2
  return `${SUPERSEDES}\n\n${cutToBudget(text, room)}`
}

export const codexHost: Host = {
  id: 'codex',
  name: 'Codex CLI',
  readPayload: readClaudePayload,
  // Codex tells a hook nothing of `codex exec` (no variable, the same payload fields): its command line does.
  headless: () => codexHeadless(),
  inject: (hook, text, budget) =>
    hook === 'restore'
      ? { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: withinBytes(superseding(text, budget), CODEX_CONTEXT_BYTES) } }
      : { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: withinBytes(text, CODEX_CONTEXT_BYTES) } },
  // Never `hookSpecificOutput` on Stop: Codex rejects it and does not continue.
  block: (reason) => ({ decision: 'block', reason }),
  // Codex has no Write tool: its model writes files with apply_patch.
  writeTool: 'apply_patch',
  parseLine,
  usage: (transcript) => latestUsage(transcript, codexUsage),
  findTranscript: async (cwd, sessionId, env) => (await import('./transcripts.js')).discoverRollout(cwd, sessionId, env),
}
