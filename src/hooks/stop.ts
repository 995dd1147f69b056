/**
 * Stop: capture what the turn added, then ask the model once for the narrative handoff when it is stale
 * and the session did meaningful work, and someone is there to see the answer (not in claude -p, unless
 * narrativeInHeadless opts in).
 */
import { decideStop, workSinceClock } from '../narrative/freshness.js'
import { capture, storeOptions } from '../capture/capture.js'
import { StoreReader } from '../store/reader.js'
import { narrativeRequest, viewNarrative } from '../narrative/judge.js'
import type { HookContext } from './run.js'
import { crypto } from '../shared/builtin.js'

/**
 * A prompt's key, not the prompt: the store keeps no request text outside the redacted snapshot. node:crypto
 * loads only here (Gemini turns): loading it costs a Stop with nothing new more than the rest of its work.
 */
function turnKey(prompt: string): string {
  return crypto().createHash('sha256').update(prompt).digest('hex').slice(0, 16)
}

export async function stopHook(ctx: HookContext): Promise<unknown | undefined> {
  if (ctx.homeScope) return undefined
  const { config } = ctx.cfg.resolved
  const { project } = ctx // one for the whole run: the root found once, git read at most once
  const result = await capture(
    {
      host: ctx.host,
      cwd: ctx.cwd,
      project,
      trigger: 'stop',
      ...(ctx.transcript ? { transcript: ctx.transcript } : {}),
      ...(ctx.sessionId ? { sessionId: ctx.sessionId } : {}),
      // While continuing because of a Stop hook (ours: writing the handoff), the last message is a reply
      // to that hook, not the session's last word.
      ...(ctx.event.lastAssistantMessage !== undefined && ctx.event.stopHookActive !== true ? { lastAssistantMessage: ctx.event.lastAssistantMessage } : {}),
    },
    ctx.deps,
  )
  if (result.written) await (await import('./restore.js')).prepareAfterCapture(ctx, result) // the restore code loads only then
  const hooks = await new StoreReader(result.projectRoot, ctx.deps.bookmarkHome).readSessionHooks(result.sessionId)
  const view = await viewNarrative(project, ctx.deps.bookmarkHome, result.work, hooks, config, ctx.now, result.written)
  // Gemini CLI: a retry after our block has the user's prompt again; its stop_hook_active cannot be trusted.
  const turn = ctx.host.id === 'gemini' && ctx.event.prompt !== undefined ? turnKey(ctx.event.prompt) : undefined
  const decision = decideStop({
    stopHookActive: ctx.event.stopHookActive === true || (turn !== undefined && hooks.blockTurn === turn),
    freshness: view.freshness,
    hooks,
    work: view.work,
    ...(hooks.lastBlockAt ? { workSinceBlock: workSinceClock(result.work, hooks.lastBlockAt) } : {}),
    nowMs: ctx.now.getTime(),
    maxBlocks: config.maxNarrativeBlocks,
    refreshMinutes: config.narrativeRefreshMinutes,
    requestsThreshold: config.narrativeRequests,
    headless: ctx.host.headless(ctx.deps.env),
    narrativeInHeadless: config.narrativeInHeadless === 1,
  })
  if (!decision.block) return undefined
  const blockedAt = ctx.now.toISOString()
  const { ProjectStore } = await import('../store/store.js')
  await new ProjectStore(result.projectRoot, storeOptions(ctx.deps)).updateSessionHooks(result.sessionId, (h) => ({
    ...h,
    blocks: h.blocks + 1,
    lastBlockAt: blockedAt,
    ...(turn !== undefined ? { blockTurn: turn } : {}),
  }))
  const [request, { stopBlockReason }] = await Promise.all([
    narrativeRequest(project, ctx.deps.bookmarkHome, result.sessionId, ctx.now, view.freshness.reason),
    import('../narrative/prompt.js'),
  ])
  return ctx.host.block(stopBlockReason(request, ctx.host.writeTool))
}
