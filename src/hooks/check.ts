/**
 * UserPromptSubmit: runs on every prompt, so it does little. A time-based snapshot when `interval`
 * minutes have passed, and, when the context first crosses `contextThreshold` while the narrative is
 * stale, a note asking the model to refresh the handoff before compaction drops detail (only when someone
 * is at the keyboard, or narrativeInHeadless opts in).
 */
import { resolve } from 'node:path'
import { type WorkClock, isFuture, mayAskForNarrative } from '../narrative/freshness.js'
import { StoreReader } from '../store/reader.js'
import { contextWindowFor } from '../transcript/tail.js'
import type { HookContext } from './run.js'
import { isFile } from '../store/fs.js'

export async function checkHook(ctx: HookContext): Promise<unknown | undefined> {
  if (ctx.homeScope) return undefined
  if (ctx.host.id === 'gemini') {
    const answer = await (await import('./gemini-turn.js')).geminiTurn(ctx)
    if (answer !== undefined) return answer
  }
  const { config } = ctx.cfg.resolved
  let transcript = ctx.transcript
  let sessionId = ctx.sessionId
  if (!transcript) {
    const found = await ctx.host.findTranscript(resolve(ctx.cwd), sessionId, ctx.deps.env)
    transcript = found.path
    sessionId = found.sessionId
  }
  // The first prompt of a session may arrive before its transcript is written: nothing to do yet.
  if (!(await isFile(transcript))) return undefined
  const store = new StoreReader(ctx.cfg.projectRoot, ctx.deps.bookmarkHome)
  const writable = async () =>
    new (await import('../store/store.js')).ProjectStore(ctx.cfg.projectRoot, {
      bookmarkHome: ctx.deps.bookmarkHome,
      indexCap: config.indexCap,
      ...(ctx.deps.lockDeadline !== undefined ? { lockDeadline: ctx.deps.lockDeadline } : {}),
    })
  const sid = sessionId ?? transcript.replace(/^.*[\\/]/, '').replace(/\.jsonl$/i, '')
  const hooks = await store.readSessionHooks(sid)

  const nowMs = ctx.now.getTime()
  const last = hooks.lastIntervalSnapshotAt ? Date.parse(hooks.lastIntervalSnapshotAt) : Number.NaN
  // A last snapshot dated in the future (a clock that ran ahead) would stop interval snapshots for good: due.
  const due = !Number.isFinite(last) || nowMs - last >= config.interval * 60_000 || isFuture(last, nowMs)
  let work: WorkClock | undefined
  if (due) {
    const { capture } = await import('../capture/capture.js')
    const result = await capture({ host: ctx.host, cwd: ctx.cwd, project: ctx.project, transcript, sessionId: sid, trigger: 'interval' }, ctx.deps)
    work = result.work
    if (result.written) await (await import('./restore.js')).prepareAfterCapture(ctx, result)
    await (await writable()).updateSessionHooks(sid, (h) => ({ ...h, lastIntervalSnapshotAt: ctx.now.toISOString() }))
  }

  const usage = ctx.host.usage ? await ctx.host.usage(transcript, resolve(ctx.cwd), ctx.deps.env).catch(() => undefined) : undefined
  if (!usage) return undefined
  const window = contextWindowFor(usage.model, config.contextWindow, usage.tokens, usage.window)
  const ratio = usage.tokens / window
  if (ratio < config.contextThreshold) return undefined
  // The note would make the model write the handoff in a scripted run instead of answering (issue 16).
  if (!mayAskForNarrative(ctx.host.headless(ctx.deps.env), config.narrativeInHeadless === 1)) return undefined
  // Once per filling of the context: re-armed by a compaction.
  const warned = hooks.contextWarnedAt !== undefined && (hooks.lastCompactAt === undefined || hooks.contextWarnedAt > hooks.lastCompactAt)
  if (warned) return undefined
  work ??= (await store.loadCursor(sid)).head?.work
  if (!work) return undefined
  const { narrativeRequest, viewNarrative } = await import('../narrative/judge.js')
  const view = await viewNarrative(ctx.project, ctx.deps.bookmarkHome, work, hooks, config, ctx.now)
  if (view.freshness.fresh) return undefined
  await (await writable()).updateSessionHooks(sid, (h) => ({ ...h, contextWarnedAt: ctx.now.toISOString() }))
  const request = await narrativeRequest(ctx.project, ctx.deps.bookmarkHome, sid, ctx.now, view.freshness.reason)
  const { contextRefreshNote } = await import('../narrative/prompt.js')
  return ctx.host.inject('check', contextRefreshNote(request, Math.min(100, Math.round(ratio * 100)), ctx.host.writeTool))
}
