/**
 * `bookmark forget SNAP_ID | --session ID | --all`: removes snapshots and everything derived from them (the
 * store's part in src/store/forget.ts), then their registry entries and, when it names this project, the
 * home pointer's quote of them. The narrative handoff is the model's text: only --all removes it (asked for).
 * --session and --all also forget the session's (the project's) wrap-ups and its events in the search memory
 * (src/memory/forget.ts), first: when the memory lock cannot be had, nothing is forgotten and a rerun can do it all.
 */
import { basename, resolve } from 'node:path'
import type { Readable } from 'node:stream'
import { readHomePointer, writeHomePointer } from '../narrative/pointer.js'
import { parseNarrative } from '../restore/identity.js'
import { lstatOrNone, removeFile } from '../shared/fsp.js'
import { untilDeadline } from '../store/lock.js'
import { wrapupsOf } from '../store/wrapups.js'
import { candidates, forgetSnapshots } from '../store/forget.js'
import { readGitInfo } from '../repo/git.js'
import { homeLayout, isSnapshotId } from '../store/layout.js'
import { forgetInRegistry } from '../store/registry.js'
import type { IndexEntry, ProjectStore } from '../store/store.js'
import { openProject } from '../capture/capture.js'
import type { Deps } from '../shared/deps.js'
import { InputError, LockTimeoutError, UserError } from '../shared/errors.js'

export interface ForgetOptions {
  id?: string
  session?: string
  all?: boolean
  yes?: boolean
  keepHandoff?: boolean
  cwd: string
}

export interface ForgetContext {
  deps: Deps
  stdin: Readable & { isTTY?: boolean }
  /** Asks a yes/no question (tests); default: on the terminal. */
  confirm?: (question: string) => Promise<boolean>
}

export interface ForgetResult {
  projectRoot: string
  forgotten: string[]
  /** Sessions whose capture starts over (cursor and state removed). */
  resetSessions: string[]
  remaining: number
  /** What LATEST.md now shows; null when no snapshot is left (LATEST.md removed). */
  latest: string | null
  registryRemoved: number
  handoff: 'removed' | 'kept' | 'none'
  /** Wrap-ups removed from .bookmark/wrapups/ (--session: the session's; --all: every one of this user's). */
  wrapupsRemoved: number
  /** Events dropped from the search memory (0 without a memory store). */
  searchEventsRemoved: number
  notes: string[]
}

const ID_FORM = 'expected the form SNAP_yyyymmdd_hhmmss_mmm_hhhh, as printed by `bookmark list`'

export async function forget(opts: ForgetOptions, ctx: ForgetContext): Promise<ForgetResult> {
  const { deps } = ctx
  const chosen = [opts.id !== undefined, opts.session !== undefined, opts.all === true].filter(Boolean).length
  if (chosen !== 1) throw new InputError('forget needs exactly one of: a snapshot id, --session ID, --all (see `bookmark forget --help`)')
  if (opts.id !== undefined && !isSnapshotId(opts.id)) throw new InputError(`not a snapshot id: "${opts.id}" (${ID_FORM})`)
  if (opts.session !== undefined && opts.session.trim() === '') throw new InputError('--session needs a session id (as printed by `bookmark list`)')
  if (opts.keepHandoff && !opts.all) throw new InputError('--keep-handoff goes with --all: only --all removes the handoff')

  const store = await openProject(resolve(opts.cwd), deps)
  const root = store.layout.root
  const all = await candidates(store)
  const picked = pick(all, opts)
  if (picked.length === 0) {
    if (opts.id !== undefined) throw new InputError(`snapshot ${opts.id} does not exist in ${store.layout.snapshots} (see \`bookmark list\`)`)
    if (opts.session !== undefined) throw new InputError(`session ${opts.session} has no snapshots in ${store.layout.dir} (see \`bookmark list\`)`)
    throw new InputError(`no snapshots in ${store.layout.dir}: nothing to forget`)
  }
  const handoffThere = (await lstatOrNone(store.layout.narrative))?.isFile() === true
  const removeHandoff = opts.all === true && !opts.keepHandoff && handoffThere
  if (opts.all && !opts.yes) await confirmAll(ctx, root, picked.length, removeHandoff ? store.layout.narrative : undefined)

  const resetSessions = opts.session !== undefined ? [opts.session] : opts.all ? [...new Set(all.map((e) => e.sessionId))].sort() : []
  // A snapshot alone leaves its session: its wrap-ups and search events stay with it.
  const wrapups = opts.id === undefined ? await wrapupsOf(store, opts.session) : []
  let searchEventsRemoved = 0
  if (opts.id === undefined) {
    // The sessions' transcripts as their capture state names them (forgetSnapshots removes that state).
    const transcripts: { path: string; session: string }[] = []
    for (const session of resetSessions) {
      const head = (await store.loadCursor(session).catch(() => ({}) as { head?: undefined })).head
      if (head) transcripts.push({ path: head.transcript, session })
    }
    const { forgetMemory } = await import('../memory/forget.js')
    try {
      const done = await forgetMemory(
        deps.bookmarkHome,
        deps.env,
        { sessions: resetSessions, wrapups, transcripts, ...(opts.all ? { project: root } : {}) },
        untilDeadline(deps.lockDeadline),
      )
      searchEventsRemoved = done?.events ?? 0
    } catch (e) {
      if (!(e instanceof LockTimeoutError)) throw e
      throw new UserError(
        'the search memory is busy (another bookmark process is writing its index): nothing was forgotten; run the same forget again in a moment',
      )
    }
  }
  // The session locks before the project lock, as a capture takes them: its cursor cannot be written behind our
  // back. In one order (sorted), so that two forgets never wait on each other.
  const outcome = await underSessionLocks(store, resetSessions, () =>
    forgetSnapshots(store, { select: (now) => new Set(pick(now, opts).map((e) => e.id)), resetSessions, resetAll: opts.all === true, removeHandoff }),
  )
  for (const path of wrapups) await removeFile(path)
  const ids = new Set(outcome.forgotten.map((e) => e.id))
  const registryRemoved = await forgetInRegistry(deps.bookmarkHome, root, ids)
  const notes: string[] = []
  await repointHome(store, deps, outcome.latest).catch((e: Error) => notes.push(`home pointer not updated: ${e.message}`))

  if (opts.id !== undefined) {
    const sid = outcome.forgotten[0]?.sessionId
    const left = outcome.remaining.filter((e) => e.sessionId === sid).length
    const cursor = sid === undefined ? {} : await store.loadCursor(sid)
    if (sid !== undefined && (left > 0 || cursor.head)) {
      notes.push(
        `each snapshot holds its whole session so far: session ${sid} still has ${left} snapshot${left === 1 ? '' : 's'}${cursor.head ? ' and its capture state' : ''}, which hold what this one held, and the session's next snapshot holds it again; \`bookmark forget --session ${sid}\` forgets them all`,
      )
    }
  }
  // Forgetting the capture does not prevent the next one: the transcript is the user's (Claude Code's), not ours to delete.
  const again =
    "bookmark reads its transcript again from the start; the transcript is Claude Code's (under ~/.claude/projects), not bookmark's, and forget leaves it alone"
  if (opts.all) notes.push(`every session starts over: if one goes on, or is captured by hand, ${again.replace('its transcript', 'its whole transcript')}`)
  else for (const sid of resetSessions) notes.push(`session ${sid} starts over: if it goes on, or is captured by hand, ${again}`)
  const handoff = outcome.handoffRemoved ? 'removed' : handoffThere ? 'kept' : 'none'
  if (handoff === 'kept')
    notes.push(
      `the handoff ${store.layout.narrative} was written by the model and is kept: it may still mention what was forgotten (edit or delete it yourself${opts.all ? '' : ', or use --all'})`,
    )
  return {
    projectRoot: root,
    forgotten: outcome.forgotten.map((e) => e.id),
    resetSessions,
    remaining: outcome.remaining.length,
    latest: outcome.latest?.id ?? null,
    registryRemoved,
    handoff,
    wrapupsRemoved: wrapups.length,
    searchEventsRemoved,
    notes,
  }
}

function pick(all: IndexEntry[], opts: ForgetOptions): IndexEntry[] {
  if (opts.id !== undefined) return all.filter((e) => e.id === opts.id)
  if (opts.session !== undefined) return all.filter((e) => e.sessionId === opts.session)
  return all
}

async function confirmAll(ctx: ForgetContext, root: string, count: number, handoff: string | undefined): Promise<void> {
  const what = `all ${count} snapshot${count === 1 ? '' : 's'} of ${root} (with LATEST.md, the trail, their registry entries, every session's capture state, the project's wrap-ups and its events in the search memory)${handoff ? ` and delete the handoff ${handoff} (--keep-handoff keeps it)` : ''}`
  if (!ctx.confirm && !ctx.stdin.isTTY) throw new InputError(`--all forgets ${what}: confirm in a terminal, or add --yes`)
  const { ttyConfirm } = await import('../setup/command.js')
  const ok = await (ctx.confirm ?? ((q: string) => ttyConfirm(ctx.stdin, q)))(`Forget ${what}? [y/N] `)
  if (!ok) throw new InputError('cancelled: nothing was forgotten')
}

function underSessionLocks<T>(store: ProjectStore, sessions: string[], fn: () => Promise<T>): Promise<T> {
  const [first, ...rest] = sessions
  return first === undefined ? fn() : store.withSessionLock(first, () => underSessionLocks(store, rest, fn))
}

/**
 * The home pointer quotes the latest request of the project it names: when that is this project, it is
 * written again from the newest snapshot left, or removed when none is left (a project without snapshots
 * leaves the registry, and the pointer would not be followed there anyway).
 */
async function repointHome(store: ProjectStore, deps: Deps, latest: { task: string | null; session: { id: string } } | undefined): Promise<void> {
  const text = await readHomePointer(deps.bookmarkHome)
  if (text === undefined) return
  const parsed = parseNarrative(text)
  if (!parsed.ok) return
  const state = await store.state()
  const id = parsed.identity
  const ours = id.points_to_canonical === store.layout.narrative || (state !== undefined && id.project_id === basename(state.dir))
  if (!ours) return
  const root = store.layout.root
  if (!latest) return removeFile(homeLayout(deps.bookmarkHome).pointer)
  const git = await readGitInfo(root)
  await writeHomePointer(deps.bookmarkHome, { projectRoot: root, project: basename(root), sessionId: latest.session.id, task: latest.task, ...git }, deps.now())
}

export function forgetText(r: ForgetResult): string {
  const n = r.forgotten.length
  const lines = [`Forgot ${n} snapshot${n === 1 ? '' : 's'} of ${r.projectRoot}: ${r.forgotten.join(', ')}`]
  lines.push(
    r.latest ? `LATEST.md now shows ${r.latest} (${r.remaining} snapshot${r.remaining === 1 ? '' : 's'} left).` : 'No snapshot left: LATEST.md removed.',
  )
  if (r.registryRemoved > 0) lines.push(`Removed ${r.registryRemoved} registry entr${r.registryRemoved === 1 ? 'y' : 'ies'}.`)
  if (r.handoff === 'removed') lines.push('Removed the handoff .bookmark/bookmark.context.md.')
  if (r.wrapupsRemoved > 0) lines.push(`Removed ${r.wrapupsRemoved} wrap-up${r.wrapupsRemoved === 1 ? '' : 's'} from .bookmark/wrapups/.`)
  if (r.searchEventsRemoved > 0)
    lines.push(
      `Dropped ${r.searchEventsRemoved} event${r.searchEventsRemoved === 1 ? '' : 's'} from the search memory (\`bookmark search\` no longer finds them).`,
    )
  for (const note of r.notes) lines.push(`Note: ${note}.`)
  return lines.join('\n')
}
