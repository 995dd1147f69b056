/**
 * Codex CLI's half of setup, pure: where its files are, the trust it keeps for each hook, and the tables of its
 * config.toml that bookmark adds and takes away again, as text edits that leave every other byte alone.
 *
 * Codex runs a hook of `$CODEX_HOME/hooks.json` only when config.toml holds
 * `[hooks.state."<hooks.json path>:<event>:<group>:<handler>"] trusted_hash = "sha256:…"`, the hash of the hook as
 * configured (event, matcher, command, timeout, async, statusMessage: Codex 0.171's `command_hook_hash`, checked
 * against the hashes the real binary reports). A changed command is a changed hash: Codex skips it silently.
 */
import { createHash } from 'node:crypto'
import { join, resolve } from 'node:path'
import { homeDir } from '../shared/builtin.js'
import { isObject } from '../shared/json.js'
import { HOOK_EVENTS, type HookEvent, type HookName } from './hooks.js'
import { member, parseJson, toValue } from './jsonedit.js'
import { findInEvent, hooksObject } from './plan.js'

/** `$CODEX_HOME`, else `~/.codex`. */
export function codexHome(env: NodeJS.ProcessEnv): string {
  const set = env.CODEX_HOME
  return set && set.trim() !== '' ? resolve(set) : join(resolve(homeDir(env)), '.codex')
}

export const codexHooksPath = (env: NodeJS.ProcessEnv): string => join(codexHome(env), 'hooks.json')
export const codexConfigPath = (env: NodeJS.ProcessEnv): string => join(codexHome(env), 'config.toml')

/** Codex's own label of an event, in trust keys and hashes. */
export const EVENT_LABEL: Record<HookEvent, string> = {
  SessionStart: 'session_start',
  UserPromptSubmit: 'user_prompt_submit',
  PreCompact: 'pre_compact',
  Stop: 'stop',
}

/** Events whose matcher Codex ignores (and leaves out of the hash). */
const NO_MATCHER = new Set<HookEvent>(['UserPromptSubmit', 'Stop'])

function sortedKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedKeys)
  if (isObject(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortedKeys(v[k])]),
    )
  return v
}

export interface CodexHandler {
  command: string
  timeout?: number
  async?: boolean
  statusMessage?: string
}

/**
 * The hash Codex compares with `trusted_hash`: sha256 of the compact JSON, keys sorted, of the hook as it
 * normalises it (timeout 600 when absent, async false, absent fields left out).
 */
export function codexHookHash(event: HookEvent, matcher: string | undefined, h: CodexHandler): string {
  const handler = {
    type: 'command',
    command: h.command,
    timeout: Math.max(1, Math.trunc(h.timeout ?? 600)),
    async: h.async === true,
    ...(h.statusMessage !== undefined ? { statusMessage: h.statusMessage } : {}),
  }
  const identity = { event_name: EVENT_LABEL[event], ...(matcher !== undefined && !NO_MATCHER.has(event) ? { matcher } : {}), hooks: [handler] }
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(sortedKeys(identity)))
    .digest('hex')}`
}

export const trustKey = (hooksPath: string, event: HookEvent, group: number, handler: number): string =>
  `${hooksPath}:${EVENT_LABEL[event]}:${group}:${handler}`

export interface CodexHook {
  event: HookEvent
  hook: HookName
  key: string
  hash: string
  command: string
  /** Seconds, as written. */
  timeout?: number
}

/** Our handlers in a hooks.json text (the first of each event), with the key and hash Codex trusts them by. */
export function ourCodexHooks(hooksPath: string, text: string): CodexHook[] {
  const root = parseJson(text)
  if (root.kind !== 'object') return []
  const hooks = hooksObject(root)
  if (!hooks) return []
  const out: CodexHook[] = []
  for (const event of HOOK_EVENTS) {
    const em = hooks.members.find((m) => m.key === event)
    const f = em ? findInEvent(em)[0] : undefined
    if (!f) continue
    const h = toValue(f.handler) as Record<string, unknown>
    if (typeof h.command !== 'string') continue
    const matcher = member(f.group, 'matcher')?.value
    const m = matcher?.kind === 'string' ? (toValue(matcher) as string) : undefined
    const handler: CodexHandler = {
      command: h.command,
      ...(typeof h.timeout === 'number' ? { timeout: h.timeout } : {}),
      ...(typeof h.async === 'boolean' ? { async: h.async } : {}),
      ...(typeof h.statusMessage === 'string' ? { statusMessage: h.statusMessage } : {}),
    }
    out.push({
      event,
      hook: f.hook,
      key: trustKey(hooksPath, event, f.groupIndex, f.handlerIndex),
      hash: codexHookHash(event, m, handler),
      command: h.command,
      ...(handler.timeout !== undefined ? { timeout: handler.timeout } : {}),
    })
  }
  return out
}

// ------------------------------------------------------------------------------------------- config.toml

/** A table bookmark wants in config.toml: its header line and the lines under it. */
export interface TomlTable {
  header: string
  lines: string[]
  /** A table of this header that is not ours keeps its other lines: only this key's line is set. */
  key?: string
}

/** What setup changed in config.toml, so uninstall gives the same bytes back. */
export interface TomlCreated {
  /** The file did not exist. */
  file: boolean
  /** A newline was added after the file's last line before the first table. */
  newline: boolean
  /** Headers of the tables setup appended. */
  tables: string[]
  /** Tables that were there: header -> the line of `key` it had (null: none, the line was added). */
  replaced: Record<string, string | null>
}

export function isTomlCreated(v: unknown): v is TomlCreated {
  return (
    isObject(v) &&
    typeof v.file === 'boolean' &&
    typeof v.newline === 'boolean' &&
    Array.isArray(v.tables) &&
    v.tables.every((t) => typeof t === 'string') &&
    isObject(v.replaced) &&
    Object.values(v.replaced).every((l) => l === null || typeof l === 'string')
  )
}

export const emptyTomlCreated = (): TomlCreated => ({ file: false, newline: false, tables: [], replaced: {} })

/** A TOML basic string: JSON's escapes are a subset of TOML's. */
export const tomlString = (s: string): string => JSON.stringify(s)

export const trustHeader = (key: string): string => `[hooks.state.${tomlString(key)}]`
export const trustLine = (hash: string): string => `trusted_hash = ${tomlString(hash)}`

/** The header a line opens, in one spelling (`[a . "b"]` and `[a."b"]` are one table), or undefined. */
export function headerOf(line: string): string | undefined {
  const t = line.trim()
  if (!t.startsWith('[') || t.startsWith('[[')) return t.startsWith('[[') ? t : undefined
  const m = /^\[((?:[^\]"']|"(?:[^"\\]|\\.)*"|'[^']*')*)\]\s*(?:#.*)?$/.exec(t)
  if (!m) return t
  const parts: string[] = []
  for (const p of m[1]!.match(/"(?:[^"\\]|\\.)*"|'[^']*'|[^."']+/g) ?? []) {
    const s = p.trim()
    if (s === '') continue
    const key = s.startsWith('"') ? (JSON.parse(s) as string) : s.startsWith("'") ? s.slice(1, -1) : s
    parts.push(/^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key))
  }
  return `[${parts.join('.')}]`
}

interface Span {
  header: string
  /** The header's line index; the body runs to `end` (exclusive), trailing blank lines not included. */
  at: number
  end: number
}

function tablesOf(lines: string[]): Span[] {
  const out: Span[] = []
  lines.forEach((line, i) => {
    const h = headerOf(line)
    if (h === undefined) return
    const last = out[out.length - 1]
    if (last) last.end = i
    out.push({ header: h, at: i, end: lines.length })
  })
  for (const s of out) while (s.end > s.at + 1 && lines[s.end - 1]!.trim() === '') s.end--
  return out
}

const keyOf = (line: string): string | undefined => /^\s*([A-Za-z0-9_-]+)\s*=/.exec(line)?.[1]

export interface TomlPlan {
  after: string
  changed: boolean
  created: TomlCreated
  /** Tables left as they were, for the user to know (a table of that name that is not ours). */
  notes: string[]
}

function splitLines(text: string): { lines: string[]; final: boolean } {
  const final = text.endsWith('\n')
  const lines = (final ? text.slice(0, -1) : text).split('\n')
  return { lines: text === '' ? [] : lines, final }
}

/**
 * config.toml with `want` in it: tables setup appended before are brought to `lines` (and ones no longer
 * wanted removed), a table that was there gets `key`'s line set, a missing one is appended after a blank line.
 */
export function planToml(text: string | undefined, want: TomlTable[], prior: TomlCreated | undefined): TomlPlan {
  const created: TomlCreated = prior
    ? { ...prior, tables: [...prior.tables], replaced: { ...prior.replaced } }
    : { ...emptyTomlCreated(), file: text === undefined }
  const before = text ?? ''
  const notes: string[] = []
  // Our tables no longer wanted (a hook moved in hooks.json, so its key changed) go first.
  let current = removeTables(before, created, (h) => !want.some((w) => w.header === h)).text
  for (const w of want) {
    const { lines, final } = splitLines(current)
    const span = tablesOf(lines).find((s) => s.header === w.header)
    if (!span) {
      if (current !== '' && !final) {
        current += '\n'
        if (created.tables.length === 0) created.newline = true
      }
      current += `${current === '' ? '' : '\n'}${[w.header, ...w.lines].join('\n')}\n`
      created.tables.push(w.header)
      continue
    }
    const body = lines.slice(span.at + 1, span.end)
    if (created.tables.includes(w.header)) {
      if (body.join('\n') !== w.lines.join('\n')) lines.splice(span.at + 1, body.length, ...w.lines)
    } else if (w.key !== undefined) {
      const at = body.findIndex((l) => keyOf(l) === w.key)
      const line = w.lines.find((l) => keyOf(l) === w.key)!
      if (at >= 0 && body[at] !== line) {
        if (!(w.header in created.replaced)) created.replaced[w.header] = body[at]!
        lines[span.at + 1 + at] = line
      } else if (at < 0) {
        if (!(w.header in created.replaced)) created.replaced[w.header] = null
        lines.splice(span.at + 1, 0, line)
      }
    } else notes.push(`${w.header} is already in the file and is not bookmark's: left as it is`)
    current = lines.join('\n') + (final || lines.length > 0 ? '\n' : '')
  }
  return { after: current, changed: text === undefined || current !== before, created, notes }
}

/** `text` without the tables setup appended for which `drop` holds (each with the blank line before it). */
function removeTables(text: string, created: TomlCreated, drop: (header: string) => boolean): { text: string; removed: string[] } {
  const gone = created.tables.filter(drop)
  if (gone.length === 0) return { text, removed: [] }
  const { lines, final } = splitLines(text)
  for (const span of tablesOf(lines).reverse()) {
    if (!gone.includes(span.header)) continue
    const from = span.at > 0 && lines[span.at - 1]!.trim() === '' ? span.at - 1 : span.at
    lines.splice(from, span.end - from)
  }
  created.tables = created.tables.filter((t) => !gone.includes(t))
  return { text: lines.length === 0 ? '' : lines.join('\n') + (final ? '\n' : ''), removed: gone }
}

export interface TomlUndo {
  after: string
  changed: boolean
  /** Setup created the file and nothing else is in it now. */
  deleteFile: boolean
  removed: string[]
}

/** config.toml as it was before setup: our tables out, the lines setup set in other tables back as they were. */
export function undoToml(text: string, created: TomlCreated): TomlUndo {
  const c = { ...created, tables: [...created.tables] }
  const cut = removeTables(text, c, () => true)
  const removed = cut.removed
  let out = cut.text
  const { lines, final } = splitLines(out)
  const spans = tablesOf(lines)
  for (const [header, old] of Object.entries(created.replaced).reverse()) {
    const span = spans.find((s) => s.header === header)
    if (!span) continue
    const at = lines.slice(span.at + 1, span.end).findIndex((l) => keyOf(l) === 'trusted_hash')
    if (at < 0) continue
    if (old === null) lines.splice(span.at + 1 + at, 1)
    else lines[span.at + 1 + at] = old
    removed.push(header)
  }
  out = lines.length === 0 ? '' : lines.join('\n') + (final ? '\n' : '')
  if (created.newline && out.endsWith('\n')) out = out.slice(0, -1)
  return { after: out, changed: out !== text, deleteFile: created.file && out.trim() === '', removed }
}

/** The hook states config.toml holds in `[hooks.state."<key>"]` tables: trusted hash and the enabled switch. */
export function hookStates(text: string): Map<string, { trustedHash?: string; enabled?: boolean }> {
  const out = new Map<string, { trustedHash?: string; enabled?: boolean }>()
  const { lines } = splitLines(text)
  for (const span of tablesOf(lines)) {
    const m = /^\[hooks\.state\.("(?:[^"\\]|\\.)*")\]$/.exec(span.header)
    if (!m) continue
    const state: { trustedHash?: string; enabled?: boolean } = {}
    for (const l of lines.slice(span.at + 1, span.end)) {
      const h = /^\s*trusted_hash\s*=\s*"([^"]*)"/.exec(l)
      if (h) state.trustedHash = h[1]!
      const e = /^\s*enabled\s*=\s*(true|false)\b/.exec(l)
      if (e) state.enabled = e[1] === 'true'
    }
    out.set(JSON.parse(m[1]!) as string, state)
  }
  return out
}

/**
 * Keys that config.toml names some other way than a `[hooks.state."<key>"]` table (a dotted key, an inline
 * table): appending our table would define it twice, and Codex would refuse the whole file.
 */
export function keysNamedElsewhere(text: string, keys: string[]): string[] {
  const { lines } = splitLines(text)
  const headers = new Set(tablesOf(lines).map((s) => s.header))
  return keys.filter((k) => text.includes(tomlString(k)) && !headers.has(trustHeader(k)))
}

export type CodexTrust = 'trusted' | 'untrusted' | 'modified' | 'disabled'

/** How Codex would treat one of our hooks: runs it only when `trusted`. */
export function trustOf(hook: CodexHook, states: ReturnType<typeof hookStates>): CodexTrust {
  const s = states.get(hook.key)
  if (s?.enabled === false) return 'disabled'
  if (s?.trustedHash === undefined) return 'untrusted'
  return s.trustedHash === hook.hash ? 'trusted' : 'modified'
}
