/**
 * The permission rule that lets the model write the handoff (.bookmark/bookmark.context.md) without a
 * prompt, and nothing else: which rule setup adds, the edit that adds it to `permissions.allow`, the edit
 * that takes exactly it away again, and whether a rule someone wrote allows the handoff. Pure.
 *
 * Facts from the real binaries (docs/PERMISSIONS.md, Claude Code 2.1.332 and 2.0.76): only `Edit(…)` rules
 * allow the Write tool (`Write(path)` rules match nothing); `//abs` is an absolute path and works in user and
 * project settings alike, from the project root and from a subfolder; `**` and `/…` patterns are relative
 * to the session's folder or the settings file, so they miss the root's handoff from a subfolder.
 */
import { type ArrayNode, type Edit, type ObjectNode, type Style, appendItem, insertMember, interiorOf, removeElement } from './jsonedit.js'
import { SettingsShapeError, kindName, pointer, single } from './shape.js'

/** The handoff in every project (and in the default bookmark home ~/.bookmark): one file name in one folder name. */
export const ANY_HANDOFF_RULE = 'Edit(//**/.bookmark/bookmark.context.md)'

const HANDOFF = '/.bookmark/bookmark.context.md'
const HOME_HANDOFF = '/bookmark.context.md'

/**
 * `Edit(//<path>)` for exactly this absolute path, or undefined when a rule cannot say it exactly in both
 * versions checked: `*`, `?` and `\` stay patterns even escaped (2.0.76), `)` ends the rule (2.0.76), a name
 * with white space at an end is trimmed. `[ ] { }` are escaped with a backslash (checked in both).
 */
export function exactEditRule(path: string): string | undefined {
  if (!path.startsWith('/') || /[*?\\)\u0000-\u001f\u007f]/.test(path)) return undefined
  if (path.split('/').some((name) => name !== name.trim())) return undefined
  return `Edit(/${path.replace(/[[\]{}]/g, (c) => `\\${c}`)})`
}

/**
 * The rules setup adds. User settings serve every project: one rule for the handoff of any project, and one
 * for the home-scope handoff when the bookmark home is not a `.bookmark` folder (BOOKMARK_HOME moved it).
 * Project settings serve one project: its own handoff's absolute path.
 */
export function handoffRules(target: { scope: 'user'; bookmarkHome: string } | { scope: 'project'; root: string }): string[] {
  if (target.scope === 'project') return [exactEditRule(trimSlash(target.root) + HANDOFF) ?? ANY_HANDOFF_RULE]
  const home = trimSlash(target.bookmarkHome)
  if (home.endsWith('/.bookmark')) return [ANY_HANDOFF_RULE]
  return [...new Set([ANY_HANDOFF_RULE, exactEditRule(home + HOME_HANDOFF) ?? ANY_HANDOFF_RULE])]
}

const trimSlash = (p: string): string => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p)

// ----------------------------------------------------------------------------------------- the edits

/** What setup created for the rules (part of plan.ts's Created). */
export interface PermissionCreated {
  /** The `permissions` key did not exist. */
  permissions?: boolean
  /** `permissions.allow` did not exist. */
  allow?: boolean
  /** The rules setup added (a rule already there is the user's and is not listed). */
  rules?: string[]
  interiors: Record<string, string>
}

const ALLOW = pointer('permissions', 'allow')
const PERMISSIONS = pointer('permissions')

const strings = (arr: ArrayNode): string[] => arr.items.flatMap((n) => (n.kind === 'string' && typeof n.value === 'string' ? [n.value] : []))

/**
 * One edit towards `rules` being in `permissions.allow`, or undefined when they all are. Records in `created`
 * what it makes, and the whitespace of a container it fills. Throws SettingsShapeError for shapes it cannot edit.
 */
export function addRuleStep(current: string, root: ObjectNode, style: Style, rules: readonly string[], created: PermissionCreated): Edit | undefined {
  if (rules.length === 0) return undefined
  const remember = (key: string, c: ObjectNode | ArrayNode): void => {
    if (!(key in created.interiors)) created.interiors[key] = interiorOf(current, c)
  }
  const added = (r: string[]): void => void (created.rules = [...(created.rules ?? []), ...r])
  const pm = single(root, 'permissions', 'the settings')
  if (!pm) {
    created.permissions = true
    added([...rules])
    if (root.members.length === 0) remember('', root)
    return insertMember(current, root, 'permissions', { allow: [...rules] }, style)
  }
  if (pm.value.kind !== 'object') throw new SettingsShapeError(`"permissions" is ${kindName(pm.value.kind)}, not an object`)
  const am = single(pm.value, 'allow', '"permissions"')
  if (!am) {
    created.allow = true
    added([...rules])
    if (pm.value.members.length === 0) remember(PERMISSIONS, pm.value)
    return insertMember(current, pm.value, 'allow', [...rules], style)
  }
  if (am.value.kind !== 'array') throw new SettingsShapeError(`"permissions.allow" is ${kindName(am.value.kind)}, not an array`)
  const have = strings(am.value)
  const missing = rules.find((r) => !have.includes(r))
  if (missing === undefined) return undefined
  added([missing])
  if (am.value.items.length === 0) remember(ALLOW, am.value)
  return appendItem(current, am.value, missing, style)
}

/**
 * One edit towards taking away what setup added: a recorded rule (one occurrence each: `left` counts them
 * down), then `allow` and `permissions` when setup created them and they are empty again, each emptied
 * container getting its old whitespace back. Without a record nothing is removed: the rule may be the user's.
 */
export function removeRuleStep(root: ObjectNode, created: PermissionCreated | undefined, left: string[], removed: string[]): Edit | undefined {
  if (!created) return undefined
  const interiors = created.interiors
  for (const [pi, pm] of root.members.entries()) {
    if (pm.key !== 'permissions' || pm.value.kind !== 'object') continue
    const perms = pm.value
    for (const [ai, am] of perms.members.entries()) {
      if (am.key !== 'allow' || am.value.kind !== 'array') continue
      const i = am.value.items.findIndex((n) => n.kind === 'string' && left.includes(n.value as string))
      if (i !== -1) {
        const rule = (am.value.items[i] as { value: string }).value
        left.splice(left.indexOf(rule), 1)
        removed.push(rule)
        return removeElement(am.value, i, interiors[ALLOW] ?? '')
      }
      if (am.value.items.length === 0 && (created.allow || created.permissions)) return removeElement(perms, ai, interiors[PERMISSIONS] ?? '')
    }
    if (perms.members.length === 0 && created.permissions) return removeElement(root, pi, interiors[''] ?? '')
  }
  return undefined
}

// ------------------------------------------------------------------------------ reading a rule (doctor)

/** Where a rule's relative paths start: the user's home (`~/`), the project root (`/…`, `./…`, bare). */
export interface RuleBase {
  home: string
  root: string
}

/**
 * A gitignore-style pattern as a regular expression over absolute paths: `**` any folders, `*` and `?` within
 * a name, `[…]` a class, `\x` the character x. A pattern without a slash matches at any depth under `base`.
 */
function patternRegex(pattern: string, base: string): RegExp {
  let body = ''
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === '\\' && i + 1 < pattern.length) body += escapeRe(pattern[++i]!)
    else if (c === '*' && pattern[i + 1] === '*') {
      i++
      if (pattern[i + 1] === '/') {
        i++
        body += '(?:.*/)?'
      } else body += '.*'
    } else if (c === '*') body += '[^/]*'
    else if (c === '?') body += '[^/]'
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2)
      if (end === -1) body += '\\['
      else {
        body += `[${pattern
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`
        i = end
      }
    } else body += escapeRe(c)
  }
  const anywhere = !pattern.replace(/\/$/, '').includes('/')
  const start = trimSlash(base) === '/' ? '' : escapeRe(trimSlash(base))
  return new RegExp(`^${start}/${anywhere ? '(?:.*/)?' : ''}${body}(?:/.*)?$`)
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

/**
 * Whether an allow rule lets the Write tool write `file` (an absolute path): `Write` without a pattern allows
 * every write, `Edit(pattern)` the files it matches. Lenient where versions differ (a reading for doctor).
 */
export function ruleAllowsWrite(rule: string, file: string, base: RuleBase): boolean {
  const r = rule.trim()
  if (r === 'Write' || r === 'Write(*)' || r === 'Write(**)') return true
  const m = /^Edit\((.*)\)$/s.exec(r)
  if (!m) return false
  const p = m[1]!
  if (p === '*' || p === '**') return true
  try {
    if (p.startsWith('//')) return patternRegex(p.slice(2), '/').test(file)
    if (p.startsWith('~/')) return patternRegex(p.slice(2), base.home).test(file)
    if (p.startsWith('/')) return patternRegex(p.slice(1), base.root).test(file)
    return patternRegex(p.startsWith('./') ? p.slice(2) : p, base.root).test(file)
  } catch {
    return false // a class the RegExp cannot take: not a rule that matches
  }
}
