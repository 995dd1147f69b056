/**
 * Where everything lives. Pure: paths in, paths out.
 *
 *   <project>/.bookmark/              the project's record: sealed with this user's key (trust/mac.ts) where read back
 *     .gitignore                  "*": keeps the store out of git without touching the user's .gitignore
 *     index.json                  newest first (by the store's own sequence), capped
 *     LATEST.md                   the latest snapshot, for people and models
 *     snapshots/SNAP_<utc>_<hex>.json
 *     trails/files.json, files.md running per-file trail
 *     wrapups/WRAP_<utc>_<hex>.json  end-of-session milestones (store/wrapups.ts)
 *     bookmark.context.md         the narrative handoff, written by the model (trusted by its keyed seal)
 *   <bookmark home = ~/.bookmark>/
 *     key                         this user's secret (trust/key.ts)
 *     registry.json               cross-project index
 *     projects/<id>/              one project's machine-local state (id: a keyed hash of its root)
 *       cursors/<session>.json      cursor head: transcript offset, work times, last snapshot (small)
 *       cursors/<session>.state.json  the session's extraction state (read when there is something new)
 *       sessions/<session>.json     what the hooks remember per session (narrative blocks, compactions)
 *       sessions/<session>.compact.md  the compact resume prepared by PreCompact
 *       restore.prepared.json, narrative.state.json  answers kept for the next hook
 *       config.json                 project configuration
 *       errors.log                  hook failures (capped)
 *       stats.jsonl                 restores given and handoffs written, a line each (store/stats.ts; capped)
 *       store.lock                  the project lock
 *
 * What a hook reads on every call lives in the home, which no repository can write into: a project's own
 * folder can arrive with a clone, and checking a seal there would cost a light hook more than its work.
 */
import { crypto } from '../shared/builtin.js'
import { join, sep } from 'node:path'

import { STORE_DIR } from '../shared/names.js'

export { STORE_DIR }

export interface ProjectLayout {
  root: string
  dir: string
  gitignore: string
  index: string
  latest: string
  snapshots: string
  trailsDir: string
  trailsJson: string
  trailsMd: string
  narrative: string
}

/** Layouts made so far, by root: a hook asks for its project's layout several times. */
const layouts = new Map<string, ProjectLayout>()

/**
 * The store's paths for `root`. Made once per root and frozen: each path was a `join`, and the dozens a hook
 * made got node:path's normalizer optimized by V8 on a background thread, which a hook then waited for at exit
 * (longer than the rest of a Stop with nothing new). The names are plain, so a separator joins them.
 */
export function projectLayout(root: string): ProjectLayout {
  const known = layouts.get(root)
  if (known) return known
  const dir = join(root, STORE_DIR)
  const at = (...names: string[]): string => [dir, ...names].join(sep)
  const layout = Object.freeze({
    root,
    dir,
    gitignore: at('.gitignore'),
    index: at('index.json'),
    latest: at('LATEST.md'),
    snapshots: at('snapshots'),
    trailsDir: at('trails'),
    trailsJson: at('trails', 'files.json'),
    trailsMd: at('trails', 'files.md'),
    narrative: at('bookmark.context.md'),
  })
  if (layouts.size >= 64) layouts.clear() // a long-lived server meeting many projects keeps few
  layouts.set(root, layout)
  return layout
}

/** A project's machine-local folder in the bookmark home (`projects/<id>`), and what it holds. */
export interface StateLayout {
  dir: string
  cursors: string
  sessions: string
  prepared: string
  narrativeState: string
  /** The handoff's body as the prepared restore shows it (redacted), for the next capture's: src/hooks/handoff-body.ts. */
  narrativeBody: string
  config: string
  errorsLog: string
  /** Continuity figures the hooks note (restores given, handoffs written): stats.ts. */
  stats: string
  lock: string
}

export function stateLayout(bookmarkHome: string, id: string): StateLayout {
  const dir = [bookmarkHome, 'projects', id].join(sep)
  const at = (name: string): string => [dir, name].join(sep)
  return {
    dir,
    cursors: at('cursors'),
    sessions: at('sessions'),
    prepared: at(PREPARED_RESTORE),
    narrativeState: at(NARRATIVE_STATE),
    narrativeBody: at(NARRATIVE_BODY),
    config: at('config.json'),
    errorsLog: at('errors.log'),
    stats: at('stats.jsonl'),
    lock: at('store.lock'),
  }
}

export interface HomeLayout {
  dir: string
  registry: string
  lock: string
  /** The home pointer: which project's narrative a session outside any project restores. */
  pointer: string
  errorsLog: string
  /** V8 code cache of the hook bundles (bin/bookmark.cjs writes it; the same `cache` name is spelled there). */
  cache: string
  /** The projects' machine-local folders. */
  projects: string
}

export function homeLayout(bookmarkHome: string): HomeLayout {
  return {
    dir: bookmarkHome,
    registry: join(bookmarkHome, 'registry.json'),
    lock: join(bookmarkHome, 'registry.lock'),
    pointer: join(bookmarkHome, 'bookmark.context.md'),
    errorsLog: join(bookmarkHome, 'errors.log'),
    cache: join(bookmarkHome, 'cache'),
    projects: join(bookmarkHome, 'projects'),
  }
}

/** The startup restore prepared by the last capture (src/hooks/prepared.ts), in the project's folder of the home. */
export const PREPARED_RESTORE = 'restore.prepared.json'
/** How the handoff was judged, kept for the next hook (src/narrative/judge.ts). */
export const NARRATIVE_STATE = 'narrative.state.json'
/** The handoff's redacted body kept for the next prepared restore (src/hooks/handoff-body.ts). */
export const NARRATIVE_BODY = 'narrative.body.json'

/** Relative path of the narrative inside a project (what git would track). */
export const NARRATIVE_REL = `${STORE_DIR}/bookmark.context.md`

export const SNAPSHOT_ID = /^SNAP_\d{8}_\d{6}_\d{3}_[0-9a-f]{4}$/

export function isSnapshotId(id: string): boolean {
  return SNAPSHOT_ID.test(id)
}

/** `SNAP_<UTC yyyymmdd_hhmmss_mmm>_<4 hex>` from a time and random bytes given by the caller. */
export function snapshotId(at: Date, hex4: string): string {
  const p = (n: number, w = 2): string => String(n).padStart(w, '0')
  const d = `${at.getUTCFullYear()}${p(at.getUTCMonth() + 1)}${p(at.getUTCDate())}`
  const t = `${p(at.getUTCHours())}${p(at.getUTCMinutes())}${p(at.getUTCSeconds())}_${p(at.getUTCMilliseconds(), 3)}`
  return `SNAP_${d}_${t}_${hex4}`
}

export function snapshotPath(layout: ProjectLayout, id: string): string {
  if (!isSnapshotId(id)) throw new Error(`not a snapshot id: ${id}`)
  return join(layout.snapshots, `${id}.json`)
}

/** A file-name-safe key for a session id (ids that are not plain get a hash). */
export function sessionKey(sessionId: string): string {
  if (/^[A-Za-z0-9_-]{1,100}$/.test(sessionId)) return sessionId
  // node:crypto only for the rare id that needs it (src/shared/builtin.ts)
  return `h-${crypto().createHash('sha256').update(sessionId).digest('hex').slice(0, 32)}`
}

/** The cursor head: where the last capture stopped, and the little the hooks need without the state. */
export function cursorPath(layout: StateLayout, sessionId: string): string {
  return join(layout.cursors, `${sessionKey(sessionId)}.json`)
}

/** The session's whole extraction state, loaded only when there is something new to fold into it. */
export function cursorStatePath(layout: StateLayout, sessionId: string): string {
  return join(layout.cursors, `${sessionKey(sessionId)}.state.json`)
}

export function sessionHooksPath(layout: StateLayout, sessionId: string): string {
  return join(layout.sessions, `${sessionKey(sessionId)}.json`)
}

export function compactResumePath(layout: StateLayout, sessionId: string): string {
  return join(layout.sessions, `${sessionKey(sessionId)}.compact.md`)
}

export function cursorLockPath(layout: StateLayout, sessionId: string): string {
  return join(layout.cursors, `${sessionKey(sessionId)}.lock`)
}
