/**
 * The hooks, in one table: the command table (program.ts), setup's settings entries (src/setup/hooks.ts),
 * the hook entries the bundler builds (src/cli/hook-<name>.ts) and bin/bookmark.cjs follow it; the plugin
 * manifest (hooks/hooks.json) and the settings snippet (templates/settings.hooks.json) are checked against it
 * by test/hookform.test.ts. Pure data, in the order of a session: the order setup
 * writes and reports the events in.
 */
export const HOOK_TABLE = [
  { name: 'restore', event: 'SessionStart', timeout: 15, description: 'SessionStart hook: what the new session should know, within the budget' },
  {
    name: 'check',
    event: 'UserPromptSubmit',
    timeout: 15,
    description: 'UserPromptSubmit hook: interval snapshot, and a refresh request when the context fills up',
  },
  {
    name: 'precompact',
    event: 'PreCompact',
    timeout: 60,
    description: 'PreCompact hook: capture, count the compaction, prepare the compact resume (prints nothing)',
  },
  { name: 'stop', event: 'Stop', timeout: 60, description: 'Stop hook: capture the turn, and ask once for the narrative handoff when it is stale' },
] as const

export type HookName = (typeof HOOK_TABLE)[number]['name']
/** Claude Code's event each hook runs on; `timeout` is in SECONDS, the unit Claude Code reads. */
export type HookEvent = (typeof HOOK_TABLE)[number]['event']

/**
 * Gemini CLI's event for each hook (its hooks read the same bodies): BeforeAgent is its UserPromptSubmit,
 * AfterAgent its Stop. No PreCompress: Gemini fires it before every model call, so the check hook (BeforeAgent)
 * finds a compression in the chat file instead.
 */
export const GEMINI_EVENTS = [
  { hook: 'restore', event: 'SessionStart', timeout: 15 },
  { hook: 'check', event: 'BeforeAgent', timeout: 15 },
  { hook: 'stop', event: 'AfterAgent', timeout: 60 },
] as const

export type GeminiEvent = (typeof GEMINI_EVENTS)[number]['event']
