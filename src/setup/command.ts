/**
 * `bookmark setup` and `bookmark uninstall`: wire our four hooks into a Claude Code settings file
 * and take exactly them out again. Returns what to print; errors are SetupError (one line, exit 1).
 */
import { access, readdir, rm } from 'node:fs/promises'
import { createInterface } from 'node:readline/promises'
import type { Readable } from 'node:stream'
import { dirname, join, relative, resolve, sep } from 'node:path'
import type { Deps } from '../shared/deps.js'
import { isHomeScope } from '../shared/deps.js'
import { NARRATIVE_BODY, NARRATIVE_STATE, PREPARED_RESTORE, STORE_DIR } from '../store/layout.js'
import { withLock } from '../store/lock.js'
import { LockTimeoutError, SetupError } from '../shared/errors.js'
import { findProjectRoot } from '../repo/root.js'
import { type ClaudeFound, EXEC_FORM_SINCE, atLeast, findClaude } from '../hosts/claude/version.js'
import { HOOK_EVENTS, type HookForm, type Launch } from './hooks.js'
import { inspectSettings } from './inspect.js'
import { JsonParseError } from './jsonedit.js'
import { handoffRules } from './permission.js'
import { type EventChange, type SetupPlan, SettingsShapeError, type UninstallPlan, planSetup, planUninstall } from './plan.js'
import {
  assertInsideProject,
  assertWritable,
  currentLaunch,
  deleteSettings,
  gitIgnores,
  makeDirs,
  projectSettingsPath,
  readSettings,
  removeEmptyDirs,
  userSettingsPath,
} from './settings.js'
import { type SetupRecord, readRecord, updateRecord } from './state.js'
import {
  type CodexTrustResult,
  type CodexUntrustResult,
  codexFound,
  codexSetupLines,
  codexUninstallLine,
  trustCodexHooks,
  untrustCodexHooks,
} from './codex-setup.js'
import { codexHooksPath } from './codex.js'
import { geminiFound, geminiSetupLines, geminiUninstallLine } from './gemini-setup.js'
import { geminiSettingsPath } from './gemini.js'
import { editFresh, replaceWithBackup } from './edit.js'

export { editFresh, replaceWithBackup } from './edit.js'
import { emptyCreated } from './plan.js'

export interface SetupContext {
  cwd: string
  deps: Deps
  /** Default: the node running now and this package's bin/bookmark.cjs. */
  launch?: Launch
}

export interface UninstallContext extends SetupContext {
  stdin: Readable & { isTTY?: boolean }
  /** Asks a yes/no question on the terminal; default: readline on stdin, the question on stderr. */
  confirm?: (question: string) => Promise<boolean>
}

interface Target {
  path: string
  scope: 'user' | 'project'
  /** The project root (project scope). */
  root?: string
  /** Where backups go: next to the user settings; for a project's, the bookmark home (never files in the repository). */
  backupDir?: string
}

async function target(project: boolean | undefined, ctx: SetupContext, host?: SetupHost): Promise<Target> {
  if (host === 'gemini') {
    if (project) throw new SetupError('--project wires Claude Code only: bookmark wires Gemini CLI in the user settings (leave out --project)')
    return { path: geminiSettingsPath(ctx.deps.env), scope: 'user' }
  }
  if (host === 'codex') {
    if (project) throw new SetupError('--project wires Claude Code only: Codex CLI reads its hooks from $CODEX_HOME/hooks.json (leave out --project)')
    return { path: codexHooksPath(ctx.deps.env), scope: 'user' }
  }
  if (project) {
    const { root, path } = await projectSettingsPath(ctx.cwd, ctx.deps.env)
    await assertInsideProject(root, path)
    return { path, scope: 'project', root, backupDir: join(ctx.deps.bookmarkHome, 'backups') }
  }
  return { path: userSettingsPath(ctx.deps.env), scope: 'user' }
}

/** Turns what can go wrong with a user's file into one line that names the file. */
function explain(path: string, e: unknown): never {
  if (e instanceof SetupError) throw e
  if (e instanceof JsonParseError) {
    throw new SetupError(
      `${path} is not valid JSON (${e.message}): left untouched; fix it by hand (comments and trailing commas are not allowed) and run again`,
    )
  }
  if (e instanceof SettingsShapeError) throw new SetupError(`${path}: ${e.message}: left untouched; fix it by hand and run again`)
  if (e instanceof LockTimeoutError) throw new SetupError(e.message)
  const err = e as NodeJS.ErrnoException
  if (err.code === 'EACCES' || err.code === 'EPERM' || err.code === 'EROFS')
    throw new SetupError(`cannot write ${path} or its folder (${err.code}): left untouched`)
  throw e
}

// ---------------------------------------------------------------------------------------------- setup

/** The agents setup wires. */
export type SetupHost = 'claude' | 'codex' | 'gemini'

export interface SetupOptions {
  project?: boolean
  dryRun?: boolean
  json?: boolean
  /** The hook form to write; default: the one the Claude Code on PATH understands. */
  hookForm?: HookForm
  /** Default claude. */
  host?: SetupHost
}

export interface SetupResult {
  action: 'wired' | 'updated' | 'unchanged'
  path: string
  scope: 'user' | 'project'
  dryRun: boolean
  changed: boolean
  /** By the host's own event names. */
  events: Record<string, EventChange>
  backup: string | null
  createdFile: boolean
  node: string
  entry: string
  /** exec (`command` + `args`) or shell (one command line). */
  form: HookForm
  /** The Claude Code version found on PATH, null when none answered. */
  claude: string | null
  notes: string[]
  /** The rules in `permissions.allow` that let the model write the handoff without a prompt, and those this run added. */
  permissions: { rules: string[]; added: string[] }
  /** With --dry-run: the text the file would have. */
  preview?: string
  host: SetupHost
  /** Gemini CLI: this run registered `bookmark mcp` in `mcpServers`. */
  mcp?: boolean
  /** Codex CLI: the hooks' trust and the MCP server in config.toml. */
  codex?: CodexTrustResult
}

function mergeRecord(old: SetupRecord | undefined, plan: SetupPlan, dirs: string[], launch: Launch, at: string): SetupRecord {
  const fresh: SetupRecord = { created: plan.created, createdDirs: dirs, node: launch.node, entry: launch.entry, at }
  // A file that had none of our hooks starts a new record: what an older setup created is gone or the user's now.
  if (!old || !plan.hadOurs) return fresh
  return {
    created: {
      file: old.created.file || plan.created.file,
      hooks: old.created.hooks || plan.created.hooks,
      events: [...new Set([...old.created.events, ...plan.created.events])],
      interiors: { ...plan.created.interiors, ...old.created.interiors },
      permissions: (old.created.permissions ?? false) || (plan.created.permissions ?? false),
      allow: (old.created.allow ?? false) || (plan.created.allow ?? false),
      rules: [...new Set([...(old.created.rules ?? []), ...(plan.created.rules ?? [])])],
      ...((old.created.mcpServers ?? plan.created.mcpServers) ? { mcpServers: true } : {}),
      ...((old.created.mcp ?? plan.created.mcp) ? { mcp: true } : {}),
    },
    createdDirs: old.createdDirs.length > 0 ? old.createdDirs : dirs,
    node: launch.node,
    entry: launch.entry,
    at,
  }
}

function actionOf(plan: SetupPlan): SetupResult['action'] {
  if (!plan.changed) return 'unchanged'
  return !plan.hadOurs && Object.values(plan.events).every((c) => c === 'added') ? 'wired' : 'updated'
}

/**
 * The form the hooks must take: asked for, or the one the Claude Code on PATH runs (exec form from
 * 2.1.139; older versions ignore `args` and run node on the payload). Unknown: shell form, which every version runs.
 */
async function pickForm(
  asked: HookForm | undefined,
  launch: Launch,
  env: NodeJS.ProcessEnv,
): Promise<{ form: HookForm; claude: ClaudeFound | undefined; note?: string }> {
  const claude = await findClaude(env)
  if (asked) return { form: asked, claude }
  if (launch.form) return { form: launch.form, claude }
  if (!claude) return { form: 'shell', claude, note: 'no `claude` on PATH answered --version: wrote shell-form hooks, which every Claude Code version runs' }
  if (atLeast(claude.version, EXEC_FORM_SINCE)) return { form: 'exec', claude }
  return {
    form: 'shell',
    claude,
    note: `Claude Code ${claude.text} runs only shell-form hooks (exec form needs ${EXEC_FORM_SINCE.join('.')}): wrote that form (later versions run it too)`,
  }
}

export async function runSetup(opts: SetupOptions, ctx: SetupContext): Promise<SetupResult> {
  const codex = opts.host === 'codex'
  const gemini = opts.host === 'gemini'
  const { path, scope, root, backupDir } = await target(opts.project, ctx, opts.host)
  const base = ctx.launch ?? currentLaunch()
  // Codex and Gemini run one shell line (no args) and have no permission rules for bookmark to add.
  const picked = codex || gemini ? { form: 'shell' as const, claude: undefined } : await pickForm(opts.hookForm, base, ctx.deps.env)
  const launch: Launch = { ...base, form: picked.form, ...(codex ? { host: 'codex' as const } : gemini ? { host: 'gemini' as const } : {}) }
  const rules =
    codex || gemini ? [] : root ? handoffRules({ scope: 'project', root }) : handoffRules({ scope: 'user', bookmarkHome: resolve(ctx.deps.bookmarkHome) })
  const prior = codex ? (await readRecord(ctx.deps.bookmarkHome, path))?.codex : undefined
  try {
    await access(launch.entry)
  } catch {
    throw new SetupError(`${launch.entry} does not exist: the hooks would not start (reinstall session-bookmark)`)
  }
  const result = (plan: SetupPlan, backup: string | null): SetupResult => ({
    action: actionOf(plan),
    path,
    scope,
    dryRun: opts.dryRun === true,
    changed: plan.changed,
    events: plan.events,
    backup,
    createdFile: plan.created.file,
    node: launch.node,
    entry: launch.entry,
    form: picked.form,
    claude: picked.claude?.text ?? null,
    notes: 'note' in picked && picked.note ? [...plan.notes, picked.note] : codex ? [] : [...plan.notes],
    permissions: { rules, added: plan.rulesAdded },
    ...(opts.dryRun ? { preview: plan.after } : {}),
    host: opts.host ?? 'claude',
    ...(gemini ? { mcp: plan.created.mcp === true } : {}),
  })
  // Codex runs a hook only while config.toml trusts exactly its command: trusted once the hooks are written.
  const trust = async (out: SetupResult, hooksText: string): Promise<SetupResult> => {
    if (!codex) return out
    const t = await trustCodexHooks(path, hooksText, launch, ctx.deps, { editFresh, replaceWithBackup }, prior, out.dryRun)
    out.codex = t.result
    if (!out.dryRun && t.created) {
      const created = t.created
      const at = ctx.deps.now().toISOString()
      await updateRecord(ctx.deps.bookmarkHome, path, (old) => ({
        ...(old ?? { created: emptyCreated(), createdDirs: [], node: launch.node, entry: launch.entry, at }),
        codex: created,
      }))
    }
    return out
  }
  if (opts.dryRun) {
    const file = await readSettings(path)
    let plan: SetupPlan
    try {
      plan = planSetup(file.text, launch, rules)
    } catch (e) {
      explain(path, e)
    }
    return trust(result(plan, null), plan.after)
  }
  let dirs: string[] = []
  try {
    dirs = await makeDirs(dirname(path))
    const out = await withLock(`${path}.bookmark.lock`, () =>
      editFresh(path, async (file) => {
        const plan = planSetup(file.text, launch, rules)
        if (!plan.changed) return result(plan, null)
        await assertWritable(file)
        const backup = await replaceWithBackup(file, plan.after, ctx.deps.now(), backupDir)
        const at = ctx.deps.now().toISOString()
        const done = result(plan, backup)
        try {
          await updateRecord(ctx.deps.bookmarkHome, path, (old) => mergeRecord(old, plan, dirs, launch, at))
        } catch (e) {
          // The hooks are wired; only the exact undo is lost. Not worth failing over.
          done.notes.push(
            `could not record what setup created (${(e as Error).message}): uninstall will still remove the hooks, but may leave empty "hooks" entries`,
          )
        }
        return done
      }),
    )
    if (codex) return await trust(out, (await readSettings(path)).text ?? '')
    if (gemini) return out
    out.notes.push(...(await otherScopeNotes(scope, ctx)))
    if (root && (await gitIgnores(root, relative(root, path))) === false) {
      out.notes.push(`git does not ignore ${relative(root, path)}: it holds absolute paths of this machine, add it to .gitignore so it is not committed`)
    }
    return out
  } catch (e) {
    if (dirs.length > 0 && (await readSettings(path).catch(() => undefined))?.text === undefined) await removeEmptyDirs(dirs)
    explain(path, e)
  }
}

/** Our hooks wired in the other file as well (user and project): worth knowing, not an error. */
async function otherScopeNotes(scope: 'user' | 'project', ctx: SetupContext): Promise<string[]> {
  let other: string
  try {
    other = scope === 'user' ? (await projectSettingsPath(ctx.cwd, ctx.deps.env)).path : userSettingsPath(ctx.deps.env)
  } catch {
    return []
  }
  const seen = await inspectSettings(other, ctx.deps.env)
  if (!HOOK_EVENTS.some((e) => seen.events[e].wired)) return []
  return [`${other} wires bookmark hooks too; keep one place (\`bookmark uninstall${scope === 'user' ? ' --project' : ''}\` removes them there)`]
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`

export function setupText(r: SetupResult): string {
  if (r.host === 'codex') return codexSetupLines(r, setupTextOf(r)).join('\n')
  if (r.host === 'gemini') return geminiSetupLines(r, setupTextOf(r)).join('\n')
  return setupTextOf(r)
}

function setupTextOf(r: SetupResult): string {
  const changed = Object.keys(r.events).filter((e) => r.events[e] !== 'unchanged')
  const backup = r.backup ? ` (backup: ${r.backup})` : r.createdFile && r.changed ? ' (new file)' : ''
  let line: string
  if (r.action === 'unchanged') line = `already set up ${r.path}`
  else if (r.action === 'wired') {
    const n = Object.keys(r.events).length
    line = r.dryRun ? `would wire ${n} hooks into ${r.path}` : `wired ${n} hooks into ${r.path}${backup}`
  } else
    line = `${r.dryRun ? 'would update' : 'updated'} ${r.path}${changed.length ? `: ${changed.map((e) => `${e} ${r.events[e]}`).join(', ')}` : ''}${r.dryRun ? '' : backup}`
  const lines = [line]
  if (r.permissions.added.length > 0)
    lines.push(`${r.dryRun ? 'would allow' : 'allowed'} the model to write its handoff without asking (permissions.allow): ${r.permissions.added.join(', ')}`)
  lines.push(...r.notes.map((n) => `note: ${n}`))
  if (r.dryRun && r.changed && r.preview !== undefined) lines.push('', '--- the file would read:', r.preview.trimEnd())
  return lines.join('\n')
}

/** Without --host: Claude Code as always, and Codex CLI and Gemini CLI too when they are installed (saying how each was found). */
export async function setupCommand(opts: SetupOptions, ctx: SetupContext): Promise<string> {
  const r = await runSetup(opts, ctx)
  const auto = opts.host === undefined && !opts.project
  const others: [SetupHost, string, string | undefined][] = [
    ['codex', 'Codex CLI', auto ? await codexFound(ctx.deps.env) : undefined],
    ['gemini', 'Gemini CLI', auto ? await geminiFound(ctx.deps.env) : undefined],
  ]
  const also: SetupResult[] = []
  const lines = [setupText(r)]
  for (const [host, name, found] of others) {
    if (!found) continue
    const o = await runSetup({ ...opts, host }, ctx)
    also.push(o)
    lines.push(`${name} found (${found}):`, setupText(o))
  }
  if (opts.json) return JSON.stringify(also.length ? { ...r, also } : r, null, 2)
  return lines.join('\n')
}

// ------------------------------------------------------------------------------------------ uninstall

export interface UninstallOptions {
  project?: boolean
  purge?: boolean
  yes?: boolean
  dryRun?: boolean
  json?: boolean
  /** Default claude. */
  host?: SetupHost
}

export interface UninstallResult {
  action: 'removed' | 'none'
  path: string
  scope: 'user' | 'project'
  dryRun: boolean
  removed: number
  events: string[]
  deletedFile: boolean
  /** The permission rules setup had added, removed from `permissions.allow`. */
  rules: string[]
  /** The file was (or would be) changed. */
  changed: boolean
  backup: string | null
  purged: string[]
  /** Codex CLI: the trust and MCP tables taken out of config.toml. */
  codex?: CodexUntrustResult
  /** Gemini CLI: `mcpServers.bookmark` was (or would be) taken out. */
  mcp?: boolean
}

/** What a project store or the bookmark home may hold; a folder with anything else is not deleted. */
const STORE_NAMES = new Set([
  '.gitignore',
  'index.json',
  'LATEST.md',
  'snapshots',
  'trails',
  'cursors',
  'sessions',
  'bookmark.context.md',
  'errors.log',
  'config.json',
  'store.lock',
  PREPARED_RESTORE,
  NARRATIVE_STATE,
  NARRATIVE_BODY,
])
const HOME_NAMES = new Set([
  'key',
  'projects',
  'registry.json',
  'registry.lock',
  'bookmark.context.md',
  'errors.log',
  'config.json',
  'setup-state.json',
  'setup-state.lock',
  'backups',
  'cache',
])

/** undefined: the folder does not exist; else whether everything in it is ours. */
async function onlyOurs(dir: string, names: Set<string>): Promise<boolean | undefined> {
  let entries: string[]
  try {
    entries = await readdir(dir)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new SetupError(`cannot read ${dir}: ${(e as Error).message}`)
  }
  // `<name>.<digits>` are temp files a killed atomic write left behind.
  return entries.every((n) => names.has(n) || [...names].some((k) => n.startsWith(`${k}.`)))
}

/** The folders --purge deletes: this project's `.bookmark/` and the bookmark home, when they exist. */
async function purgeTargets(ctx: SetupContext): Promise<string[]> {
  const { root } = await findProjectRoot(resolve(ctx.cwd), ctx.deps.env.CLAUDE_PROJECT_DIR)
  const home = resolve(ctx.deps.bookmarkHome)
  const userHome = resolve(ctx.deps.env.HOME ?? '/')
  const contains = (outer: string, inner: string): boolean => inner === outer || inner.startsWith(outer.endsWith(sep) ? outer : outer + sep)
  if (home === resolve('/') || contains(home, userHome) || contains(home, resolve(ctx.cwd))) {
    throw new SetupError(`the bookmark home ${home} holds your home folder or the current folder: --purge will not delete it (check BOOKMARK_HOME)`)
  }
  const candidates: [string, Set<string>][] = []
  if (!isHomeScope(root, ctx.deps.env)) candidates.push([resolve(root, STORE_DIR), STORE_NAMES])
  if (!candidates.some(([d]) => d === home)) candidates.push([home, HOME_NAMES])
  const out: string[] = []
  for (const [dir, names] of candidates) {
    const ours = await onlyOurs(dir, names)
    if (ours === undefined) continue
    if (!ours) throw new SetupError(`${dir} holds files bookmark did not write: --purge will not delete it (remove it by hand if you mean to)`)
    out.push(dir)
  }
  return out
}

export async function ttyConfirm(stdin: Readable, question: string): Promise<boolean> {
  const rl = createInterface({ input: stdin, output: process.stderr, terminal: true })
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim())
  } finally {
    rl.close()
  }
}

export async function runUninstall(opts: UninstallOptions, ctx: UninstallContext): Promise<UninstallResult> {
  const codex = opts.host === 'codex'
  const { path, scope, backupDir } = await target(opts.project, ctx, opts.host)
  const purge = opts.purge ? await purgeTargets(ctx) : []
  if (opts.purge && purge.length > 0 && !opts.yes && !opts.dryRun) {
    const question = `Remove bookmark's hooks from ${path} and delete ${purge.join(' and ')} (snapshots, narratives, registry)? [y/N] `
    if (!ctx.confirm && !ctx.stdin.isTTY) throw new SetupError(`--purge deletes ${purge.join(' and ')}: confirm in a terminal, or add --yes`)
    const ok = await (ctx.confirm ?? ((q: string) => ttyConfirm(ctx.stdin, q)))(question)
    if (!ok) throw new SetupError('cancelled: nothing was changed')
  }
  const record = await readRecord(ctx.deps.bookmarkHome, path)
  const gemini = opts.host === 'gemini' ? ('gemini' as const) : undefined
  const result = (plan: UninstallPlan | undefined, backup: string | null, purged: string[]): UninstallResult => ({
    ...(gemini ? { mcp: plan?.mcp === true } : {}),
    action: plan && plan.removed > 0 ? 'removed' : 'none',
    path,
    scope,
    dryRun: opts.dryRun === true,
    removed: plan?.removed ?? 0,
    events: plan?.events ?? [],
    deletedFile: plan?.deleteFile ?? false,
    rules: plan?.rules ?? [],
    changed: plan?.changed ?? false,
    backup,
    purged,
  })
  const untrust = async (out: UninstallResult, hooksText: string | undefined): Promise<UninstallResult> => {
    if (!codex) return out
    try {
      out.codex = await untrustCodexHooks(path, hooksText, record?.codex, ctx.deps, { editFresh, replaceWithBackup }, out.dryRun)
    } catch (e) {
      explain(path.replace(/hooks\.json$/, 'config.toml'), e)
    }
    return out
  }
  const plan = (text: string): UninstallPlan => {
    try {
      return planUninstall(text, record?.created, gemini)
    } catch (e) {
      explain(path, e)
    }
  }
  if (opts.dryRun) {
    const file = await readSettings(path)
    return untrust(result(file.text === undefined ? undefined : plan(file.text), null, purge), file.text)
  }
  let out: UninstallResult
  const file0 = await readSettings(path)
  if (file0.text === undefined) {
    out = result(undefined, null, [])
    await updateRecord(ctx.deps.bookmarkHome, path, () => undefined)
  } else {
    try {
      out = await withLock(`${path}.bookmark.lock`, () =>
        editFresh(path, async (file) => {
          if (file.text === undefined) return result(undefined, null, [])
          const p = planUninstall(file.text, record?.created, gemini) // a JsonParseError is explained by the catch below
          let backup: string | null = null
          if (p.changed) {
            await assertWritable(file)
            if (p.deleteFile) await deleteSettings(file)
            else backup = await replaceWithBackup(file, p.after, ctx.deps.now(), backupDir)
          }
          await updateRecord(ctx.deps.bookmarkHome, path, () => undefined)
          return result(p, backup, [])
        }),
      )
    } catch (e) {
      explain(path, e)
    }
    if (out.deletedFile && record) await removeEmptyDirs(record.createdDirs)
  }
  await untrust(out, file0.text)
  for (const d of purge) {
    await rm(d, { recursive: true, force: true })
    out.purged.push(d)
  }
  return out
}

export function uninstallText(r: UninstallResult): string {
  const lines: string[] = []
  const verb = r.dryRun ? 'would remove' : 'removed'
  if (r.action === 'removed') {
    const tail = r.deletedFile ? ` and ${r.dryRun ? 'delete' : 'deleted'} it (setup had created it)` : r.backup ? ` (backup: ${r.backup})` : ''
    lines.push(`${verb} ${plural(r.removed, 'hook')} from ${r.path}${tail}`)
  } else if (r.rules.length > 0) {
    lines.push(`${verb} the handoff permission from ${r.path}${r.deletedFile ? ` and ${r.dryRun ? 'delete' : 'deleted'} it (setup had created it)` : ''}`)
  } else if (r.changed) {
    lines.push(
      `${r.dryRun ? 'would clean up' : 'cleaned up'} ${r.path}: empty entries setup had created${r.deletedFile ? ` (${r.dryRun ? 'would delete' : 'deleted'} the file)` : ''}`,
    )
  } else {
    lines.push(`no bookmark hooks in ${r.path}`)
  }
  if (r.action === 'removed' && r.rules.length > 0) lines.push(`${verb} the handoff permission: ${r.rules.join(', ')}`)
  if (r.codex) lines.push(codexUninstallLine(r.codex, r.dryRun))
  if (r.mcp) lines.push(geminiUninstallLine(r.path, r.dryRun))
  for (const d of r.purged) lines.push(`${r.dryRun ? 'would delete' : 'deleted'} ${d}`)
  return lines.join('\n')
}

export async function uninstallCommand(opts: UninstallOptions, ctx: UninstallContext): Promise<string> {
  const r = await runUninstall(opts, ctx)
  return opts.json ? JSON.stringify(r, null, 2) : uninstallText(r)
}
