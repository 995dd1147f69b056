/** `bookmark point` and `bookmark config`. */
import { basename, resolve } from 'node:path'
import { CONFIG_KEYS, type ConfigKey, KEYS, isConfigKey, parseValue } from '../config/keys.js'
import { globalConfigPath, projectConfigPath, resolveConfig } from '../config/resolve.js'
import { ensureState } from '../store/state-write.js'
import { editConfigFile, updateConfigFile } from '../config/write.js'
import { aliasTarget, isAliasName, readAliases } from '../config/aliases.js'
import { writeHomePointer } from '../narrative/pointer.js'
import { type Deps, isHomeScope } from '../shared/deps.js'
import { InputError } from '../shared/errors.js'
import { readGitInfo } from '../repo/git.js'
import { homeLayout } from '../store/layout.js'
import { findProjectRoot } from '../repo/root.js'
import { addToRegistry, entriesOf, readRegistry } from '../store/registry.js'
import { ProjectStore } from '../store/store.js'

export async function pointHome(dir: string, deps: Deps): Promise<{ projectRoot: string; pointer: string }> {
  const { root } = await findProjectRoot(resolve(dir), deps.env.CLAUDE_PROJECT_DIR)
  if (isHomeScope(root, deps.env)) throw new InputError(`${root} is not a project: pass --project DIR with a project folder`)
  // The pointer is only followed to registered projects: make sure this one is.
  const { registry } = await readRegistry(deps.bookmarkHome)
  const store = new ProjectStore(root, { bookmarkHome: deps.bookmarkHome, indexCap: deps.indexCap })
  const { index } = await store.readIndex()
  const latest = index.snapshots[0]
  if ((await entriesOf(registry, root)).length === 0) {
    if (!latest)
      throw new InputError(`${root} has no snapshots yet: capture one first (\`bookmark snapshot\`), so the pointer has a registered project to lead to`)
    await addToRegistry(
      deps.bookmarkHome,
      { project: root, snapshotId: latest.id, sessionId: latest.sessionId, createdAt: latest.createdAt, task: latest.task },
      deps.registryCap,
    )
  }
  const git = await readGitInfo(root)
  await writeHomePointer(deps.bookmarkHome, { projectRoot: root, project: basename(root), task: latest?.task ?? null, ...git }, deps.now())
  return { projectRoot: root, pointer: homeLayout(deps.bookmarkHome).pointer }
}

export interface ConfigOptions {
  interval?: string
  set?: string[]
  unset?: string[]
  /** `NAME` (this project) or `NAME=PATH|NAME=OTHERNAME`: a project alias, kept in the global file. */
  alias?: string[]
  unalias?: string[]
  project?: boolean
  cwd?: string
  json?: boolean
}

/** `--alias NAME` (the project the command runs in) and `--alias NAME=TARGET` as (name, target) pairs, validated. */
function aliasEdits(items: string[], root: string, cwd: string, deps: Deps): [string, string][] {
  return items.map((item) => {
    const eq = item.indexOf('=')
    const name = (eq === -1 ? item : item.slice(0, eq)).trim()
    if (!isAliasName(name)) throw new InputError(`--alias takes NAME or NAME=PROJECT; "${name}" is not a name (letters, digits, . _ -, at most 64)`)
    if (eq === -1) {
      if (isHomeScope(root, deps.env)) throw new InputError(`${root} is not a project: give the project, --alias ${name}=PATH`)
      return [name, root]
    }
    const target = aliasTarget(item.slice(eq + 1), cwd)
    if (target === undefined) throw new InputError(`--alias ${name}=…: give a project path or a project name, got "${item.slice(eq + 1)}"`)
    return [name, target]
  })
}

export async function configCommand(opts: ConfigOptions, cwd: string, deps: Deps): Promise<string> {
  const { root } = await findProjectRoot(resolve(opts.cwd ?? cwd), deps.env.CLAUDE_PROJECT_DIR)
  const set: Partial<Record<ConfigKey, number>> = {}
  const pairs: [string, string][] = []
  if (opts.interval !== undefined) pairs.push(['interval', opts.interval])
  for (const item of opts.set ?? []) {
    const eq = item.indexOf('=')
    if (eq <= 0) throw new InputError(`--set expects key=value, got "${item}" (keys: ${CONFIG_KEYS.join(', ')})`)
    pairs.push([item.slice(0, eq).trim(), item.slice(eq + 1).trim()])
  }
  for (const [key, raw] of pairs) {
    if (!isConfigKey(key)) throw new InputError(`unknown config key "${key}" (keys: ${CONFIG_KEYS.join(', ')})`)
    const parsed = parseValue(key, raw)
    if (!parsed.ok) throw new InputError(parsed.error)
    set[key] = parsed.value
  }
  const unset: ConfigKey[] = []
  for (const key of opts.unset ?? []) {
    if (!isConfigKey(key)) throw new InputError(`unknown config key "${key}" (keys: ${CONFIG_KEYS.join(', ')})`)
    unset.push(key)
  }
  if (opts.project && isHomeScope(root, deps.env)) throw new InputError(`${root} is not a project: --project needs a project folder`)
  const aliasAdd = aliasEdits(opts.alias ?? [], root, resolve(opts.cwd ?? cwd), deps)
  const aliasRemove = (opts.unalias ?? []).map((n) => n.trim())
  for (const n of aliasRemove) if (!isAliasName(n)) throw new InputError(`--unalias takes an alias name, got "${n}"`)
  if (aliasAdd.length > 0 || aliasRemove.length > 0) await editConfigFile(globalConfigPath(deps.bookmarkHome), { aliasAdd, aliasRemove })
  const changed = Object.keys(set).length > 0 || unset.length > 0
  // The project's file lives in its folder of the bookmark home, made (with the key) when something is written.
  const target = opts.project
    ? changed
      ? (await ensureState(deps.bookmarkHome, root)).config
      : ((await projectConfigPath(deps.bookmarkHome, root)) ?? '(none yet)')
    : globalConfigPath(deps.bookmarkHome)
  if (changed) await updateConfigFile(target, set, unset)
  // Outside any project (the home folder, /) there is no project layer: nothing to label "project".
  const r = await resolveConfig({ bookmarkHome: deps.bookmarkHome, ...(isHomeScope(root, deps.env) ? {} : { projectRoot: root }), env: deps.env })
  const aliases = readAliases(globalConfigPath(deps.bookmarkHome))
  if (opts.json) {
    return JSON.stringify(
      {
        ...(changed ? { wrote: target } : {}),
        files: r.files,
        values: Object.fromEntries(CONFIG_KEYS.map((k) => [k, { value: r.config[k], source: r.sources[k], env: KEYS[k].env }])),
        aliases,
        problems: r.problems,
      },
      null,
      2,
    )
  }
  const lines = changed ? [`Wrote ${target}`, ''] : []
  const width = Math.max(...CONFIG_KEYS.map((k) => k.length))
  for (const k of CONFIG_KEYS) lines.push(`${k.padEnd(width)}  ${String(r.config[k]).padStart(7)}  ${r.sources[k].padEnd(7)}  ${KEYS[k].help}`)
  const names = Object.keys(aliases).sort()
  if (names.length > 0) lines.push('', ...names.map((n) => `alias ${n}: ${aliases[n]!.join(', ')}`))
  lines.push('', `global: ${r.files.global}`, `project: ${r.files.project ?? '(none)'}`, 'precedence: default < global < project < env < flag')
  for (const p of r.problems) lines.push(`problem: ${p}`)
  return lines.join('\n')
}
