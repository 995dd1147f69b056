/**
 * PreCompact: capture, count the compaction, and prepare the compact resume that restore injects when
 * the session comes back with source "compact". Claude Code discards this hook's output: it prints nothing.
 */
import { capture, storeOptions } from '../capture/capture.js'
import { ProjectStore } from '../store/store.js'
import { compactResume, prepareAfterCapture } from './restore.js'
import type { HookContext } from './run.js'

export async function precompactHook(ctx: HookContext): Promise<undefined> {
  // Gemini CLI fires PreCompress before every model call, compressed or not: its BeforeAgent finds compressions.
  if (ctx.homeScope || ctx.host.id === 'gemini') return undefined
  const result = await capture(
    {
      host: ctx.host,
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
  const text = await compactResume(ctx, ctx.project, result.snapshot)
  await store.writeCompactResume(result.sessionId, text)
  await prepareAfterCapture(ctx, result)
  return undefined
}
