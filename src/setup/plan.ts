/**
 * What setup and uninstall change in a settings file, as text edits. Pure: text in, text out.
 * Each step parses the current text, makes one edit and starts again, so every offset is fresh.
 */
import { isObject } from '../shared/json.js'
import { type PermissionCreated, addRuleStep, removeRuleStep } from './permission.js'
import { SettingsShapeError, pointer, rootObject, single } from './shape.js'
import { type HookName, type Launch, desiredGroup, desiredHandler, eventsOf, ourHookName } from './hooks.js'
import { geminiHookNotes, mcpStep, unMcpStep } from './gemini.js'
import {
  type ArrayNode,
  type Edit,
  type MemberNode,
  type ObjectNode,
  applyEdit,
  detectStyle,
  insertMember,
  interiorOf,
  member,
  parseJson,
  removeElement,
  replaceValue,
  appendItem,
  toValue,
} from './jsonedit.js'

export { SettingsShapeError } from './shape.js'

/** What setup created, so uninstall can take exactly that away again. */
export interface Created extends PermissionCreated {
  /** The settings file did not exist. */
  file: boolean
  /** The `hooks` key did not exist. */
  hooks: boolean
  /** Event arrays that did not exist. */
  events: string[]
  /** Containers that were empty when setup filled them (JSON pointer -> the whitespace between their brackets). */
  interiors: Record<string, string>
  /** Gemini CLI: the `mcpServers` key did not exist. */
  mcpServers?: boolean
  /** Gemini CLI: setup added `mcpServers.bookmark`. */
  mcp?: boolean
}

export function emptyCreated(): Created {
  return { file: false, hooks: false, events: [], interiors: {} }
}

/** One of our handlers in the settings, with everything needed to edit or remove it. */
export interface Found {
  event: string
  eventMember: MemberNode
  eventArray: ArrayNode
  groupIndex: number
  group: ObjectNode
  handlers: ArrayNode
  handlerIndex: number
  handler: ObjectNode
  hook: HookName
}

/** Our handlers in one event array, in file order. Groups and handlers of other shapes are skipped. */
export function findInEvent(eventMember: MemberNode): Found[] {
  const out: Found[] = []
  const arr = eventMember.value
  if (arr.kind !== 'array') return out
  arr.items.forEach((group, groupIndex) => {
    if (group.kind !== 'object') return
    const handlers = member(group, 'hooks')?.value
    if (handlers?.kind !== 'array') return
    handlers.items.forEach((handler, handlerIndex) => {
      if (handler.kind !== 'object') return
      const hook = ourHookName(toValue(handler))
      if (hook) out.push({ event: eventMember.key, eventMember, eventArray: arr, groupIndex, group, handlers, handlerIndex, handler, hook })
    })
  })
  return out
}

/** The `hooks` object of a parsed settings root, when it has one. */
export function hooksObject(root: ObjectNode): ObjectNode | undefined {
  const v = member(root, 'hooks')?.value
  return v?.kind === 'object' ? v : undefined
}

/**
 * Removes one of our handlers: the whole matcher group when the handler is its only one and the
 * group holds nothing but `hooks` (and a `matcher`), else just the handler.
 */
function removeFound(f: Found, interiors: Record<string, string>): Edit {
  const plainGroup = f.group.members.every((m) => m.key === 'hooks' || m.key === 'matcher')
  if (f.handlers.items.length === 1 && plainGroup) return removeElement(f.eventArray, f.groupIndex, interiors[pointer('hooks', f.event)] ?? '')
  return removeElement(f.handlers, f.handlerIndex)
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]))
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a)
    return ka.length === Object.keys(b).length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]))
  }
  return false
}

export type EventChange = 'added' | 'updated' | 'unchanged'

export interface SetupPlan {
  before: string
  after: string
  changed: boolean
  /** Any of our handlers were in the file before (an earlier or older install). */
  hadOurs: boolean
  /** By the host's own event names (Claude Code's, or Gemini's: eventsOf). */
  events: Record<string, EventChange>
  created: Created
  /** Things in the file that stop the hooks from running, for the user to know. */
  notes: string[]
  /** The permission rules added this time (rules already in `permissions.allow` are not). */
  rulesAdded: string[]
}

/** The starting text setup uses for a settings file that does not exist. */
export const NEW_FILE = '{}\n'

/**
 * The settings text with our four hooks wired: missing ones appended (after other tools' groups),
 * outdated ones (node moved, shell form, timeout in ms) updated in place, duplicates and misplaced
 * ones removed; then the `rules` (permission.ts) added to `permissions.allow` when missing. `text` undefined
 * means the file does not exist. Throws JsonParseError or SettingsShapeError.
 */
export function planSetup(text: string | undefined, launch: Launch, rules: readonly string[] = []): SetupPlan {
  const created = emptyCreated()
  created.file = text === undefined
  const before = text ?? NEW_FILE
  const table = eventsOf(launch)
  const HOOK_EVENTS = table.map((e) => e.event)
  const events: Record<string, EventChange> = Object.fromEntries(HOOK_EVENTS.map((e) => [e, 'unchanged']))
  let hadOurs = false
  const notes: string[] = []
  {
    const root = rootObject(before)
    const hooks = hooksObject(root)
    if (hooks) hadOurs = hooks.members.some((m) => findInEvent(m).length > 0)
    const disabled = member(root, 'disableAllHooks')?.value
    if (disabled?.kind === 'boolean' && disabled.value === true && launch.host !== 'gemini') {
      notes.push('"disableAllHooks": true is set in this file: Claude Code runs no hooks until it is removed')
    }
    if (launch.host === 'gemini') notes.push(...geminiHookNotes(root))
  }
  const remember = (key: string, interior: string): void => {
    if (!(key in created.interiors)) created.interiors[key] = interior
  }
  const step = (current: string): Edit | undefined => {
    const root = rootObject(current)
    const style = detectStyle(current, root)
    const hm = single(root, 'hooks', 'the settings')
    if (!hm) {
      created.hooks = true
      for (const e of HOOK_EVENTS) events[e] = 'added'
      if (root.members.length === 0) remember('', interiorOf(current, root))
      return insertMember(current, root, 'hooks', Object.fromEntries(HOOK_EVENTS.map((e) => [e, [desiredGroup(e, launch)]])), style)
    }
    const hooks = hm.value
    if (hooks.kind !== 'object') throw new SettingsShapeError(`"hooks" is ${hooks.kind === 'array' ? 'an array' : `a ${hooks.kind}`}, not an object`)
    for (const event of HOOK_EVENTS) {
      const em = single(hooks, event, '"hooks"')
      if (!em) {
        created.events.push(event)
        events[event] = 'added'
        if (hooks.members.length === 0) remember(pointer('hooks'), interiorOf(current, hooks))
        return insertMember(current, hooks, event, [desiredGroup(event, launch)], style)
      }
      if (em.value.kind !== 'array') throw new SettingsShapeError(`"hooks.${event}" is not an array`)
      const found = findInEvent(em)
      const keep = found.find((f) => f.hook === table.find((t) => t.event === event)?.hook)
      const extra = found.find((f) => f !== keep)
      if (extra) {
        if (events[event] === 'unchanged') events[event] = 'updated'
        return removeFound(extra, {})
      }
      if (!keep) {
        if (events[event] === 'unchanged') events[event] = 'added'
        if (em.value.items.length === 0) remember(pointer('hooks', event), interiorOf(current, em.value))
        return appendItem(current, em.value, desiredGroup(event, launch), style)
      }
      const want: Record<string, unknown> = { ...desiredHandler(event, launch) }
      if (!member(keep.handler, 'args') !== !('args' in want)) {
        // The other form (an older install's shell form, or the form of another Claude Code version): replaced
        // whole, keeping keys of the user's; a partial edit would stop being ours halfway.
        events[event] = 'updated'
        const extras = Object.entries(toValue(keep.handler) as Record<string, unknown>).filter(([k]) => !(k in want) && k !== 'args')
        return replaceValue(current, keep.handler, { ...want, ...Object.fromEntries(extras) }, style)
      }
      // args (exec form) or command (shell form) first: it is what makes the handler recognisably ours while the others change.
      for (const key of ['args', 'command', 'type', 'timeout', 'name'].filter((k) => k in want)) {
        const m = member(keep.handler, key)
        if (m && deepEqual(toValue(m.value), want[key])) continue
        if (events[event] === 'unchanged') events[event] = 'updated'
        return m ? replaceValue(current, m.value, want[key], style) : insertMember(current, keep.handler, key, want[key], style)
      }
    }
    if (launch.host === 'gemini') return mcpStep(current, root, style, launch, created, notes)
    return addRuleStep(current, root, style, rules, created)
  }
  let after = before
  for (let i = 0; i < 200; i++) {
    const edit = step(after)
    if (!edit) break
    after = applyEdit(after, edit)
  }
  return { before, after, changed: created.file || after !== before, hadOurs, events, created, notes, rulesAdded: created.rules ?? [] }
}

export interface UninstallPlan {
  before: string
  after: string
  changed: boolean
  /** How many of our handlers were removed. */
  removed: number
  /** Events they were removed from. */
  events: string[]
  /** The permission rules removed (those setup recorded adding). */
  rules: string[]
  /** Setup created the file and nothing else is in it now: delete it. */
  deleteFile: boolean
  /** Gemini CLI: our `mcpServers.bookmark` was taken out. */
  mcp?: boolean
}

/**
 * The settings text without our handlers. With the record of what setup created, containers it
 * created are removed when empty and emptied containers get their old whitespace back, so setup
 * then uninstall gives the original bytes. Without a record, containers that only our handlers
 * filled are removed. Throws JsonParseError.
 */
export function planUninstall(text: string, created: Created | undefined, host?: 'gemini'): UninstallPlan {
  const interiors = created?.interiors ?? {}
  const mcp = { removed: false }
  const touched = new Set<string>()
  let removed = 0
  let hooksEmptied = false
  const rulesLeft = [...(created?.rules ?? [])]
  const rules: string[] = []
  const step = (current: string): Edit | undefined => {
    const root = parseJson(current)
    if (root.kind !== 'object') return undefined
    const undo = removeRuleStep(root, created, rulesLeft, rules)
    if (undo) return undo
    const unMcp = host === 'gemini' ? unMcpStep(root, created, mcp) : undefined
    if (unMcp) return unMcp
    for (const hm of root.members) {
      if (hm.key !== 'hooks' || hm.value.kind !== 'object') continue
      for (const em of hm.value.members) {
        const f = findInEvent(em)[0]
        if (f) {
          removed++
          touched.add(em.key)
          return removeFound(f, interiors)
        }
      }
    }
    for (const [hi, hm] of root.members.entries()) {
      if (hm.key !== 'hooks' || hm.value.kind !== 'object') continue
      const hooks = hm.value
      for (const [i, em] of hooks.members.entries()) {
        if (em.value.kind !== 'array' || em.value.items.length > 0) continue
        const ours = created ? created.hooks || created.events.includes(em.key) : touched.has(em.key)
        if (ours) {
          hooksEmptied = true
          return removeElement(hooks, i, interiors[pointer('hooks')] ?? '')
        }
      }
      if (hooks.members.length === 0 && (created ? created.hooks : hooksEmptied)) return removeElement(root, hi, interiors[''] ?? '')
    }
    return undefined
  }
  let after = text
  for (let i = 0; i < 500; i++) {
    const edit = step(after)
    if (!edit) break
    after = applyEdit(after, edit)
  }
  let deleteFile = false
  if (created?.file) {
    const root = parseJson(after)
    deleteFile = root.kind === 'object' && root.members.length === 0
  }
  return { before: text, after, changed: after !== text || deleteFile, removed, events: [...touched], rules, deleteFile, mcp: mcp.removed }
}
