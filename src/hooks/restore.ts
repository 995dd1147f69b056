/**
 * SessionStart: give the new session what it needs to continue, within the budget.
 * startup/clear: the narrative when usable, plus the snapshot facts it does not cover;
 * compact: the compact resume of this very session; resume/fork: a short note of what changed since.
 * Outside any project, the home pointer leads to the last active project (one level, registered only).
 * Restore writes nothing but the line that notes its size (session-start.ts).
 */
import { basename } from 'node:path'
import { redact } from '../redact/secrets.js'
import { readNarrative } from '../narrative/file.js'
import { pointerTarget, readHomePointer } from '../narrative/pointer.js'
import { renderCompactResume } from '../restore/compact.js'
import { type NarrativeInput, renderRefusal, renderResumeNote, renderStartup, renderWarnings } from '../restore/render.js'
import { cutToBudget } from '../restore/budget.js'
import { didWork, sinceText, workAfter } from '../restore/recent.js'
import { type Staleness, describeAge, staleness } from '../restore/staleness.js'
import type { Snapshot } from '../snapshot/model.js'
import { Project } from '../repo/project.js'
import { ensureState } from '../store/state-write.js'
import { StoreReader } from '../store/reader.js'
import { PREPARED_VERSION, preparedTextOf, restoreBudgetOf, restoreKey } from './prepared.js'
import { forget, remember } from './remembered.js'
import type { CaptureResult } from '../capture/capture.js'
import type { HookContext } from './run.js'
import type { Wrapup } from '../memory/wrapup.js'
import { latestWrapup } from '../store/wrapups.js'
import { keepStatsSmall } from '../store/stats.js'
import { type HandoffBodies, handoffBodies } from './handoff-body.js'

export interface UsableNarrative {
  input?: NarrativeInput
  warnings: string[]
  /** Set when the narrative was refused for its age: how old it is. */
  refusedAge?: string
}

/** Until when an answer stays the same: the first moment one of its age verdicts changes (prepared.ts). */
interface Validity {
  untilMs: number
}

/** Narrows `validity` to the moment `age` stops being fresh; an answer with an age warning or refusal is never reused. */
function holdsWhile(validity: Validity | undefined, age: Staleness, warnHours: number, nowMs: number): void {
  if (!validity) return
  validity.untilMs = age.kind === 'fresh' ? Math.min(validity.untilMs, nowMs + Math.floor((warnHours - age.ageHours) * 3_600_000)) : Number.NEGATIVE_INFINITY
}

/**
 * The narrative of `project` if it may be injected, else why not (warnings are shown, content is not). `bodies`: its
 * body redacted as a capture kept it (handoff-body.ts), for the prepared restore.
 */
export async function usableNarrative(project: Project, ctx: HookContext, validity?: Validity, bodies?: HandoffBodies): Promise<UsableNarrative> {
  const { config } = ctx.cfg.resolved
  const path = project.layout.narrative
  const read = await readNarrative(path, project.root, await project.git(), ctx.deps.bookmarkHome)
  if (!read.state.exists) return { warnings: [] }
  if (read.state.tracked) {
    return {
      warnings: [
        `The .bookmark/bookmark.context.md in this repository is tracked by git (it came with the repository), so it was not loaded as instructions. Run \`bookmark show\` for this machine's own record.`,
      ],
    }
  }
  if (!read.identity || !read.verdict || read.body === undefined) return { warnings: [] }
  // Not sealed for this project by this user's bookmark (or not a repo handoff): nothing of it, not even a warning.
  if (read.verdict.kind !== 'match') return { warnings: [] }
  if (read.state.templateOnly || read.state.bytes <= 200) return { warnings: [] }
  const age = staleness(read.identity.written, read.mtimeMs, ctx.now.getTime(), { warnHours: config.staleWarnHours, refuseHours: config.staleRefuseHours })
  holdsWhile(validity, age, config.staleWarnHours, ctx.now.getTime())
  if (age.kind === 'refuse') return { warnings: [], refusedAge: describeAge(age.ageHours) }
  const input: NarrativeInput = {
    // Written by the model, not by our store: redacted before any line of it is shortened.
    body: bodies ? await bodies.redacted(read.body) : redact(read.body),
    identity: read.identity,
    notes: read.verdict.notes,
    path,
    ...(age.kind === 'warn'
      ? {
          staleWarning:
            age.basis === 'unknown'
              ? 'The handoff has no usable time; it may be out of date.'
              : `The handoff is ${describeAge(age.ageHours)} old; check it against the code before relying on it.`,
        }
      : {}),
  }
  return { input, warnings: [] }
}

/** `known`: a snapshot in hand as it was stored (the capture's own): used instead of reading it again when it is the one. */
async function latestSnapshot(store: StoreReader, sessionId?: string, known?: Snapshot): Promise<Snapshot | undefined> {
  const { index } = await store.readIndex()
  const entry = sessionId ? index.snapshots.find((e) => e.sessionId === sessionId) : index.snapshots[0]
  if (!entry) return undefined
  return entry.id === known?.id ? known : store.readSnapshot(entry.id)
}

/** What SessionStart injects, computed now: redacted and within the budget (undefined: nothing). */
export async function restoreHookText(ctx: HookContext): Promise<string | undefined> {
  const text = await restoreText(ctx)
  const budget = restoreBudgetOf(ctx)
  // The narrative was written by the model, not by our store: redact before it reaches the context.
  return text === undefined ? undefined : cutToBudget(redact(text), budget)
}

/**
 * After a hook's capture (Stop, check's interval snapshot, PreCompact): a new snapshot changes what the next
 * session is told, so its answer is prepared now (prepared.ts). Never fails the hook: without a prepared
 * answer the restore computes it.
 */
export async function prepareAfterCapture(ctx: HookContext, result: Pick<CaptureResult, 'written' | 'snapshot'>): Promise<void> {
  if (result.written) await prepareRestore(ctx, ctx.project, result.snapshot).catch(() => undefined)
}

/**
 * Prepares the startup restore of `project` for the next SessionStart. The key is taken before the answer is
 * made, so a file changed meanwhile makes it miss.
 */
async function prepareRestore(ctx: HookContext, project: Project, written?: Snapshot): Promise<void> {
  const { config } = ctx.cfg.resolved
  const key = await restoreKey(project, config)
  const validity: Validity = { untilMs: Number.POSITIVE_INFINITY }
  const state = await ensureState(ctx.deps.bookmarkHome, project.root)
  const bodies = handoffBodies(state.narrativeBody, redact)
  // Made of redacted inputs (restoreStartup, `inputs`): no pass over the whole text.
  const text = await restoreStartup({ ...ctx, homeScope: false }, project, [], validity, written, redact, bodies)
  await bodies.keep().catch(() => undefined)
  await keepStatsSmall(state.stats, ctx.now.getTime(), ctx.deps.lockDeadline).catch(() => undefined)
  if (!(validity.untilMs > ctx.now.getTime())) return forget(state.prepared) // an answer that changes with time: computed each time
  const final = text === undefined ? null : cutToBudget(text, config.restoreBudget)
  const validUntil = validity.untilMs === Number.POSITIVE_INFINITY ? Number.MAX_SAFE_INTEGER : validity.untilMs
  await remember(state.prepared, PREPARED_VERSION, key, { validUntil, text: final === null || final.trim() === '' ? null : final })
}

/** The text a new session receives for `source` (undefined: nothing). Shared with MCP and the demo. */
export async function restoreText(ctx: HookContext): Promise<string | undefined> {
  const source = ctx.event.source ?? 'startup'
  if (ctx.homeScope) return restoreFromHome(ctx)
  const { project } = ctx
  const store = new StoreReader(project.root, ctx.deps.bookmarkHome)
  switch (source) {
    case 'compact':
      return restoreCompact(ctx, project, store)
    case 'resume':
    case 'fork':
      return restoreResume(ctx, project, store)
    default:
      return restoreStartup(ctx, project, [])
  }
}

/**
 * `inputs`: given `redact`, every value that does not come from a stored snapshot or the narrative body (both
 * redacted already) is redacted here: the project's path and name, the store's paths, the warnings and notes
 * (they name git's branch and the narrative's identity), the line of what came after the handoff. The text is then
 * made only of redacted values and this code's own words, and needs no pass of its own (prepareRestore). `bodies`:
 * the narrative body as a capture kept it redacted (usableNarrative).
 */
async function restoreStartup(
  ctx: HookContext,
  project: Project,
  lead: string[],
  validity?: Validity,
  written?: Snapshot,
  inputs: (s: string) => string = (s) => s,
  bodies?: HandoffBodies,
): Promise<string | undefined> {
  const { config } = ctx.cfg.resolved
  const root = inputs(project.root)
  const name = inputs(basename(project.root))
  const layout = { latest: inputs(project.layout.latest), narrative: inputs(project.layout.narrative) }
  const store = new StoreReader(project.root, ctx.deps.bookmarkHome)
  const narrative = await usableNarrative(project, ctx, validity, bodies)
  const snapshot = await latestSnapshot(store, undefined, written)
  const warnings = [...lead, ...narrative.warnings]
  let usableSnapshot = snapshot
  if (snapshot) {
    const age = staleness(snapshot.createdAt, undefined, ctx.now.getTime(), { warnHours: config.staleWarnHours, refuseHours: config.staleRefuseHours })
    holdsWhile(validity, age, config.staleWarnHours, ctx.now.getTime())
    if (age.kind === 'refuse') usableSnapshot = undefined
    else if (age.kind === 'warn' && !narrative.input)
      warnings.push(`The latest snapshot is ${describeAge(age.ageHours)} old; check it against the code before relying on it.`)
    if (age.kind === 'refuse' && !narrative.input) return renderRefusal(name, describeAge(age.ageHours), layout.latest, warnings.map(inputs))
  }
  if (narrative.refusedAge) {
    if (!usableSnapshot) return renderRefusal(name, narrative.refusedAge, layout.narrative, warnings.map(inputs))
    warnings.push(`The handoff ${layout.narrative} is ${narrative.refusedAge} old and was not loaded (\`bookmark show\` shows the record).`)
  }
  // A wrap-up is stored redacted (src/memory/wrapup.ts), as a snapshot is.
  const wrapup = await usableWrapup(store, ctx, validity)
  if (!narrative.input && !usableSnapshot && !wrapup) return renderWarnings(warnings.map(inputs))
  const earlier = usableSnapshot && !didWork(usableSnapshot) ? await earlierWork(store, usableSnapshot, ctx, validity) : undefined
  const since = narrative.input ? await narrativeSince(project, narrative.input, [usableSnapshot, earlier]) : undefined
  const n = narrative.input
  return renderStartup({
    project: name,
    root,
    // The body was redacted when read (usableNarrative); its notes name branches and commits as git has them.
    ...(n ? { narrative: { ...n, notes: n.notes.map(inputs), path: inputs(n.path), ...(n.staleWarning ? { staleWarning: inputs(n.staleWarning) } : {}) } } : {}),
    ...(usableSnapshot ? { snapshot: usableSnapshot } : {}),
    ...(earlier ? { earlier } : {}),
    ...(since ? { narrativeSince: inputs(since) } : {}),
    ...(wrapup ? { wrapup } : {}),
    warnings: warnings.map(inputs),
    budget: config.restoreBudget,
    latestPath: layout.latest,
    narrativePath: layout.narrative,
  })
}

/** The project's latest wrap-up while it is younger than the refusal age (the prepared answer holds until then). */
async function usableWrapup(store: StoreReader, ctx: HookContext, validity?: Validity): Promise<Wrapup | undefined> {
  const found = await latestWrapup(store).catch(() => undefined)
  if (!found) return undefined
  const { config } = ctx.cfg.resolved
  const until = Date.parse(found.wrapup.createdAt) + config.staleRefuseHours * 3_600_000
  if (!(until > ctx.now.getTime())) return undefined
  if (validity) validity.untilMs = Math.min(validity.untilMs, until)
  return found.wrapup
}

/** Sessions looked at, newest first, for one that did work: a bound on the snapshots a restore reads. */
const EARLIER_SESSIONS = 5

/**
 * The newest snapshot of the most recent earlier session that did work (files, a commit, open tasks), when
 * its age is still fresh: past the warning age it is left out rather than shown with a warning, so the
 * answer changes only when it stops being fresh (`validity`).
 */
async function earlierWork(store: StoreReader, latest: Snapshot, ctx: HookContext, validity?: Validity): Promise<Snapshot | undefined> {
  const { config } = ctx.cfg.resolved
  const { index } = await store.readIndex()
  const seen = new Set([latest.session.id])
  for (const e of index.snapshots) {
    if (seen.has(e.sessionId)) continue // the newest snapshot of each session holds all of it
    seen.add(e.sessionId)
    if (seen.size > EARLIER_SESSIONS + 1) return undefined
    const age = staleness(e.createdAt, undefined, ctx.now.getTime(), { warnHours: config.staleWarnHours, refuseHours: config.staleRefuseHours })
    if (age.kind !== 'fresh') return undefined
    const snap = await store.readSnapshot(e.id)
    if (!snap || snap.session.id !== e.sessionId || !didWork(snap)) continue
    holdsWhile(validity, age, config.staleWarnHours, ctx.now.getTime())
    return snap
  }
  return undefined
}

/** What the snapshots record after the handoff was written (and a HEAD that moved since), as restore words it. */
async function narrativeSince(project: Project, n: NarrativeInput, snapshots: (Snapshot | undefined)[]): Promise<string | undefined> {
  const git = await project.git()
  const after = workAfter(
    n.identity.written,
    snapshots.filter((s): s is Snapshot => s !== undefined),
    {
      ...(n.identity.head ? { then: n.identity.head } : {}),
      ...(git.head ? { now: git.head } : {}),
      sameBranch: !n.identity.branch || !git.branch || n.identity.branch.trim() === git.branch.trim(),
    },
  )
  return sinceText(after)
}

async function restoreCompact(ctx: HookContext, project: Project, store: StoreReader): Promise<string | undefined> {
  const { config } = ctx.cfg.resolved
  const sid = ctx.sessionId
  if (sid) {
    const prepared = await store.readCompactResume(sid)
    if (prepared && prepared.trim() !== '' && prepared.length <= config.compactBudget) return prepared
  }
  const snapshot = await latestSnapshot(store, sid)
  if (!snapshot) {
    // No capture of this session yet: the startup text, fitted to the compact budget rather than cut to it.
    const resolved = { ...ctx.cfg.resolved, config: { ...config, restoreBudget: config.compactBudget } }
    return restoreStartup({ ...ctx, cfg: { ...ctx.cfg, resolved } }, project, [])
  }
  return compactResume(ctx, project, snapshot)
}

/** The compact resume of `snapshot`'s session, with git as the project has it now (PreCompact prepares it). */
export async function compactResume(ctx: HookContext, project: Project, snapshot: Snapshot): Promise<string> {
  const narrative = await usableNarrative(project, ctx)
  const git = await project.git()
  return renderCompactResume({
    project: snapshot.project.name,
    snapshot,
    ...(narrative.input ? { narrative: narrative.input } : {}),
    budget: ctx.cfg.resolved.config.compactBudget,
    latestPath: project.layout.latest,
    git: { ...(git.branch ? { branch: git.branch } : {}), ...(git.head ? { head: git.head } : {}) },
  })
}

async function restoreResume(ctx: HookContext, project: Project, store: StoreReader): Promise<string | undefined> {
  const sid = ctx.sessionId
  if (!sid) return undefined
  const { head } = await store.loadCursor(sid)
  if (!head) return undefined
  const since = head.updatedAt
  const { index } = await store.readIndex()
  const changes: { sessionId: string; snapshotId: string; createdAt: string; files: string[] }[] = []
  for (const e of index.snapshots) {
    if (e.sessionId === sid || e.createdAt <= since) continue
    if (changes.some((c) => c.sessionId === e.sessionId)) continue // the newest snapshot of each other session
    const snap = await store.readSnapshot(e.id)
    if (snap)
      changes.push({
        sessionId: e.sessionId,
        snapshotId: e.id,
        createdAt: e.createdAt,
        files: snap.files.filter((f) => !f.lastTs || f.lastTs > since).map((f) => f.path),
      })
    if (changes.length >= 5) break
  }
  const git = await project.git()
  const was = head.branch
  const branchNote = git.branch && was && git.branch !== was ? `The branch is now ${git.branch}; this session last worked on ${was}.` : undefined
  return renderResumeNote({
    project: basename(store.layout.root),
    changes,
    ...(branchNote ? { branchNote } : {}),
    budget: ctx.cfg.resolved.config.restoreBudget,
  })
}

async function restoreFromHome(ctx: HookContext): Promise<string | undefined> {
  const text = await readHomePointer(ctx.deps.bookmarkHome)
  if (!text) return undefined
  const target = await pointerTarget(text, ctx.deps.bookmarkHome)
  if (!target.ok) {
    // A project whose path is stored redacted (a folder named like a token) is found by its folder in the home:
    // the answer its last capture prepared is shown while it holds.
    const kept = target.projectId ? await preparedTextOf(ctx.deps.bookmarkHome, target.projectId, ctx.now) : undefined
    if (kept)
      return `${renderWarnings([`This session started outside any project. The last active project is ${target.project ?? 'unknown'}; what follows is its handoff.`])}\n${kept}`
    return renderWarnings([`session-bookmark: ${target.reason}.`])
  }
  const lead = [
    `This session started outside any project. The last active project is ${basename(target.projectRoot)} (${target.projectRoot}); what follows is its handoff.`,
  ]
  return restoreStartup(ctx, new Project(target.projectRoot), lead) // the pointer's project, opened for this run
}
