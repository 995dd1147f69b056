/**
 * The SessionStart hook's body: the prepared startup answer when it is still good (prepared.ts), else the
 * answer computed now (restore.ts, loaded only then: most starts never need it).
 */
import { preparedRestore, wrapRestore } from './prepared.js'
import type { HookContext } from './run.js'

export async function restoreHookBody(ctx: HookContext): Promise<unknown | undefined> {
  // Headless Gemini glues SessionStart's context onto the user's prompt (lost with it on resume): its first BeforeAgent restores instead.
  if (ctx.host.id === 'gemini' && ctx.event.eventName === 'SessionStart' && ctx.host.headless(ctx.deps.env)) return undefined
  const prepared = await preparedRestore(ctx)
  if (prepared) return wrapRestore(ctx.host, prepared.text)
  return (await import('./restore.js')).restoreHook(ctx)
}
