/**
 * `bookmark export`: one self-contained Markdown handoff of the project, to paste into another tool or a
 * ticket. It is the startup restore's text (renderStartup: the usable narrative plus the latest snapshot's
 * facts it does not state) under its own title, without the restore's budget unless one is asked for, so
 * there is one renderer of a handoff, not two that drift apart. Read-only; the CLI writes `--out`.
 */
import { claudeHost } from '../hosts/claude/host.js'
import { basename, dirname, resolve } from 'node:path'
import { usableNarrative } from '../hooks/restore.js'
import { hookContext } from '../hooks/run.js'
import { redact } from '../redact/secrets.js'
import { cutToBudget } from '../restore/budget.js'
import { renderStartup } from '../restore/render.js'
import { statOrNone } from '../shared/fsp.js'
import { StoreReader } from '../store/reader.js'
import type { Deps } from '../shared/deps.js'
import { InputError } from '../shared/errors.js'

export interface Exported {
  projectRoot: string
  snapshotId: string
  sessionId: string
  branch: string | null
  /** Whether the handoff a model wrote (sealed for this project) is in the text. */
  narrative: boolean
  text: string
  characters: number
}

/** Title of the export's first line: it says what the text is wherever it is pasted. */
export const EXPORT_TITLE = 'Bookmark handoff of'

/**
 * The export of the project of `cwd`. `budget` (a positive number) cuts it as the restore cuts its text;
 * without it nothing is dropped for length. Throws InputError (one line) when there is nothing to export.
 */
export async function exportHandoff(cwd: string, deps: Deps, budget?: number): Promise<Exported> {
  const ctx = await hookContext(claudeHost, { cwd, source: 'startup', eventName: 'SessionStart' }, {}, deps, cwd)
  const root = ctx.cfg.projectRoot
  if (ctx.homeScope) throw new InputError(`${root} is not a project folder (a home folder or /): run \`bookmark export --cwd DIR\` with the project's folder`)
  // Only what this user's bookmark sealed is read (StoreReader verifies every file it returns).
  const store = new StoreReader(root, ctx.deps.bookmarkHome)
  const { index } = await store.readIndex()
  const entry = index.snapshots[0]
  const snapshot = entry ? await store.readSnapshot(entry.id) : undefined
  if (!entry || !snapshot) throw new InputError(`nothing to export in ${root}: no snapshot yet (capture first: \`bookmark snapshot\`)`)
  // The narrative only when its seal is this project's (verdict match), exactly as restore decides.
  const narrative = await usableNarrative(ctx.project, ctx)
  const { layout } = ctx.project
  const warnings = [...narrative.warnings]
  if (narrative.refusedAge) warnings.push(`The handoff ${layout.narrative} is ${narrative.refusedAge} old and was left out.`)
  const limit = budget ?? Number.POSITIVE_INFINITY
  const text = renderStartup({
    title: EXPORT_TITLE,
    project: basename(root),
    root,
    ...(narrative.input ? { narrative: narrative.input } : {}),
    snapshot,
    warnings,
    budget: limit,
    latestPath: layout.latest,
    narrativePath: layout.narrative,
  })
  // The whole text passes the redactor (the narrative was written by a model, not by our store); a budget
  // is applied again after it, as the restore does, since a redaction marker can be longer than the secret.
  const out = cutToBudget(redact(text), limit)
  return {
    projectRoot: root,
    snapshotId: snapshot.id,
    sessionId: snapshot.session.id,
    branch: snapshot.session.branch ?? null,
    narrative: narrative.input !== undefined,
    text: out,
    characters: out.length,
  }
}

/**
 * Where `--out` may write: an absolute path whose folder exists and which is not itself a folder. Checked
 * before anything is rendered so that a typo costs one clear line, not a stack.
 */
export async function exportTarget(out: string, cwd: string): Promise<string> {
  if (out.trim() === '') throw new InputError('--out needs a file name, got an empty one')
  const path = resolve(cwd, out)
  const found = await statOrNone(path)
  if (found?.isDirectory()) throw new InputError(`--out ${path} is a folder: give a file name inside it (for example ${resolve(path, 'handoff.md')})`)
  if (found && !found.isFile()) throw new InputError(`--out ${path} exists and is not a regular file: give another file name`)
  const folder = await statOrNone(dirname(path))
  if (!folder?.isDirectory()) throw new InputError(`--out ${path}: the folder ${dirname(path)} does not exist (create it first)`)
  return path
}
