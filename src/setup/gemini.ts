/**
 * Gemini CLI's half of setup, pure but for where its files are: our hooks go into `~/.gemini/settings.json` (the same
 * `hooks: {Event: [{matcher, hooks: [handler]}]}` shape as Claude Code's, on Gemini's events, named), and `bookmark mcp`
 * into its `mcpServers` (user scope). Gemini CLI 0.61 reads `$GEMINI_CLI_HOME/.gemini` instead when that is set.
 */
import { join, resolve } from 'node:path'
import { homeDir } from '../shared/builtin.js'
import { isObject } from '../shared/json.js'
import { GEMINI_EVENTS } from '../hooks/table.js'
import { type Launch, geminiHookName, hookEntry } from './hooks.js'
import { type Edit, type ObjectNode, type Style, insertMember, interiorOf, member, removeElement, replaceValue, toValue } from './jsonedit.js'
import { pointer, single } from './shape.js'

/** `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`. */
export function geminiDir(env: NodeJS.ProcessEnv): string {
  const set = env.GEMINI_CLI_HOME
  return join(set && set.trim() !== '' ? resolve(set) : resolve(homeDir(env)), '.gemini')
}

export const geminiSettingsPath = (env: NodeJS.ProcessEnv): string => join(geminiDir(env), 'settings.json')

/** The MCP server's name in `mcpServers`. */
export const MCP_NAME = 'bookmark'

/** What Gemini starts for `bookmark mcp` (as Gemini's: bookmark_snapshot then captures Gemini sessions). */
export const desiredMcp = (launch: Launch): { command: string; args: string[] } => ({ command: launch.node, args: [launch.entry, 'mcp', '--host', 'gemini'] })

/** An `mcpServers` entry that starts this package's bin/bookmark.cjs with `mcp`. */
export function isOurMcp(v: unknown): boolean {
  if (!isObject(v) || typeof v.command !== 'string' || !Array.isArray(v.args) || !v.args.every((a) => typeof a === 'string')) return false
  const args = v.args as string[]
  const entry = hookEntry({ command: v.command, args })
  return entry !== undefined && args[args.indexOf(entry) + 1] === 'mcp'
}

/** What in the settings stops Gemini from running our hooks. */
export function geminiHookNotes(root: ObjectNode): string[] {
  const cfg = member(root, 'hooksConfig')?.value
  if (cfg?.kind !== 'object') return []
  const v = toValue(cfg) as Record<string, unknown>
  const notes: string[] = []
  if (v.enabled === false) notes.push('"hooksConfig.enabled": false is set in this file: Gemini CLI runs no hooks until it is removed')
  const names = GEMINI_EVENTS.map((e) => geminiHookName(e.hook))
  const off = Array.isArray(v.disabled) ? names.filter((n) => (v.disabled as unknown[]).includes(n)) : []
  if (off.length > 0) notes.push(`"hooksConfig.disabled" lists ${off.join(', ')}: Gemini CLI skips ${off.length === 1 ? 'it' : 'them'}`)
  return notes
}

/** One edit towards `mcpServers.bookmark` starting `bookmark mcp`; undefined when it is there (or not ours to change). */
export function mcpStep(
  text: string,
  root: ObjectNode,
  style: Style,
  launch: Launch,
  created: { interiors: Record<string, string>; mcpServers?: boolean; mcp?: boolean },
  notes: string[],
): Edit | undefined {
  const want = desiredMcp(launch)
  const mm = single(root, 'mcpServers', 'the settings')
  if (!mm) {
    created.mcpServers = true
    created.mcp = true
    return insertMember(text, root, 'mcpServers', { [MCP_NAME]: want }, style)
  }
  if (mm.value.kind !== 'object') {
    notes.push('"mcpServers" is not an object: `bookmark mcp` was not registered')
    return undefined
  }
  const servers = mm.value
  const bm = single(servers, MCP_NAME, '"mcpServers"')
  if (!bm) {
    created.mcp = true
    if (servers.members.length === 0 && !(pointer('mcpServers') in created.interiors)) created.interiors[pointer('mcpServers')] = interiorOf(text, servers)
    return insertMember(text, servers, MCP_NAME, want, style)
  }
  if (!isOurMcp(toValue(bm.value)) || bm.value.kind !== 'object') {
    notes.push(`"mcpServers.${MCP_NAME}" is already in the file and is not bookmark's: left as it is`)
    return undefined
  }
  for (const key of ['command', 'args'] as const) {
    const m = member(bm.value, key)
    if (m && JSON.stringify(toValue(m.value)) === JSON.stringify(want[key])) continue
    return m ? replaceValue(text, m.value, want[key], style) : insertMember(text, bm.value, key, want[key], style)
  }
  return undefined
}

/**
 * One edit taking our MCP server out again: the entry when it is ours, then `mcpServers` when setup created it (or,
 * without a record, when ours was all it held).
 */
export function unMcpStep(
  root: ObjectNode,
  created: { interiors: Record<string, string>; mcpServers?: boolean } | undefined,
  state: { removed: boolean },
): Edit | undefined {
  const at = root.members.findIndex((m) => m.key === 'mcpServers')
  const mm = root.members[at]
  if (!mm || mm.value.kind !== 'object') return undefined
  const servers = mm.value
  const i = servers.members.findIndex((m) => m.key === MCP_NAME && isOurMcp(toValue(m.value)))
  if (i >= 0) {
    state.removed = true
    return removeElement(servers, i, created?.interiors[pointer('mcpServers')] ?? '')
  }
  if (servers.members.length === 0 && (created ? created.mcpServers === true : state.removed)) return removeElement(root, at, created?.interiors[''] ?? '')
  return undefined
}
