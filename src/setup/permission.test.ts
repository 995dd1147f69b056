import { describe, expect, it } from 'vitest'
import { ANY_HANDOFF_RULE, exactEditRule, handoffRules, ruleAllowsWrite } from './permission.js'
import { planSetup, planUninstall } from './plan.js'

const LAUNCH = { node: '/usr/bin/node', entry: '/pkg/bin/bookmark.cjs' }
const PROJECT_RULE = 'Edit(//work/app/.bookmark/bookmark.context.md)'

describe('handoffRules', () => {
  it.each([
    ['user settings, bookmark home ~/.bookmark', { scope: 'user', bookmarkHome: '/home/u/.bookmark' }, [ANY_HANDOFF_RULE]],
    ['user settings, BOOKMARK_HOME elsewhere', { scope: 'user', bookmarkHome: '/data/bm/' }, [ANY_HANDOFF_RULE, 'Edit(//data/bm/bookmark.context.md)']],
    ['project settings', { scope: 'project', root: '/work/app' }, [PROJECT_RULE]],
    ['a root with brackets and braces (escaped)', { scope: 'project', root: '/w/a[1]{x}' }, ['Edit(//w/a\\[1\\]\\{x\\}/.bookmark/bookmark.context.md)']],
    ['a root no rule can name exactly', { scope: 'project', root: '/w/st*r' }, [ANY_HANDOFF_RULE]],
  ] as const)('%s', (_name, target, rules) => {
    expect(handoffRules(target)).toEqual(rules)
  })

  it('names a path exactly only when both checked versions read it so', () => {
    expect(exactEditRule('/w/my proj (1)/f.md')).toBeUndefined() // ")" ends the rule in 2.0.76
    for (const p of ['/w/q?x/f', '/w/b\\s/f', '/w/sp /f', 'relative/f', '/w/new\nline/f']) expect(exactEditRule(p)).toBeUndefined()
    expect(exactEditRule('/w/zoë #1!/f.md')).toBe('Edit(//w/zoë #1!/f.md)')
  })
})

describe('setup adds the rule, uninstall takes exactly it away', () => {
  it.each([
    ['a missing file', undefined],
    ['{}', '{}'],
    ['{} with a newline', '{}\n'],
    ['another key, compact', '{"model":"opus"}'],
    ['an empty permissions object', '{\n  "permissions": {   }\n}\n'],
    ['an empty allow array', '{\n  "permissions": {\n    "allow": [\n    ]\n  }\n}\n'],
    ["the user's own rules", '{\n    "permissions": {"allow": ["Bash(git *)", "Read"], "deny": []}\n}\n'],
  ])('%s: added once, and setup then uninstall gives the bytes back', (_name, text) => {
    const plan = planSetup(text, LAUNCH, [PROJECT_RULE])
    expect(plan.rulesAdded).toEqual([PROJECT_RULE])
    const value = JSON.parse(plan.after) as { permissions: { allow: string[] } }
    expect(value.permissions.allow.filter((r) => r === PROJECT_RULE)).toHaveLength(1)
    const again = planSetup(plan.after, LAUNCH, [PROJECT_RULE])
    expect(again.changed).toBe(false)
    expect(again.rulesAdded).toEqual([])
    const undo = planUninstall(plan.after, plan.created)
    expect(undo.rules).toEqual([PROJECT_RULE])
    if (text === undefined) expect(undo.deleteFile).toBe(true)
    else expect(undo.after).toBe(text)
  })

  it('records what it created: the permissions key, the allow array, the rule', () => {
    const created = (text: string) => {
      const c = planSetup(text, LAUNCH, [PROJECT_RULE]).created
      return { permissions: c.permissions === true, allow: c.allow === true, rules: c.rules }
    }
    expect(created('{}')).toEqual({ permissions: true, allow: false, rules: [PROJECT_RULE] })
    expect(created('{"permissions":{"deny":[]}}')).toEqual({ permissions: false, allow: true, rules: [PROJECT_RULE] })
    expect(created('{"permissions":{"allow":["Read"]}}')).toEqual({ permissions: false, allow: false, rules: [PROJECT_RULE] })
  })

  it('never adds, records or removes a rule the user already had', () => {
    const text = `{\n  "permissions": {\n    "allow": [\n      "${PROJECT_RULE}"\n    ]\n  }\n}\n`
    const plan = planSetup(text, LAUNCH, [PROJECT_RULE])
    expect(plan.rulesAdded).toEqual([])
    expect(plan.created.rules).toBeUndefined()
    expect(JSON.parse(plan.after).permissions).toEqual({ allow: [PROJECT_RULE] })
    const undo = planUninstall(plan.after, plan.created)
    expect(undo.after).toBe(text)
    expect(undo.rules).toEqual([])
  })

  it('keeps rules the user added after setup, and the containers that now hold them', () => {
    const plan = planSetup('{}\n', LAUNCH, [PROJECT_RULE])
    const edited = JSON.parse(plan.after) as { permissions: { allow: string[] } }
    edited.permissions.allow.unshift('Bash(npm test)')
    const undo = planUninstall(JSON.stringify(edited, null, 2), plan.created)
    expect(JSON.parse(undo.after)).toEqual({ permissions: { allow: ['Bash(npm test)'] } })
    expect(undo.deleteFile).toBe(false)
  })

  it('without a record of what setup added, uninstall leaves the rules alone', () => {
    const plan = planSetup('{}\n', LAUNCH, [PROJECT_RULE])
    const undo = planUninstall(plan.after, undefined)
    expect(undo.removed).toBe(4)
    expect(JSON.parse(undo.after)).toEqual({ permissions: { allow: [PROJECT_RULE] } })
  })

  it('adds the rule to an earlier install that has the hooks but not the rule', () => {
    const hooksOnly = planSetup('{}\n', LAUNCH).after
    const plan = planSetup(hooksOnly, LAUNCH, [ANY_HANDOFF_RULE])
    expect(plan.hadOurs).toBe(true)
    expect(plan.changed).toBe(true)
    expect(Object.values(plan.events)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged'])
    expect(plan.rulesAdded).toEqual([ANY_HANDOFF_RULE])
  })

  it.each([
    ['"permissions" a string', '{"permissions": "all"}', /"permissions" is a string, not an object/],
    ['"allow" an object', '{"permissions": {"allow": {}}}', /"permissions.allow" is an object, not an array/],
    ['two "permissions"', '{"permissions": {}, "permissions": {}}', /"permissions" appears 2 times/],
  ])('refuses %s', (_name, text, message) => {
    expect(() => planSetup(text, LAUNCH, [PROJECT_RULE])).toThrow(message)
  })
})

describe('ruleAllowsWrite', () => {
  const base = { home: '/home/u', root: '/work/app' }
  const handoff = '/work/app/.bookmark/bookmark.context.md'
  it.each([
    [ANY_HANDOFF_RULE, handoff, true],
    [ANY_HANDOFF_RULE, '/home/u/.bookmark/bookmark.context.md', true],
    [ANY_HANDOFF_RULE, '/work/app/.bookmark/other.md', false],
    [ANY_HANDOFF_RULE, '/work/app/notes/bookmark.context.md', false],
    [PROJECT_RULE, handoff, true],
    [PROJECT_RULE, '/work/app2/.bookmark/bookmark.context.md', false],
    ['Edit(//w/a\\[1\\]/.bookmark/bookmark.context.md)', '/w/a[1]/.bookmark/bookmark.context.md', true],
    ['Edit(~/.bookmark/bookmark.context.md)', '/home/u/.bookmark/bookmark.context.md', true],
    ['Edit(/.bookmark/bookmark.context.md)', handoff, true],
    ['Edit(.bookmark/**)', handoff, true],
    ['Edit(**/*.md)', handoff, true],
    ['Edit(src/**)', handoff, false],
    ['Write', handoff, true],
    ['Edit', handoff, false], // checked: a bare Edit does not allow the Write tool
    ['Write(//work/app/.bookmark/bookmark.context.md)', handoff, false], // checked: Write(path) rules match nothing
    ['Bash(echo *)', handoff, false],
  ])('%s allows %s: %s', (rule, file, allowed) => {
    expect(ruleAllowsWrite(rule, file, base)).toBe(allowed)
  })
})
