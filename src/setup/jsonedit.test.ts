import { describe, expect, it } from 'vitest'
import { GUARD } from './hooks.js'
import {
  type ArrayNode,
  JsonParseError,
  type ObjectNode,
  appendItem,
  applyEdit,
  detectStyle,
  insertMember,
  member,
  parseJson,
  removeElement,
  replaceValue,
  toValue,
} from './jsonedit.js'
import { type Created, planSetup, planUninstall } from './plan.js'

const LAUNCH = { node: '/opt/node/bin/node', entry: '/opt/pkg/bin/bookmark.cjs' }

describe('parseJson: strict JSON with spans', () => {
  it.each(['{}', '[]', ' {"a": [1, -2.5e+3, true, false, null, "x\\u00e9\\n\\"", {}]} ', '\ufeff{"bom": 1}', '"just a string"', '0', '{"a":1,"a":2}'])(
    'agrees with JSON.parse on %j',
    (text) => {
      expect(toValue(parseJson(text))).toEqual(JSON.parse(text.replace(/^\ufeff/, '')))
    },
  )

  it.each([
    ['{"a": 1 // note\n}', 1, 9, /comment/],
    ['{\n  "a": 1,\n}', 3, 1, /trailing comma/],
    ['[1, 2,]', 1, 7, /trailing comma/],
    ['{"a": 1} x', 1, 10, /after the end/],
    ["{'a': 1}", 1, 2, /double-quoted member name/],
    ['{"a": 01}', 1, 8, /malformed number/],
    ['{"a": "tab\there"}', 1, 11, /control character/],
    ['{"a": "\\x"}', 1, 8, /bad escape/],
    ['{"a" 1}', 1, 6, /expected ":"/],
    ['', 1, 1, /empty/],
    ['{"a": NaN}', 1, 7, /expected a JSON value/],
    ['/* c */ {}', 1, 1, /comment/],
    ['{"a": "unterminated', 1, 7, /unterminated/],
  ])('refuses %j at line %i, column %i', (text, line, column, reason) => {
    let err: unknown
    try {
      parseJson(text)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(JsonParseError)
    expect(err).toMatchObject({ line, column })
    expect((err as Error).message).toMatch(reason)
    expect((err as Error).message).toMatch(`line ${line}, column ${column}`)
  })

  it('records the source span of every member and value', () => {
    const text = '{ "a" : [1, {"b": "c"}] ,"d":null}'
    const root = parseJson(text) as ObjectNode
    const a = member(root, 'a')!
    expect(text.slice(a.start, a.end)).toBe('"a" : [1, {"b": "c"}]')
    const arr = a.value as ArrayNode
    expect(text.slice(arr.items[1]!.start, arr.items[1]!.end)).toBe('{"b": "c"}')
    expect(text.slice(member(root, 'd')!.value.start, member(root, 'd')!.value.end)).toBe('null')
  })
})

describe('edits: only our text changes, and removal is the exact inverse of insertion', () => {
  const docs = [
    '{}',
    '{}\n',
    '{ }',
    '{\n}\n',
    '{"a":1}',
    '{ "a": 1 }',
    '{\n  "a": 1\n}\n',
    '{\n    "a": [1,2],\n    "b": {"c": "\\u00e9"}\n}\n',
    '{\r\n\t"a": 1,\r\n\t"b": 2\r\n}\r\n',
    '  {\n      "x": true\n  }  ',
  ]
  it.each(docs)('insertMember then removeElement restores %j', (text) => {
    const root = parseJson(text) as ObjectNode
    const interior = text.slice(root.start + 1, root.end - 1)
    const inserted = applyEdit(text, insertMember(text, root, 'hooks', { Stop: [{ hooks: [{ type: 'command', args: ['a', 'b'] }] }] }, detectStyle(text, root)))
    const after = parseJson(inserted) as ObjectNode
    expect(toValue(after)).toEqual({ ...(toValue(root) as object), hooks: { Stop: [{ hooks: [{ type: 'command', args: ['a', 'b'] }] }] } })
    expect(inserted.startsWith(text.slice(0, root.members.at(-1)?.end ?? root.start + 1))).toBe(true)
    const back = applyEdit(inserted, removeElement(after, after.members.length - 1, root.members.length === 0 ? interior : ''))
    expect(back).toBe(text)
  })

  it('matches the file: indentation unit, line ends, colon style, compact roots', () => {
    const tabs = '{\r\n\t"a": 1\r\n}'
    const t = parseJson(tabs) as ObjectNode
    expect(applyEdit(tabs, insertMember(tabs, t, 'b', [1], detectStyle(tabs, t)))).toBe('{\r\n\t"a": 1,\r\n\t"b": [\r\n\t\t1\r\n\t]\r\n}')
    const four = '{\n    "a" : 1\n}'
    const f = parseJson(four) as ObjectNode
    expect(applyEdit(four, insertMember(four, f, 'b', { c: 2 }, detectStyle(four, f)))).toBe('{\n    "a" : 1,\n    "b" : {\n        "c" : 2\n    }\n}')
    const compact = '{"a":1}'
    const c = parseJson(compact) as ObjectNode
    expect(applyEdit(compact, insertMember(compact, c, 'b', { c: [2, 3] }, detectStyle(compact, c)))).toBe('{"a":1,"b":{"c":[2,3]}}')
  })

  it('appends to an inline array on one line, and replaces a value in its own style', () => {
    const text = '{\n  "x": [ {"a": 1} ],\n  "y": "old"\n}'
    const root = parseJson(text) as ObjectNode
    const style = detectStyle(text, root)
    expect(applyEdit(text, appendItem(text, member(root, 'x')!.value as ArrayNode, { b: 2 }, style))).toBe('{\n  "x": [ {"a": 1}, {"b": 2} ],\n  "y": "old"\n}')
    expect(applyEdit(text, replaceValue(text, member(root, 'y')!.value, ['n', 1], style))).toBe('{\n  "x": [ {"a": 1} ],\n  "y": ["n", 1]\n}')
  })

  it('removes the first element with its separator, keeping the rest', () => {
    const text = '[\n  1,\n  2,\n  3\n]'
    const arr = parseJson(text) as ArrayNode
    expect(applyEdit(text, removeElement(arr, 0))).toBe('[\n  2,\n  3\n]')
    expect(applyEdit(text, removeElement(arr, 1))).toBe('[\n  1,\n  3\n]')
    expect(applyEdit(text, removeElement(arr, 2))).toBe('[\n  1,\n  2\n]')
  })
})

describe('planSetup / planUninstall', () => {
  const other = { type: 'command', command: 'other-tool', args: ['hook'] }
  const cases: [string, string | undefined][] = [
    ['a missing file', undefined],
    ['{}', '{}'],
    ['{} with a newline inside', '{\n}\n'],
    ['empty hooks', '{\n  "hooks": {}\n}\n'],
    ['empty event arrays', '{"hooks": {"Stop": [], "SessionStart": [ ]}}'],
    [
      'other tools in the same events',
      JSON.stringify({ model: 'x', hooks: { Stop: [{ hooks: [other] }], SessionStart: [{ matcher: 'startup', hooks: [other] }] } }, null, 4) + '\n',
    ],
  ]
  it.each(cases)('setup then uninstall gives back %s byte for byte', (_name, text) => {
    const setup = planSetup(text, LAUNCH)
    expect(setup.changed).toBe(true)
    const value = toValue(parseJson(setup.after)) as { hooks: Record<string, { hooks: unknown[] }[]> }
    expect(value.hooks.PreCompact!.at(-1)).toEqual({
      hooks: [{ type: 'command', command: LAUNCH.node, args: ['-e', GUARD, LAUNCH.entry, 'precompact'], timeout: 60 }],
    })
    expect(planSetup(setup.after, LAUNCH).changed).toBe(false)
    const un = planUninstall(setup.after, setup.created)
    expect(un.removed).toBe(4)
    if (text === undefined) expect(un.deleteFile).toBe(true)
    else expect(un.after).toBe(text)
  })

  it('without a record, uninstall removes only what our handlers filled', () => {
    const text = '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}'
    const wired = planSetup(text, LAUNCH).after
    const un = planUninstall(wired, undefined)
    expect(un.after).toBe(text)
  })

  it('updates an old install in place: node moved, shell form, timeout in ms, duplicates', () => {
    const text = JSON.stringify(
      {
        hooks: {
          SessionStart: [{ hooks: [{ type: 'command', command: '/old/node', args: ['/old/bin/bookmark.cjs', 'restore'], timeout: 15 }] }],
          UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'npx bookmark check', timeout: 15000 }] }],
          PreCompact: [{ hooks: [{ type: 'command', command: 'node /x/bin/bookmark.cjs precompact' }] }],
          Stop: [{ hooks: [other, { type: 'command', command: 'bookmark stop' }] }, { hooks: [{ type: 'command', command: 'bookmark stop' }] }],
        },
      },
      null,
      2,
    )
    const plan = planSetup(text, LAUNCH)
    expect(plan.hadOurs).toBe(true)
    const hooks = (toValue(parseJson(plan.after)) as { hooks: Record<string, { hooks: unknown[] }[]> }).hooks
    expect(hooks.SessionStart).toEqual([{ hooks: [{ type: 'command', command: LAUNCH.node, args: ['-e', GUARD, LAUNCH.entry, 'restore'], timeout: 15 }] }])
    expect(hooks.UserPromptSubmit).toEqual([{ hooks: [{ type: 'command', command: LAUNCH.node, timeout: 15, args: ['-e', GUARD, LAUNCH.entry, 'check'] }] }])
    expect(hooks.Stop).toEqual([{ hooks: [other, { type: 'command', command: LAUNCH.node, args: ['-e', GUARD, LAUNCH.entry, 'stop'], timeout: 60 }] }])
    expect(Object.values(plan.events)).toEqual(['updated', 'updated', 'updated', 'updated'])
  })

  it('refuses shapes it cannot edit safely', () => {
    expect(() => planSetup('[]', LAUNCH)).toThrow(/top level is an array/)
    expect(() => planSetup('{"hooks": "x"}', LAUNCH)).toThrow(/"hooks" is a string/)
    expect(() => planSetup('{"hooks": {"Stop": {}}}', LAUNCH)).toThrow(/hooks.Stop" is not an array/)
    expect(() => planSetup('{"hooks": {}, "hooks": {}}', LAUNCH)).toThrow(/appears 2 times/)
  })

  it('keeps the record of created containers across a later update', () => {
    const created: Created = planSetup('{}', LAUNCH).created
    expect(created).toEqual({ file: false, hooks: true, events: [], interiors: { '': '' } })
  })
})

describe('setup then uninstall on generated files (seeded)', () => {
  // A tiny deterministic PRNG, so a failure names its seed.
  const rng = (seed: number) => () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
  function format(value: unknown, r: () => number, indent: string, unit: string, eol: string): string {
    const ws = (): string => [' ', '', `${eol}${indent}${unit}`][Math.floor(r() * 3)]!
    const close = (): string => [' ', '', `${eol}${indent}`][Math.floor(r() * 3)]!
    if (Array.isArray(value)) {
      if (value.length === 0) return ['[]', '[ ]', `[${eol}${indent}]`][Math.floor(r() * 3)]!
      return `[${value.map((v) => ws() + format(v, r, indent + unit, unit, eol)).join(',')}${close()}]`
    }
    if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value)
      if (entries.length === 0) return ['{}', '{ }', `{${eol}${indent}}`][Math.floor(r() * 3)]!
      return `{${entries.map(([k, v]) => `${ws()}${JSON.stringify(k)}${[':', ': ', ' : '][Math.floor(r() * 3)]}${format(v, r, indent + unit, unit, eol)}`).join(',')}${close()}}`
    }
    return typeof value === 'string' && r() < 0.3 ? JSON.stringify(value).replace(/e/g, '\\u0065') : JSON.stringify(value)
  }
  const other = (r: () => number) => ({ hooks: [{ type: 'command', command: `tool-${Math.floor(r() * 100)}` }], ...(r() < 0.5 ? { matcher: 'startup' } : {}) })
  function settings(r: () => number): unknown {
    const out: Record<string, unknown> = {}
    if (r() < 0.5) out.model = 'opus'
    if (r() < 0.4) out.permissions = { allow: ['Read', 'Bash(git *)'], deny: [] }
    if (r() < 0.8) {
      const hooks: Record<string, unknown> = {}
      for (const e of ['Stop', 'SessionStart', 'PostToolUse', 'PreCompact', 'UserPromptSubmit']) {
        if (r() < 0.5) hooks[e] = Array.from({ length: Math.floor(r() * 3) }, () => other(r))
      }
      out.hooks = hooks
    }
    if (r() < 0.5) out.env = { K: 'v' }
    return out
  }
  it('300 seeds: valid JSON, one handler of ours per event, idempotent, uninstall gives the bytes back', () => {
    for (let seed = 1; seed <= 300; seed++) check(seed)
  })
  function check(seed: number): void {
    const r = rng(seed)
    const unit = ['  ', '    ', '\t'][seed % 3]!
    const eol = seed % 5 === 0 ? '\r\n' : '\n'
    const text = format(settings(r), r, '', unit, eol) + (r() < 0.5 ? eol : '')
    const setup = planSetup(text, LAUNCH)
    const value = toValue(parseJson(setup.after)) as { hooks: Record<string, { hooks: unknown[] }[]> }
    expect(JSON.parse(setup.after)).toEqual(value)
    for (const e of ['SessionStart', 'UserPromptSubmit', 'PreCompact', 'Stop'])
      expect(value.hooks[e]!.filter((g) => JSON.stringify(g).includes('bookmark.cjs'))).toHaveLength(1)
    expect(planSetup(setup.after, LAUNCH).changed).toBe(false)
    expect(planUninstall(setup.after, setup.created).after, `seed ${seed}`).toBe(text)
  }
})
