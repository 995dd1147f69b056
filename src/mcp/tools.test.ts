import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { testDeps } from '../../test/helpers/deps.js'
import { InputError } from '../shared/errors.js'
import { TOOLS, type Tool, type ToolContext, callTool, validate } from './tools.js'

const NAMES = [
  'bookmark_snapshot',
  'bookmark_restore',
  'bookmark_status',
  'bookmark_list',
  'bookmark_show',
  'bookmark_export',
  'bookmark_search',
  'bookmark_get',
  'bookmark_wrapup',
]

function tool(name: string): Tool {
  const t = TOOLS.find((x) => x.name === name)
  if (!t) throw new Error(`no tool ${name}`)
  return t
}

/** A fresh temp home and an empty project folder inside it: never the real ~/.bookmark. */
async function setup(): Promise<{ ctx: ToolContext; proj: string; dir: string; home: string }> {
  const deps = await testDeps()
  const proj = join(deps.dir, 'proj')
  mkdirSync(proj)
  return { ctx: { deps, cwd: proj }, proj, dir: deps.dir, home: deps.bookmarkHome }
}

/** The tool error `callTool` gives for `text`. */
const toolError = (text: string) => ({ content: [{ type: 'text', text }], structuredContent: { error: text }, isError: true })

describe('the tool list', () => {
  it('names nine tools in a fixed order', () => {
    expect(TOOLS.map((t) => t.name)).toEqual(NAMES)
  })

  it('each schema is a closed object whose properties include cwd (bookmark_get needs no project)', () => {
    for (const t of TOOLS) {
      expect(t.inputSchema.type).toBe('object')
      expect(t.inputSchema.additionalProperties).toBe(false)
      expect(t.inputSchema.properties.cwd?.type).toBe(t.name === 'bookmark_get' ? undefined : 'string')
    }
  })

  it('declares exactly these arguments per tool', () => {
    expect(Object.fromEntries(TOOLS.map((t) => [t.name, Object.keys(t.inputSchema.properties)]))).toEqual({
      bookmark_snapshot: ['cwd', 'session_id', 'transcript'],
      bookmark_restore: ['cwd', 'source', 'session_id'],
      bookmark_status: ['cwd'],
      bookmark_list: ['cwd', 'all', 'limit'],
      bookmark_show: ['cwd', 'id'],
      bookmark_export: ['cwd', 'budget'],
      bookmark_search: ['cwd', 'query', 'project', 'all', 'kind', 'since', 'before', 'recent', 'limit'],
      bookmark_get: ['id'],
      bookmark_wrapup: ['cwd', 'digest', 'summary', 'decisions', 'discoveries', 'open_threads', 'files', 'commits', 'session_id'],
    })
    expect(tool('bookmark_restore').inputSchema.properties.source?.enum).toEqual(['startup', 'clear', 'compact', 'resume', 'fork'])
    expect(tool('bookmark_list').inputSchema.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 500 })
    expect(tool('bookmark_export').inputSchema.properties.budget).toMatchObject({ type: 'integer', minimum: 1, maximum: 1_000_000 })
  })

  it('annotations: only bookmark_snapshot and bookmark_wrapup write; none is destructive or open-world; titles agree', () => {
    for (const t of TOOLS) {
      const writes = t.name === 'bookmark_snapshot' || t.name === 'bookmark_wrapup'
      expect(t.annotations).toEqual({ title: t.title, readOnlyHint: !writes, destructiveHint: false, idempotentHint: !writes, openWorldHint: false })
      expect(t.description.length).toBeGreaterThan(20)
    }
  })
})

describe('validate', () => {
  const rejects = (name: string, args: Record<string, unknown>) => {
    try {
      validate(tool(name), args)
    } catch (e) {
      expect(e).toBeInstanceOf(InputError)
      return (e as Error).message
    }
    return undefined
  }

  it.each([
    ['bookmark_status', { force: true }, 'bookmark_status: unknown argument "force" (expected: cwd)'],
    ['bookmark_show', { cwd: '/x', snapshot: 'S' }, 'bookmark_show: unknown argument "snapshot" (expected: cwd, id)'],
    ['bookmark_status', { cwd: 5 }, 'bookmark_status: argument "cwd" must be a string, got 5'],
    ['bookmark_snapshot', { session_id: 42 }, 'bookmark_snapshot: argument "session_id" must be a string, got 42'],
    ['bookmark_snapshot', { transcript: ['/a.jsonl'] }, 'bookmark_snapshot: argument "transcript" must be a string, got ["/a.jsonl"]'],
    ['bookmark_list', { all: 'yes' }, 'bookmark_list: argument "all" must be a boolean, got "yes"'],
    ['bookmark_list', { limit: '3' }, 'bookmark_list: argument "limit" must be a whole number, got "3"'],
    ['bookmark_list', { limit: 2.5 }, 'bookmark_list: argument "limit" must be a whole number, got 2.5'],
    ['bookmark_list', { limit: 0 }, 'bookmark_list: argument "limit" must be from 1 to 500, got 0'],
    ['bookmark_list', { limit: 501 }, 'bookmark_list: argument "limit" must be from 1 to 500, got 501'],
    ['bookmark_export', { budget: 0 }, 'bookmark_export: argument "budget" must be from 1 to 1000000, got 0'],
    ['bookmark_export', { budget: 1_000_001 }, 'bookmark_export: argument "budget" must be from 1 to 1000000, got 1000001'],
    ['bookmark_export', { budget: true }, 'bookmark_export: argument "budget" must be a whole number, got true'],
    ['bookmark_restore', { source: 'boot' }, 'bookmark_restore: argument "source" must be one of startup, clear, compact, resume, fork, got "boot"'],
    ['bookmark_restore', { source: 'Startup' }, 'bookmark_restore: argument "source" must be one of startup, clear, compact, resume, fork, got "Startup"'],
    ['bookmark_show', { id: { x: 1 } }, 'bookmark_show: argument "id" must be a string, got {"x":1}'],
    ['bookmark_wrapup', { open_threads: 'one' }, 'bookmark_wrapup: argument "open_threads" must be a list, got "one"'],
  ] as const)('%s %j: %s', (name, args, message) => {
    expect(rejects(name, args)).toBe(message)
  })

  it('reports the first bad argument in the order given', () => {
    expect(rejects('bookmark_list', { limit: 0, all: 'no' })).toBe('bookmark_list: argument "limit" must be from 1 to 500, got 0')
    expect(rejects('bookmark_list', { all: 'no', limit: 0 })).toBe('bookmark_list: argument "all" must be a boolean, got "no"')
  })

  it.each([
    ['bookmark_list', {}],
    ['bookmark_list', { all: false, limit: 1 }],
    ['bookmark_list', { limit: 500 }],
    ['bookmark_export', { budget: 1_000_000 }],
    ['bookmark_restore', { source: 'fork', session_id: 's' }],
    // null and undefined mean "not given"
    ['bookmark_list', { limit: null, all: undefined }],
    ['bookmark_show', { id: null }],
  ] as const)('accepts %s %j', (name, args) => {
    expect(rejects(name, args)).toBeUndefined()
  })
})

describe('callTool with bad arguments', () => {
  it('returns the validation message as a tool error, with the message as structured content', async () => {
    const { ctx } = await setup()
    expect(await callTool('bookmark_list', { limit: -1 }, ctx)).toEqual(toolError('bookmark_list: argument "limit" must be from 1 to 500, got -1'))
    expect(await callTool('bookmark_status', { verbose: true }, ctx)).toEqual(toolError('bookmark_status: unknown argument "verbose" (expected: cwd)'))
  })

  it('a client that wants text only (structured: false) gets the same error without structuredContent', async () => {
    const { ctx } = await setup()
    expect(await callTool('bookmark_restore', { source: 'later' }, { ...ctx, structured: false })).toEqual({
      content: [{ type: 'text', text: 'bookmark_restore: argument "source" must be one of startup, clear, compact, resume, fork, got "later"' }],
      isError: true,
    })
  })

  it.each(NAMES.filter((n) => n !== 'bookmark_get'))('%s: a relative cwd is refused', async (name) => {
    const { ctx } = await setup()
    expect(await callTool(name, { cwd: 'proj' }, ctx)).toEqual(toolError('argument "cwd" must be an absolute path, got "proj"'))
    expect(await callTool(name, { cwd: './x/../y' }, ctx)).toEqual(toolError('argument "cwd" must be an absolute path, got "./x/../y"'))
  })

  it('bookmark_show: an id that is not a snapshot id', async () => {
    const { ctx } = await setup()
    expect(await callTool('bookmark_show', { id: 'latest' }, ctx)).toEqual(
      toolError('not a snapshot id: "latest" (expected the form SNAP_yyyymmdd_hhmmss_mmm_hhhh, as printed by `bookmark list`)'),
    )
  })

  it('bookmark_show: a well-formed id that is not there, and no snapshot at all', async () => {
    const { ctx, proj } = await setup()
    expect(await callTool('bookmark_show', { id: 'SNAP_20260101_000000_000_abcd' }, ctx)).toEqual(
      toolError(`snapshot SNAP_20260101_000000_000_abcd does not exist in ${proj}/.bookmark/snapshots (see \`bookmark list\`)`),
    )
    expect(await callTool('bookmark_show', {}, ctx)).toEqual(toolError(`no snapshots yet in ${proj}/.bookmark (run \`bookmark snapshot\` first)`))
  })

  it('bookmark_export: nothing captured yet', async () => {
    const { ctx, proj } = await setup()
    expect(await callTool('bookmark_export', { budget: 500 }, ctx)).toEqual(
      toolError(`nothing to export in ${proj}: no snapshot yet (capture first: \`bookmark snapshot\`)`),
    )
  })

  it('bookmark_snapshot: no transcript in the temp Claude config folder', async () => {
    const { ctx, proj, dir } = await setup()
    const folder = proj.replace(/[^A-Za-z0-9]/g, '-')
    expect(await callTool('bookmark_snapshot', {}, ctx)).toEqual(
      toolError(`no Claude Code transcripts for ${proj} under ${dir}/home/.claude/projects (expected a folder named ${folder}); pass --transcript PATH`),
    )
  })

  it('bookmark_snapshot: a transcript that is missing or a folder', async () => {
    const { ctx, proj, dir } = await setup()
    expect(await callTool('bookmark_snapshot', { transcript: join(dir, 'gone.jsonl') }, ctx)).toEqual(
      toolError(`transcript not found: ${dir}/gone.jsonl (expected a Claude Code session .jsonl file)`),
    )
    expect(await callTool('bookmark_snapshot', { transcript: proj }, ctx)).toEqual(toolError(`transcript ${proj} is not a file`))
  })

  it('bookmark_snapshot with BOOKMARK_DISABLE=1: a plain result (not an error) that writes nothing', async () => {
    const { ctx, proj, home } = await setup()
    const off = { ...ctx, deps: { ...ctx.deps, env: { ...ctx.deps.env, BOOKMARK_DISABLE: '1' } } }
    const reason = 'capture is off for this run (BOOKMARK_DISABLE in the environment); unset BOOKMARK_DISABLE turns it on; this tool does not override it'
    expect(await callTool('bookmark_snapshot', {}, off)).toEqual({
      content: [{ type: 'text', text: `No snapshot written: ${reason}.` }],
      structuredContent: { written: false, snapshotId: null, snapshotFile: null, projectRoot: proj, reason },
      isError: false,
    })
    expect(existsSync(join(proj, '.bookmark'))).toBe(false)
    expect(existsSync(home)).toBe(false)
  })
})

describe('read-only tools on an empty project', () => {
  it('answer plainly and write nothing anywhere', async () => {
    const { ctx, proj, dir, home } = await setup()
    const before = readdirSync(dir, { recursive: true }).sort()
    expect(await callTool('bookmark_restore', {}, ctx)).toEqual({
      content: [{ type: 'text', text: `Nothing to restore for source startup in ${proj}.` }],
      structuredContent: { projectRoot: proj, source: 'startup', text: '', characters: 0, budget: 6000 },
      isError: false,
    })
    expect(await callTool('bookmark_list', { limit: 3 }, ctx)).toEqual({
      content: [{ type: 'text', text: `No snapshots in ${proj} yet.` }],
      structuredContent: { all: false, projectRoot: proj, total: 0, entries: [] },
      isError: false,
    })
    expect(await callTool('bookmark_list', { all: true }, { ...ctx, structured: false })).toEqual({
      content: [{ type: 'text', text: 'No snapshots registered yet.' }],
      isError: false,
    })
    const status = (await callTool('bookmark_status', { cwd: proj }, ctx)) as { content: { text: string }[]; structuredContent: Record<string, unknown> }
    expect(status.content[0]!.text).toBe(`Project ${proj}: 0 snapshots, 0 sessions.\nNo snapshot yet.\nNarrative blocks: 0; compactions: 0.`)
    expect(status.structuredContent).toMatchObject({ projectRoot: proj, snapshots: 0, sessions: 0, latest: null, bookmarkHome: home, problems: [] })
    expect(readdirSync(dir, { recursive: true }).sort()).toEqual(before)
  })

  it('bookmark_restore takes the source and the budget from the environment', async () => {
    const { ctx, proj } = await setup()
    const env = { ...ctx.deps.env, BOOKMARK_RESTORE_BUDGET: '1234' }
    expect(await callTool('bookmark_restore', { source: 'clear', cwd: proj }, { ...ctx, deps: { ...ctx.deps, env } })).toMatchObject({
      content: [{ type: 'text', text: `Nothing to restore for source clear in ${proj}.` }],
      structuredContent: { source: 'clear', budget: 1234 },
      isError: false,
    })
  })
})
