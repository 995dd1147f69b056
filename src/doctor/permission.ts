/**
 * `bookmark doctor`'s look at the permission rule for the handoff: where our hooks are wired, does a rule in a
 * settings file Claude Code reads let the model write `.bookmark/bookmark.context.md` without asking? Read-only.
 */
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { claudeConfigDir } from '../hosts/claude/transcripts.js'
import { isObject } from '../shared/json.js'
import { homeDir } from '../shared/builtin.js'
import { inspectSettings } from '../setup/inspect.js'
import { ruleAllowsWrite } from '../setup/permission.js'
import { homeLayout, projectLayout } from '../store/layout.js'
import type { Deps } from '../shared/deps.js'
import type { Check } from './check.js'

/** `permissions.allow` / `permissions.deny` of a settings file; none when it is missing or does not parse. */
async function rulesOf(file: string): Promise<{ allow: string[]; deny: string[] }> {
  const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((r): r is string => typeof r === 'string') : [])
  try {
    const value: unknown = JSON.parse(await readFile(file, 'utf8'))
    const p = isObject(value) && isObject(value.permissions) ? value.permissions : {}
    return { allow: list(p.allow), deny: list(p.deny) }
  } catch {
    return { allow: [], deny: [] }
  }
}

/** `root` undefined: a home-scope session, whose handoff is the one in the bookmark home. */
export async function handoffPermissionChecks(root: string | undefined, deps: Deps): Promise<Check[]> {
  const user = join(claudeConfigDir(deps.env), 'settings.json')
  const files = root ? [user, join(root, '.claude', 'settings.local.json'), join(root, '.claude', 'settings.json')] : [user]
  const handoff = root ? projectLayout(root).narrative : homeLayout(resolve(deps.bookmarkHome)).pointer
  const base = { home: homeDir(deps.env), root: root ?? homeDir(deps.env) }
  const wired: string[] = []
  const allowed: string[] = []
  const denied: string[] = []
  for (const file of files) {
    if ((await inspectSettings(file, deps.env)).events.Stop.wired) wired.push(file)
    const { allow, deny } = await rulesOf(file)
    allowed.push(...allow.filter((r) => ruleAllowsWrite(r, handoff, base)).map((r) => `${r} in ${file}`))
    denied.push(...deny.filter((r) => r === 'Write' || ruleAllowsWrite(r, handoff, base)).map((r) => `${r} in ${file}`))
  }
  if (wired.length === 0) return [] // hookChecks says what is missing
  if (denied.length > 0)
    return [
      {
        id: 'permissions',
        status: 'warn',
        message: `${denied.join('; ')} denies writing the handoff ${handoff}: the Stop hook's request for it fails`,
        fix: 'remove that rule from permissions.deny',
      },
    ]
  if (allowed.length > 0) return [{ id: 'permissions', status: 'ok', message: `the model may write the handoff ${handoff} without asking (${allowed[0]})` }]
  const project = wired.every((f) => f !== user)
  return [
    {
      id: 'permissions',
      status: 'warn',
      message: `hooks are wired in ${wired.join(', ')}, but no permissions.allow rule lets the model write the handoff ${handoff}: Claude Code asks every time, and claude -p denies it`,
      fix: `run \`bookmark setup${project ? ' --project' : ''}\` (it adds the rule; docs/PERMISSIONS.md)`,
    },
  ]
}
