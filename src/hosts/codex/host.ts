/**
 * Codex CLI as a host (host.ts says what each part is for). Its hook payload has Claude Code's field names
 * (session_id, transcript_path, cwd, hook_event_name, source, stop_hook_active, last_assistant_message …), and
 * its answers take exactly these keys: any other key makes Codex drop the whole output ("… Failed").
 */
import type { Host } from '../host.js'
import { readClaudePayload } from '../claude/payload.js'
import { parseLine } from './lines.js'

export const codexHost: Host = {
  id: 'codex',
  name: 'Codex CLI',
  readPayload: readClaudePayload,
  // Codex tells a hook nothing of `codex exec` (no variable, the same payload fields): the rollout's
  // `session_meta.originator` does, and that is read elsewhere. Treated as attended.
  headless: () => false,
  inject: (hook, text) => ({ hookSpecificOutput: { hookEventName: hook === 'restore' ? 'SessionStart' : 'UserPromptSubmit', additionalContext: text } }),
  // Never `hookSpecificOutput` on Stop: Codex rejects it and does not continue.
  block: (reason) => ({ decision: 'block', reason }),
  parseLine,
  findTranscript: async (cwd, sessionId, env) => (await import('./transcripts.js')).discoverRollout(cwd, sessionId, env),
}
