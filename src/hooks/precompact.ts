/**
 * PreCompact: capture, count the compaction, and prepare the compact resume that restore injects when
 * the session comes back with source "compact". Claude Code discards this hook's output: it prints nothing.
 */
import { capture, storeOptions } from '../capture/capture.js'
import { renderCompactResume } from '../restore/compact.js'
import { ProjectStore } from '../store/store.js'
import { prepareAfterCapture, usableNarrative } from './restore.js'
import type { HookContext } from './run.js'

export async function precompactHook(ctx: HookContext): Promise<undefined> {
  if (ctx.homeScope) return undefined
  const { config } = ctx.cfg.resolved
  const result = await capture(
    {
      cwd: ctx.cwd,
      project: ctx.project,
      trigger: 'pre_compact',
      ...(ctx.transcript ? { transcript: ctx.transcript } : {}),
      ...(ctx.sessionId ? { sessionId: ctx.sessionId } : {}),
    },
    ctx.deps,
  )
  const store = new ProjectStore(result.projectRoot, storeOptions(ctx.deps))
  await store.updateSessionHooks(result.sessionId, (h) => ({ ...h, compactions: h.compactions + 1, lastCompactAt: ctx.now.toISOString() }))
  if (!result.snapshot) return undefined
  const narrative = await usableNarrative(ctx.project, ctx)
  const text = renderCompactResume({
    project: result.snapshot.project.name,
    snapshot: result.snapshot,
    ...(narrative.input ? { narrative: narrative.input } : {}),
    budget: config.restoreBudget,
    latestPath: ctx.project.layout.latest,
  })
  await store.writeCompactResume(result.sessionId, text)
  await prepareAfterCapture(ctx, result)
  return undefined
}
