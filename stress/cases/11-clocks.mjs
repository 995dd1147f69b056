/**
 * 11. Clocks: captures made while the machine's clock ran three years ahead, then after it was corrected.
 * The CLI's clock is shifted with a preload (`NODE_OPTIONS=--require shift.cjs`: `Date.now()` and `new Date()`
 * +3 years); the files it wrote then get mtimes three years ahead too (`utimes`), as a real clock change
 * leaves them. Session A is captured three times ahead (its Stop asks for the narrative, which is written
 * from the header that Stop gives, so its `written:` is ahead too); then, at the real time, session B works
 * and stops twice and A comes back with a last request.
 * Guarantees: startup restore, show, list (and MCP show) present the last real-time capture as the latest;
 * a narrative written "in the future" does not count as fresh forever: after real work a Stop asks for a new
 * one (once per session).
 */
import { utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Checks } from '../lib/result.mjs'
import { appendTranscript, lines, writeTranscript } from '../lib/gen.mjs'
import { gitProject, sandbox } from '../lib/sandbox.mjs'
import { walk } from '../lib/store.mjs'
import { cmd, contextOf, headerFromReason, hook, mcpCalls, parseJson, stateDirOf } from '../lib/attack.mjs'

export const name = '11 clocks'

const YEARS3 = 3 * 365.25 * 24 * 3_600_000
const A = 'clka0000-0000-4000-8000-000000000011'
const B = 'clkb0000-0000-4000-8000-000000000011'
const LAST = 'REALTIME-LAST'

const SHIFT = `'use strict'
const off = Number(process.env.STRESS_CLOCK_OFFSET_MS || 0)
const RealDate = Date
const realNow = RealDate.now
class ShiftedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(realNow() + off)
    else super(...args)
  }
  static now() {
    return realNow() + off
  }
}
globalThis.Date = ShiftedDate
`

function work(g, cwd, tag, n) {
  const out = [g.prompt(`${tag}: refactor module ${n} and keep the tests green`)]
  out.push(
    ...g.call(
      `${tag.toLowerCase().replace(/[^a-z0-9]/g, '')}${n}`,
      'Write',
      { file_path: join(cwd, `src/${tag.toLowerCase()}-${n}.ts`), content: `export const v = ${n}\n` },
      { type: 'create', filePath: join(cwd, `src/${tag.toLowerCase()}-${n}.ts`), content: '', structuredPatch: [], originalFile: null },
    ),
  )
  out.push(g.assistantText(`Done with ${tag}.`))
  return out
}

export async function run(ctx) {
  const c = new Checks(name)
  const sb = sandbox('clocks')
  const shift = join(sb.dir, 'shift.cjs')
  writeFileSync(shift, SHIFT)
  const p = gitProject(join(sb.dir, 'project'))
  const env = { ...sb.env, CLAUDE_PROJECT_DIR: p }
  const ahead = { ...env, NODE_OPTIONS: `--require ${shift}`, STRESS_CLOCK_OFFSET_MS: String(YEARS3) }
  const tA = join(sb.dir, 'a.jsonl')
  const tB = join(sb.dir, 'b.jsonl')
  const gA = lines(A, p)
  const gB = lines(B, p)
  const wA = { p, t: tA, sid: A, env }
  const wB = { p, t: tB, sid: B, env }
  let captures = 0

  // Ahead: A captured three times; its first Stop asks for the narrative, written from the given header.
  writeTranscript(tA, work(gA, p, 'FUTURE-1', 1))
  const s1 = await hook('stop', wA, {}, { env: ahead })
  captures++
  const header = headerFromReason(parseJson(s1.stdout)?.reason)
  c.check(
    'control: the shifted clock reaches the CLI (its first Stop header is dated ahead)',
    header !== undefined && /written:\s*(\d{4})/.exec(header)?.[1] > String(new Date().getUTCFullYear() + 2),
    header ? (header.split('\n').find((l) => l.startsWith('written')) ?? 'no written: line') : `no block (stdout ${JSON.stringify(s1.stdout.slice(0, 120))})`,
  )
  if (header)
    writeFileSync(
      join(p, '.bookmark', 'bookmark.context.md'),
      `${header}# Handoff\n\n## Task\nRefactor the modules.\n\n## Progress\nModule 1 done.\n\n## Next step\nModule 2.\n`,
    )
  appendTranscript(tA, work(gA, p, 'FUTURE-2', 2))
  await hook('stop', wA, {}, { env: ahead })
  captures++
  appendTranscript(tA, work(gA, p, 'FUTURE-3', 3))
  await cmd(['snapshot', '--transcript', tA, '--session-id', A], wA, { env: ahead })
  captures++
  const listAhead = parseJson((await cmd(['list', '--json'], wA, { env: ahead })).stdout)
  // The files written then carry mtimes of that time.
  const stateDir = await stateDirOf(wA)
  const future = (Date.now() + YEARS3) / 1000
  let touched = 0
  for (const dir of [join(p, '.bookmark'), stateDir, sb.bookmarkHome]) {
    if (!dir) continue
    for (const e of walk(dir)) {
      if (e.isSymlink || e.rel.startsWith('cache')) continue
      try {
        utimesSync(e.path, future, future)
        touched++
      } catch {
        // a file that vanished meanwhile
      }
    }
  }

  // Corrected: B works and stops twice, then A comes back with the last request.
  const stops = []
  writeTranscript(tB, [...work(gB, p, 'REAL-B1', 1), ...work(gB, p, 'REAL-B2', 2), ...work(gB, p, 'REAL-B3', 3)])
  stops.push({ who: 'B', r: await hook('stop', wB) })
  captures++
  appendTranscript(tB, [...work(gB, p, 'REAL-B4', 4), ...work(gB, p, 'REAL-B5', 5)])
  stops.push({ who: 'B', r: await hook('stop', wB) })
  captures++
  appendTranscript(tA, [...work(gA, p, 'REAL-A4', 4), ...work(gA, p, LAST, 5)])
  stops.push({ who: 'A', r: await hook('stop', wA) })
  captures++

  const views = []
  const restore = await hook('restore', { ...wA, sid: 'clkc0000-0000-4000-8000-000000000011', t: join(sb.dir, 'c.jsonl') }, { source: 'startup' })
  views.push({ label: 'startup restore', ok: contextOf(restore.stdout).includes(LAST), text: contextOf(restore.stdout) })
  const show = await cmd(['show'], wA)
  views.push({ label: 'show', ok: show.stdout.includes(LAST), text: show.stdout })
  const showJson = parseJson((await cmd(['show', '--json'], wA)).stdout)
  views.push({
    label: 'show --json',
    ok: JSON.stringify(showJson?.task ?? showJson?.snapshot?.task ?? '').includes(LAST),
    text: JSON.stringify(showJson ?? {}).slice(0, 300),
  })
  const list = parseJson((await cmd(['list', '--json'], wA)).stdout)
  views.push({ label: 'list --json (first entry)', ok: String(list?.entries?.[0]?.task ?? '').includes(LAST), text: JSON.stringify(list?.entries?.[0] ?? {}) })
  const status = parseJson((await cmd(['status', '--json'], wA)).stdout)
  if (typeof status?.latest?.task === 'string')
    views.push({ label: 'status --json latest', ok: status.latest.task.includes(LAST), text: JSON.stringify(status.latest) })
  const mcp = await mcpCalls(env, p, [{ name: 'bookmark_show', arguments: { cwd: p } }])
  if (mcp.available) {
    // the show tool answers with the snapshot JSON: the latest is the one whose task is the last request
    const shown = mcp.text
      .split('\n')
      .map(parseJson)
      .find((m) => m?.id === 1)
    const text = JSON.stringify(shown ?? {})
    views.push({ label: 'mcp bookmark_show', ok: text.includes(LAST), text: text.slice(0, 300) })
  } else c.skip('MCP bookmark_show presents the latest', 'this build has no `bookmark mcp` command')

  const wrong = views.filter((v) => !v.ok)
  c.figure('captures', captures)
  c.figure('captures ahead', 3)
  c.figure('wrong latest', wrong.length)
  c.figure('files dated ahead', touched)
  c.check(
    'control: while the clock ran ahead, list showed the ahead capture as latest',
    String(listAhead?.entries?.[0]?.task ?? '').includes('FUTURE-3'),
    JSON.stringify(listAhead?.entries?.[0]?.task ?? null),
  )
  c.check(
    'startup restore, show, list, status and MCP present the last real-time capture as latest',
    wrong.length === 0,
    wrong.length ? wrong.map((v) => `${v.label}: ${JSON.stringify(v.text.slice(0, 200))}`).join(' | ') : `${views.length} views show "${LAST}"`,
  )
  const blocks = stops.filter((s) => parseJson(s.r.stdout)?.decision === 'block')
  const bBlocks = blocks.filter((s) => s.who === 'B').length
  c.figure('stop blocks after the correction', blocks.length)
  c.check(
    'a narrative written ahead is not fresh forever: after real work a Stop asks for a new one',
    blocks.length >= 1,
    `${blocks.length} of ${stops.length} real-time Stops blocked (B: ${bBlocks}, A: ${blocks.length - bBlocks})`,
  )
  c.check('...once per session (B is asked at most once)', bBlocks <= 1, `B blocked ${bBlocks} times`)
  return c.result(
    `${captures} captures: session A 3 times with the clock 3 years ahead (narrative and file mtimes ahead too), then B twice and A once at the real time`,
    'the last real-time capture is the latest in restore/show/list/status/MCP; a narrative from ahead is asked again after real work, once',
  )
}
