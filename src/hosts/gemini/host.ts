/**
 * Gemini CLI (0.61) as a host (host.ts says what each part is for). Its hook payload has Claude Code's names for
 * what bookmark reads (session_id, transcript_path, cwd, hook_event_name, source, stop_hook_active, trigger,
 * prompt); only JSON `hookSpecificOutput.additionalContext` reaches its model (plain text is shown, never sent).
 */
import type { Host } from '../host.js'
import { readClaudePayload } from '../claude/payload.js'
import { parseLine } from './lines.js'
import { readGeminiChat } from './read.js'
import { geminiHeadless } from './headless.js'
import { cutToBudget } from '../../restore/budget.js'

/** Gemini passes any additionalContext whole (60,000 characters were seen): bookmark keeps its own below this. */
export const GEMINI_CONTEXT_CHARS = 12_000

const HOOK_CONTEXT = /<hook_context>[\s\S]*?<\/hook_context>\s*/g

export const geminiHost: Host = {
  id: 'gemini',
  name: 'Gemini CLI',
  writeTool: 'write_file',
  readPayload: (text, truncated) => {
    const read = readClaudePayload(text, truncated)
    // Headless, the SessionStart context is glued in front of the prompt (`<hook_context>…</hook_context>\n\n`).
    // AfterAgent's `prompt_response` is not read as the last message: it is concatenated across retries.
    if (read.event.prompt !== undefined) read.event.prompt = read.event.prompt.replace(HOOK_CONTEXT, '').trim()
    return read
  },
  // The hook's environment is the same for `gemini -p` and the interactive CLI (GEMINI_* variables, no mode):
  // the Gemini process's command line tells (headless.ts).
  headless: () => geminiHeadless(),
  // SessionStart's context is the interactive restore; BeforeAgent's rides with each prompt (the headless
  // restore, the compact resume and the check): both verified with 0.61 in exactly this shape.
  inject: (hook, text) => ({
    hookSpecificOutput: { hookEventName: hook === 'restore' ? 'SessionStart' : 'BeforeAgent', additionalContext: cutToBudget(text, GEMINI_CONTEXT_CHARS) },
  }),
  // AfterAgent: the reason comes back to the model as a new user turn.
  block: (reason) => ({ decision: 'block', reason }),
  parseLine,
  read: readGeminiChat,
  usage: async (transcript, cwd, env) => (await import('./usage.js')).geminiUsage(transcript, cwd, env),
  findTranscript: async (cwd, sessionId, env) => (await import('./transcripts.js')).discoverChat(cwd, sessionId, env),
}
