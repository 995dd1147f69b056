/**
 * The SessionStart hook's body: the prepared startup answer when it is still good (prepared.ts), else the
 * answer computed now (restore.ts, loaded only then: most starts never need it). The size of what it gives is
 * noted for the project's continuity figures (store/stats.ts: one appended line).
 */
import { stateOf } from '../store/state.js'
import { noteRestore } from '../store/stats.js'
import { preparedRestore, restoreBudgetOf, wrapRestore } from './prepared.js'
import type { HookContext } from './run.js'

export async function restoreHookBody(ctx: HookContext): Promise<unknown | undefined> {
  // Headless Gemini glues SessionStart's context onto the user's prompt (lost with it on resume): its first BeforeAgent restores instead.
  if (ctx.host.id === 'gemini' && ctx.event.eventName === 'SessionStart' && ctx.host.headless(ctx.deps.env)) return undefined
  const prepared = await preparedRestore(ctx)
  const text = prepared ? prepared.text : await (await import('./restore.js')).restoreHookText(ctx)
  await noteRestoreGiven(ctx, text, ctx.event.source)
  return wrapRestore(ctx.host, text, restoreBudgetOf(ctx))
}

/** Notes a restore given in the project's figures (not one outside any project: that one is the pointer's project's). */
export async function noteRestoreGiven(ctx: HookContext, text: string | null | undefined, source: string | undefined): Promise<void> {
  if (ctx.homeScope || text === undefined || text === null || text.trim() === '') return
  const state = await stateOf(ctx.deps.bookmarkHome, ctx.project.root).catch(() => undefined)
  if (state) noteRestore(state.stats, text.length, source, ctx.now.getTime())
}
