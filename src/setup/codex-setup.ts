/**
 * Setup's Codex CLI steps that touch files: after our hooks are in `$CODEX_HOME/hooks.json`, their trust (and the
 * MCP server) go into the config.toml next to it; uninstall takes exactly that out again. The text edits are
 * codex.ts's; the lock, the retry when Codex saves meanwhile, and the backup are the settings' own (command.ts).
 */
import { dirname, join } from 'node:path'
import { stat } from 'node:fs/promises'
import { onPath } from '../shared/which.js'
import type { Deps } from '../shared/deps.js'
import { withLock } from '../store/lock.js'
import { HOOK_EVENTS } from './hooks.js'
import { member, parseJson } from './jsonedit.js'
import { findInEvent, hooksObject } from './plan.js'
import {
  type CodexHook,
  codexHome,
  hookStates,
  trustKey,
  type TomlCreated,
  type TomlTable,
  isTomlCreated,
  keysNamedElsewhere,
  ourCodexHooks,
  planToml,
  tomlString,
  trustHeader,
  trustLine,
  undoToml,
} from './codex.js'
import type { HookEvent, Launch } from './hooks.js'
import { type SettingsFile, assertWritable, deleteSettings } from './settings.js'

export const MCP_HEADER = '[mcp_servers.bookmark]'

export interface CodexTrustResult {
  /** config.toml. */
  path: string
  changed: boolean
  createdFile: boolean
  /** The events whose hooks Codex now trusts. */
  trusted: HookEvent[]
  /** `bookmark mcp` is registered as the MCP server `bookmark`. */
  mcp: boolean
  backup: string | null
  notes: string[]
}

export interface FileEdits {
  editFresh<T>(path: string, edit: (file: SettingsFile) => Promise<T>): Promise<T>
  replaceWithBackup(file: SettingsFile, text: string, now: Date, backupDir: string | undefined): Promise<string | null>
}

export const configNextTo = (hooksPath: string): string => join(dirname(hooksPath), 'config.toml')

/** The tables config.toml needs for `hooks` (trust) and the MCP server. */
export function wantedTables(hooks: CodexHook[], launch: Launch): TomlTable[] {
  return [
    ...hooks.map((h) => ({ header: trustHeader(h.key), lines: [trustLine(h.hash)], key: 'trusted_hash' })),
    { header: MCP_HEADER, lines: [`command = ${tomlString(launch.node)}`, `args = [${tomlString(launch.entry)}, "mcp"]`] },
  ]
}

/**
 * Trusts exactly our hooks of `hooksText` (the hooks.json as written) in config.toml, and registers the MCP server.
 * `prior`: what an earlier setup changed there. Returns what to record for uninstall.
 */
export async function trustCodexHooks(
  hooksPath: string,
  hooksText: string,
  launch: Launch,
  deps: Deps,
  io: FileEdits,
  prior: TomlCreated | undefined,
  dryRun: boolean,
): Promise<{ result: CodexTrustResult; created: TomlCreated | undefined }> {
  const path = configNextTo(hooksPath)
  const hooks = ourCodexHooks(hooksPath, hooksText)
  const run = async (file: SettingsFile): Promise<{ result: CodexTrustResult; created: TomlCreated | undefined }> => {
    const notes: string[] = []
    const elsewhere = keysNamedElsewhere(
      file.text ?? '',
      hooks.map((h) => h.key),
    )
    for (const k of elsewhere) notes.push(`${path} names the hook ${k} in a form bookmark does not edit: trust it in Codex (/hooks) after checking the command`)
    const trusted = hooks.filter((h) => !elsewhere.includes(h.key))
    const plan = planToml(file.text, wantedTables(trusted, launch), prior)
    notes.push(...plan.notes)
    const mcp = !plan.notes.some((n) => n.startsWith(MCP_HEADER))
    const result: CodexTrustResult = {
      path,
      changed: plan.changed,
      createdFile: file.text === undefined,
      trusted: trusted.map((h) => h.event),
      mcp,
      backup: null,
      notes,
    }
    if (dryRun || !plan.changed) return { result, created: plan.changed ? undefined : prior }
    await assertWritable(file)
    result.backup = await io.replaceWithBackup(file, plan.after, deps.now(), undefined)
    return { result, created: plan.created }
  }
  if (dryRun) return run(await (await import('./settings.js')).readSettings(path))
  return withLock(`${path}.bookmark.lock`, () => io.editFresh(path, run))
}

export interface CodexUntrustResult {
  path: string
  changed: boolean
  deletedFile: boolean
  /** Tables removed or set back. */
  removed: number
  backup: string | null
  /** Trusted hooks of others that move up when ours go (Codex keys trust by position): they need trusting again. */
  moved: string[]
}

/** Keys of the trusted handlers that follow one of ours in its event array: removing ours shifts their index. */
export function shiftedByRemoval(hooksPath: string, hooksText: string | undefined, tomlText: string): string[] {
  if (!hooksText) return []
  let root
  try {
    root = parseJson(hooksText)
  } catch {
    return []
  }
  const hooks = root.kind === 'object' ? hooksObject(root) : undefined
  const trusted = hookStates(tomlText)
  const out: string[] = []
  for (const em of hooks?.members ?? []) {
    if (!(HOOK_EVENTS as readonly string[]).includes(em.key) || em.value.kind !== 'array') continue
    const ours = findInEvent(em)[0]
    if (!ours) continue
    em.value.items.forEach((group, g) => {
      const handlers = group.kind === 'object' ? member(group, 'hooks')?.value : undefined
      if (handlers?.kind !== 'array') return
      handlers.items.forEach((_h, h) => {
        const after = g > ours.groupIndex || (g === ours.groupIndex && h > ours.handlerIndex)
        const key = trustKey(hooksPath, em.key as HookEvent, g, h)
        if (after && trusted.get(key)?.trustedHash !== undefined) out.push(key)
      })
    })
  }
  return out
}

/**
 * config.toml without what setup put there: by the record, else (no record) the trust tables of our hooks in
 * `hooksText` (hooks.json before uninstall) and our MCP table, as if setup had appended them.
 */
export async function untrustCodexHooks(
  hooksPath: string,
  hooksText: string | undefined,
  recorded: unknown,
  deps: Deps,
  io: FileEdits,
  dryRun: boolean,
): Promise<CodexUntrustResult> {
  const path = configNextTo(hooksPath)
  const guess = (): TomlCreated => ({
    file: false,
    newline: false,
    tables: [...(hooksText ? ourCodexHooks(hooksPath, hooksText).map((h) => trustHeader(h.key)) : []), MCP_HEADER],
    replaced: {},
  })
  const created = isTomlCreated(recorded) ? recorded : guess()
  const run = async (file: SettingsFile): Promise<CodexUntrustResult> => {
    if (file.text === undefined) return { path, changed: false, deletedFile: false, removed: 0, backup: null, moved: [] }
    const undo = undoToml(file.text, created)
    const result: CodexUntrustResult = {
      path,
      changed: undo.changed || undo.deleteFile,
      deletedFile: undo.deleteFile,
      removed: undo.removed.length,
      backup: null,
      moved: shiftedByRemoval(hooksPath, hooksText, file.text),
    }
    if (dryRun || !result.changed) return result
    await assertWritable(file)
    if (undo.deleteFile) await deleteSettings(file)
    else result.backup = await io.replaceWithBackup(file, undo.after, deps.now(), undefined)
    return result
  }
  if (dryRun) return run(await (await import('./settings.js')).readSettings(path))
  return withLock(`${path}.bookmark.lock`, () => io.editFresh(path, run))
}

/** `base` (the hooks.json lines) and what happened in config.toml. */
export function codexSetupLines(r: { dryRun: boolean; codex?: CodexTrustResult }, base: string): string[] {
  const lines = [base]
  const t = r.codex
  if (!t) return lines
  const events = t.trusted.join(', ')
  if (t.changed) {
    lines.push(
      `${r.dryRun ? 'would trust' : 'trusted'} them in ${t.path} (${events}): Codex runs only hooks whose command it trusts${t.backup ? ` (backup: ${t.backup})` : t.createdFile ? ' (new file)' : ''}`,
    )
    if (t.mcp) lines.push(`${r.dryRun ? 'would register' : 'registered'} \`bookmark mcp\` as Codex's MCP server "bookmark" (${MCP_HEADER})`)
  } else lines.push(`Codex trusts them already in ${t.path} (${events})`)
  lines.push(...t.notes.map((n) => `note: ${n}`))
  return lines
}

export function codexUninstallLine(u: CodexUntrustResult, dryRun: boolean): string {
  const them = u.moved.length === 1 ? 'it' : 'them'
  const moved = u.moved.length
    ? `\nnote: Codex keys hook trust by position: trusted hooks after bookmark's moved up (${u.moved.join(', ')}); Codex skips ${them} until you trust ${them} again (/hooks)`
    : ''
  if (!u.changed) return `nothing of bookmark's in ${u.path}${moved}`
  const verb = dryRun ? 'would take' : 'took'
  const line = u.deletedFile
    ? `${verb} the hooks' trust and the MCP server out of ${u.path} and ${dryRun ? 'would delete' : 'deleted'} it (setup had created it)`
    : `${verb} the hooks' trust and the MCP server out of ${u.path}${u.backup ? ` (backup: ${u.backup})` : ''}`
  return line + moved
}

/** Why setup takes Codex CLI to be installed (a `codex` on PATH, $CODEX_HOME, or ~/.codex), or undefined. */
export async function codexFound(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const bin = await onPath('codex', env)
  if (bin) return `\`codex\` on PATH (${bin})`
  if (env.CODEX_HOME && env.CODEX_HOME.trim() !== '') return `CODEX_HOME (${env.CODEX_HOME})`
  const home = codexHome(env)
  if ((await stat(home).catch(() => undefined))?.isDirectory()) return home
  return undefined
}
