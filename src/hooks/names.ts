/**
 * The hook commands and where their bodies live, for the command table (program.ts). A body is loaded
 * only when its hook runs. The installed hooks do not come through here: bin/bookmark.cjs starts each
 * hook's own bundle (src/cli/hook-<name>.ts).
 */
import type { HookBody } from './run.js'

export const HOOKS = [
  { name: 'stop', event: 'Stop', description: 'Stop hook: capture the turn, and ask once for the narrative handoff when it is stale' },
  { name: 'precompact', event: 'PreCompact', description: 'PreCompact hook: capture, count the compaction, prepare the compact resume (prints nothing)' },
  { name: 'check', event: 'UserPromptSubmit', description: 'UserPromptSubmit hook: interval snapshot, and a refresh request when the context fills up' },
  { name: 'restore', event: 'SessionStart', description: 'SessionStart hook: what the new session should know, within the budget' },
] as const

export type HookName = (typeof HOOKS)[number]['name']

/** The body of a hook, loaded on first call. */
export function hookBody(name: HookName): HookBody {
  switch (name) {
    case 'stop':
      return async (ctx) => (await import('./stop.js')).stopHook(ctx)
    case 'precompact':
      return async (ctx) => (await import('./precompact.js')).precompactHook(ctx)
    case 'check':
      return async (ctx) => (await import('./check.js')).checkHook(ctx)
    case 'restore':
      return async (ctx) => (await import('./session-start.js')).restoreHookBody(ctx)
  }
}
