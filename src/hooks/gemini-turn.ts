/**
 * Gemini CLI's BeforeAgent, before the check hook's own work: the answers Gemini cannot get at SessionStart.
 * Headless (`gemini -p`), the restore rides with the first prompt as its own part: SessionStart's context would be
 * glued onto the user's prompt and lost with it on resume. After a compression (no SessionStart follows), the
 * compact resume rides with the next prompt. Both once; the check's note otherwise.
 */
import { capture, storeOptions } from '../capture/capture.js'
import { redact } from '../redact/secrets.js'
import { cutToBudget } from '../restore/budget.js'
import { StoreReader } from '../store/reader.js'
import { ProjectStore } from '../store/store.js'
import { isFile } from '../store/fs.js'
import { scanChat } from '../hosts/gemini/compressed.js'
import type { HookContext } from './run.js'

/** The answer this BeforeAgent gives instead of the check's, or undefined to go on with the check. */
export async function geminiTurn(ctx: HookContext): Promise<unknown | undefined> {
  const sid = ctx.sessionId
  if (ctx.homeScope || !sid) return undefined
  const store = new ProjectStore(ctx.cfg.projectRoot, storeOptions(ctx.deps))
  const hooks = await new StoreReader(ctx.cfg.projectRoot, ctx.deps.bookmarkHome).readSessionHooks(sid)
  const transcript = ctx.transcript
  if (transcript && (await isFile(transcript))) {
    const last = hooks.chatScan?.path === transcript ? hooks.chatScan.bytes : undefined
    const scan = await scanChat(transcript, last ?? 0).catch(() => undefined)
    if (scan) {
      // The first look at a session's file only takes its place: a compression is news only after that.
      const compressed = last !== undefined && scan.compressed
      await store.updateSessionHooks(sid, (h) => ({
        ...h,
        chatScan: { path: transcript, bytes: scan.bytes },
        ...(compressed ? { compactions: h.compactions + 1, lastCompactAt: ctx.now.toISOString() } : {}),
      }))
      if (compressed) return compactAnswer(ctx, transcript, sid)
    }
  }
  if (hooks.restoredAt !== undefined || !ctx.host.headless(ctx.deps.env)) return undefined
  await store.updateSessionHooks(sid, (h) => ({ ...h, restoredAt: ctx.now.toISOString() }))
  // The SessionStart answer, as BeforeAgent context (Gemini takes it there as a part of its own after the prompt).
  const host = { ...ctx.host, inject: (_hook: 'restore' | 'check', text: string) => ctx.host.inject('check', text) }
  return (await import('./session-start.js')).restoreHookBody({ ...ctx, host, event: { ...ctx.event, source: 'startup' } })
}

async function compactAnswer(ctx: HookContext, transcript: string, sid: string): Promise<unknown | undefined> {
  const result = await capture({ host: ctx.host, cwd: ctx.cwd, project: ctx.project, trigger: 'pre_compact', transcript, sessionId: sid }, ctx.deps)
  const { compactResume, prepareAfterCapture, restoreText } = await import('./restore.js')
  await prepareAfterCapture(ctx, result)
  const text = result.snapshot ? await compactResume(ctx, ctx.project, result.snapshot) : await restoreText({ ...ctx, event: { ...ctx.event, source: 'compact' } })
  if (text === undefined || text.trim() === '') return undefined
  const given = cutToBudget(redact(text), ctx.cfg.resolved.config.compactBudget)
  await (await import('./session-start.js')).noteRestoreGiven(ctx, given, 'compact')
  return ctx.host.inject('check', given)
}
