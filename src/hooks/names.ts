/**
 * Where the hook commands' bodies live, for the command table (program.ts); the hooks themselves are the
 * table in table.ts. A body is loaded
 * only when its hook runs. The installed hooks do not come through here: bin/bookmark.cjs starts each
 * hook's own bundle (src/cli/hook-<name>.ts).
 */
import type { HookBody } from './run.js'
import type { HookName } from './table.js'

export { HOOK_TABLE as HOOKS, type HookName } from './table.js'

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
