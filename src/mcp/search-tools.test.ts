/**
 * bookmark_search and bookmark_get over a small Claude Code store in a temp home (never the real ~/.claude or
 * ~/.bookmark): the hits and their transcript lines, orientation, errors, and the index kept open between calls.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { testDeps } from '../../test/helpers/deps.js'
import { CATCH_UP_EVERY_MS, type SearchCache } from '../memory/commands.js'
import { runIndex } from '../memory/log-commands.js'
import { globalConfigPath } from '../config/resolve.js'
import { editConfigFile } from '../config/write.js'
import { TOOLS, type ToolContext, callTool } from './tools.js'

type Result = { content: { type: string; text: string }[]; structuredContent?: Record<string, any>; isError: boolean }

const line = (n: number, cwd: string, ts: string, content: string): string =>
  JSON.stringify({ type: 'user', uuid: `u${n}`, sessionId: 's', cwd, timestamp: ts, message: { role: 'user', content } })

/** Two sessions of two projects; the clock is set by hand so that the catch-up interval can be crossed. */
async function world(): Promise<{ ctx: ToolContext & { memory: SearchCache }; transcript: string; clock: { t: number } }> {
  const clock = { t: Date.parse('2026-11-28T10:00:00.000Z') }
  const deps = await testDeps({ now: () => new Date(clock.t) })
  const dir = join(deps.env.CLAUDE_CONFIG_DIR!, 'projects', '-w')
  mkdirSync(dir, { recursive: true })
  const transcript = join(dir, 'aaaaaaaa-0000-4000-8000-000000000000.jsonl')
  writeFileSync(
    transcript,
    [
      line(1, '/w/parser', '2026-11-20T09:00:00Z', 'rename parseLine to parseEntry in the transcript reader'),
      line(2, '/w/parser', '2026-11-21T09:00:00Z', 'the reader should skip a torn last line'),
    ].join('\n') + '\n',
  )
  writeFileSync(
    join(dir, 'bbbbbbbb-0000-4000-8000-000000000000.jsonl'),
    `${line(3, '/w/site/.worktrees/redesign', '2026-11-22T09:00:00Z', 'make the homepage hero smaller')}\n`,
  )
  await runIndex({ backfill: true }, deps)
  return { ctx: { deps, cwd: join(deps.dir, 'nowhere'), structured: true, memory: {} }, transcript, clock }
}

describe('bookmark_search and bookmark_get', () => {
  it('takes a configured project alias, for a search and for orientation', async () => {
    const { ctx } = await world()
    await editConfigFile(globalConfigPath(ctx.deps.bookmarkHome), { aliasAdd: [['front', '/w/site']] })
    const r = (await callTool('bookmark_search', { query: 'homepage', project: 'front' }, ctx)) as Result
    expect(r.structuredContent!.hits.map((h: { project: string }) => h.project)).toEqual(['/w/site/.worktrees/redesign'])
    expect(((await callTool('bookmark_search', { query: 'reader', project: 'front' }, ctx)) as Result).structuredContent!.hits).toEqual([])
    const o = (await callTool('bookmark_search', { project: 'front' }, ctx)) as Result
    expect(o.content[0]!.text).toContain('make the homepage hero smaller')
    expect(o.content[0]!.text).not.toContain('parseLine')
  })

  it('finds an event with its transcript line, and bookmark_get prints it in full', async () => {
    const { ctx, transcript } = await world()
    const r = (await callTool('bookmark_search', { query: 'parseLine' }, ctx)) as Result
    expect(r.isError).toBe(false)
    const hit = r.structuredContent!.hits[0]
    expect(hit).toMatchObject({
      rank: 1,
      kind: 'request',
      project: '/w/parser',
      transcript,
      line: 1,
      snippet: 'rename parseLine to parseEntry in the transcript reader',
    })
    expect(r.structuredContent!.scope).toBe('all')
    expect(r.content[0]!.text).toContain(`${transcript}:1  (id ${hit.id})`)
    const g = (await callTool('bookmark_get', { id: hit.id }, ctx)) as Result
    expect(g.isError).toBe(false)
    expect(g.content[0]!.text).toContain(`Event ${hit.id}: request`)
    expect(g.content[0]!.text).toContain(`Read more: ${transcript}:1`)
    expect(g.structuredContent!.event).toMatchObject({ id: hit.id, line: 1, session: 'aaaaaaaa-0000-4000-8000-000000000000' })
  })

  it('takes the CLI options: recent, since, project by repository name, limit', async () => {
    const { ctx } = await world()
    const recent = (await callTool('bookmark_search', { query: 'reader', recent: true }, ctx)) as Result
    expect(recent.structuredContent!.hits.map((h: { line: number }) => h.line)).toEqual([2, 1])
    const since = (await callTool('bookmark_search', { query: 'reader', since: '2026-11-21' }, ctx)) as Result
    expect(since.structuredContent!.hits.map((h: { line: number }) => h.line)).toEqual([2])
    const repo = (await callTool('bookmark_search', { query: 'homepage', project: 'site' }, ctx)) as Result
    expect(repo.structuredContent!.hits).toHaveLength(1)
    expect((await callTool('bookmark_search', { query: 'homepage', project: 'parser' }, ctx)) as Result).toMatchObject({
      content: [{ type: 'text', text: 'No events match "homepage" with these filters.' }],
      isError: false,
    })
    const one = (await callTool('bookmark_search', { query: 'reader', limit: 1 }, ctx)) as Result
    expect(one.structuredContent!.hits).toHaveLength(1)
  })

  it('orients on a project given without a query', async () => {
    const { ctx } = await world()
    const r = (await callTool('bookmark_search', { project: 'parser' }, ctx)) as Result
    expect(r.isError).toBe(false)
    const requests = r.structuredContent!.sections.find((s: { title: string }) => s.title === 'Latest requests')
    expect(requests.hits.map((h: { snippet: string }) => h.snippet)).toEqual([
      'the reader should skip a torn last line',
      'rename parseLine to parseEntry in the transcript reader',
    ])
    expect(r.content[0]!.text.split('\n')[0]).toBe('Project parser: the latest of its sessions, newest first (`bookmark get ID` for one in full).')
  })

  it('answers bad input with a tool error', async () => {
    const { ctx } = await world()
    const err = async (name: string, args: Record<string, unknown>) => ((await callTool(name, args, ctx)) as Result).content[0]!.text
    expect(await err('bookmark_search', { query: 'x', kind: 'commits' })).toMatch(/^--kind takes a comma-separated list of request, reply/)
    expect(await err('bookmark_search', { query: 'x', since: 'last week' })).toMatch(/^--since takes a duration/)
    expect(await err('bookmark_search', {})).toMatch(/^search needs a query/)
    expect(await err('bookmark_search', { query: 'x', limit: 0 })).toBe('bookmark_search: argument "limit" must be from 1 to 100, got 0')
    expect(await err('bookmark_get', { id: 'nothex' })).toMatch(/^not an event id: "nothex"/)
    expect(await err('bookmark_get', { id: '0123456789ab' })).toMatch(/^no event 0123456789ab in the index/)
    expect(await err('bookmark_get', {})).toMatch(/^bookmark_get needs id/)
  })

  it('keeps the index open between calls and catches up once the interval has passed', async () => {
    const { ctx, transcript, clock } = await world()
    await callTool('bookmark_search', { query: 'reader' }, ctx)
    const open = ctx.memory.index
    expect(open).toBeDefined()
    appendFileSync(transcript, `${line(4, '/w/parser', '2026-11-23T09:00:00Z', 'add a flux capacitor to the reader')}\n`)
    clock.t += 1_000
    const warm = (await callTool('bookmark_search', { query: 'flux capacitor' }, ctx)) as Result
    expect(warm.structuredContent!.hits).toEqual([])
    expect(ctx.memory.index).toBe(open)
    clock.t += CATCH_UP_EVERY_MS
    const later = (await callTool('bookmark_search', { query: 'flux capacitor' }, ctx)) as Result
    expect(later.structuredContent!.hits[0]).toMatchObject({ line: 3, snippet: 'add a flux capacitor to the reader' })
    expect(ctx.memory.index).not.toBe(open)
  })

  it('tells the agent about since/recent for latest questions and to read the transcript line', () => {
    const d = TOOLS.find((t) => t.name === 'bookmark_search')!.description
    expect(d).toContain('pass since')
    expect(d).toContain('recent=true')
    expect(d).toContain('read that transcript line')
  })
})
