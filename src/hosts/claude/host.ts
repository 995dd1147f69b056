/** Claude Code as a host: its payload, its answers, its transcripts (host.ts says what each part is for). */
import type { Host } from '../host.js'
import { parseLine } from './lines.js'
import { isHeadless, readClaudePayload } from './payload.js'
import { claudeUsage } from './usage.js'
import { latestUsage } from '../../transcript/tail.js'

export const claudeHost: Host = {
  id: 'claude',
  name: 'Claude Code',
  readPayload: readClaudePayload,
  headless: isHeadless,
  inject: (hook, text) => ({ hookSpecificOutput: { hookEventName: hook === 'restore' ? 'SessionStart' : 'UserPromptSubmit', additionalContext: text } }),
  block: (reason) => ({ decision: 'block', reason }),
  writeTool: 'your Write tool',
  parseLine,
  usage: (transcript) => latestUsage(transcript, claudeUsage),
  // Loaded when a transcript must be looked for: hooks are given theirs.
  findTranscript: async (cwd, sessionId, env) => (await import('./transcripts.js')).discoverTranscript(cwd, sessionId, env),
}
