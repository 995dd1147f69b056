/**
 * The search cases of `npm run bench` (issue 20), on an events log of 200,000 events built from the corpus
 * (search-world.mjs): the backfill of the corpus itself, building the index (time, peak RSS, bytes per event),
 * cold `bookmark search` as a whole new process paired with a bare Node start (a selective query, a broad one,
 * orientation), the MCP server answering warm, and adding 1,000 events to the index. `node bench/run.mjs --only
 * search` runs these alone.
 *
 * The world keeps the transcripts of the newest repetition on disk and the checkpoints of all (as after a host's
 * cleanup of old transcripts: Claude Code keeps 30 days by default); a last case measures the selective search
 * again with every repetition's transcript on disk, for the cost of looking at all of them.
 */
import { spawn } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { appendRepeated, folderBytes, linkAll, readLog, searchWorld, suffixOf, writeRepeatedLog } from './search-world.mjs'
import { BenchError, median, nodeCommand, paired, quantile, runShell, runWithRss, summary } from './measure.mjs'

/** The repetition whose names the selective query and the orientation use. */
const PICK = 7
const MiB = 2 ** 20

function ok(label, r, expect) {
  if (r.status !== 0) throw new BenchError(`${label}: exit ${r.status ?? r.signal}: ${r.stderr.slice(0, 400)}`)
  if (expect && !expect(r.stdout)) throw new BenchError(`${label}: unexpected output: ${r.stdout.slice(0, 400)}`)
}

function row(id, label, fields) {
  return { id, label, kind: 'search', ...fields }
}

/** Backfill of the corpus into fresh bookmark homes: events per second, peak RSS. */
function backfillCase(ctx, w) {
  const runs = ctx.s.quick ? 1 : 2
  const times = []
  const rss = []
  let events = 0
  for (let i = 0; i < runs; i++) {
    const env = w.env(`backfill-${i}`)
    const r = runWithRss([ctx.s.bin, 'index', '--backfill'], { env, cwd: w.home, scratch: ctx.root })
    ok('backfill', r, (out) => /new events/.test(out))
    events = Number(/, (\d+) new events/.exec(r.stdout)?.[1])
    times.push(r.ms)
    rss.push(r.rssKb / 1024)
  }
  const ms = median(times)
  const bytes = folderBytes(w.stores.claude) + folderBytes(w.stores.codex)
  ctx.cases.push(
    row('search-backfill', `backfill of the corpus (${(bytes / MiB).toFixed(0)} MB of transcripts)`, {
      ...summary(times),
      bare: NaN,
      ratio: NaN,
      pairRatio: NaN,
      rssMb: Math.max(...rss),
      notes: `${events} events, ${Math.round(events / (ms / 1000))} events/s, ${(bytes / MiB / (ms / 1000)).toFixed(1)} MB/s`,
    }),
  )
  return { events, eps: events / (ms / 1000), rssMb: Math.max(...rss) }
}

/** A cold search as a whole new process, paired with bare Node; `check` must accept its output. */
function coldCase(ctx, w, env, id, label, args, check) {
  ctx.progress(`${label}: ${ctx.s.warmup} + ${ctx.s.rounds} paired rounds`)
  const result = paired({
    a: nodeCommand(['-e', '0']),
    b: nodeCommand([ctx.s.bin, ...args]),
    env,
    cwd: w.home,
    rounds: ctx.s.rounds,
    warmup: ctx.s.warmup,
    check: (r) => ok(label, r, check),
  })
  const rss = []
  for (let i = 0; i < ctx.s.rssRuns; i++) {
    const r = runWithRss([ctx.s.bin, ...args], { env, cwd: w.home, scratch: ctx.root })
    ok(label, r, check)
    rss.push(r.rssKb / 1024)
  }
  const c = row(id, label, {
    n: result.hook.n,
    median: result.hook.median,
    p10: result.hook.p10,
    p90: result.hook.p90,
    bare: result.bare.median,
    ratio: result.ratio,
    pairRatio: result.pairRatio,
    rssMb: Math.max(...rss),
  })
  ctx.cases.push(c)
  return c
}

/** The MCP server over stdio: round trips of `tools/call bookmark_search`, the first (catch-up, open) apart. */
async function mcpCase(ctx, w, env, queries, calls) {
  ctx.progress(`MCP bookmark_search: ${calls} calls`)
  const child = spawn(process.execPath, [ctx.s.bin, 'mcp'], { env, cwd: w.home, stdio: ['pipe', 'pipe', 'pipe'] })
  let buffer = ''
  const waiting = new Map()
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (chunk) => {
    buffer += chunk
    for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl)
      buffer = buffer.slice(nl + 1)
      const msg = JSON.parse(line)
      waiting.get(msg.id)?.(msg)
    }
  })
  let id = 0
  const call = (method, params) =>
    new Promise((resolve, reject) => {
      const n = ++id
      const timer = setTimeout(() => reject(new BenchError(`MCP ${method}: no answer in 60 s`)), 60_000)
      waiting.set(n, (msg) => {
        clearTimeout(timer)
        waiting.delete(n)
        if (msg.error || msg.result?.isError) reject(new BenchError(`MCP ${method}: ${JSON.stringify(msg.error ?? msg.result).slice(0, 300)}`))
        else resolve(msg.result)
      })
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: n, method, params })}\n`)
    })
  try {
    await call('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } })
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`)
    const timed = async (args) => {
      const started = process.hrtime.bigint()
      const result = await call('tools/call', { name: 'bookmark_search', arguments: args })
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      const data = result.structuredContent ?? {}
      const found = data.hits?.length ?? data.sections?.reduce((n, sec) => n + sec.hits.length, 0) ?? 0
      if (found === 0) throw new BenchError(`MCP bookmark_search ${JSON.stringify(args)}: no hits`)
      return ms
    }
    const first = await timed(queries[0])
    const times = []
    for (let i = 0; i < calls; i++) times.push(await timed(queries[i % queries.length]))
    const c = row('search-mcp', `MCP bookmark_search, warm (${queries.length} queries in turn)`, {
      ...summary(times),
      bare: NaN,
      ratio: NaN,
      pairRatio: NaN,
      rssMb: NaN,
      notes: `first call ${first.toFixed(0)} ms (catch-up, open); p95 ${quantile(times, 0.95).toFixed(1)} ms`,
    })
    ctx.cases.push(c)
    return c
  } finally {
    child.stdin.end()
    child.kill()
  }
}

/** Segment files and their mtimes, as the manifest lists them. */
function segmentsOf(home) {
  const dir = join(home, 'memory', 'index')
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))
  return new Map(manifest.segments.map((s) => [s.file, statSync(join(dir, s.file)).mtimeMs]))
}

/** Rounds of 1,000 new events appended to the log, then `bookmark index` (a whole process) indexing them. */
function addCase(ctx, w, base, env) {
  const rounds = ctx.s.quick ? 3 : 12
  const home = env.BOOKMARK_HOME
  const first = segmentsOf(home)
  const times = []
  for (let i = 0; i < rounds; i++) {
    appendRepeated(base, home, 1000, 100 + i)
    const r = runShell(nodeCommand([ctx.s.bin, 'index']), { env, cwd: w.home })
    ok('index after 1,000 new events', r, (out) => out.startsWith('Indexed 1000 new events.'))
    times.push(r.ms)
  }
  const now = segmentsOf(home)
  const kept = [...first].filter(([file, mtime]) => now.get(file) === mtime).length
  const c = row('search-add', `index 1,000 new events (${rounds} rounds, \`bookmark index\`)`, {
    ...summary(times),
    bare: NaN,
    ratio: NaN,
    pairRatio: NaN,
    rssMb: NaN,
    notes: `max ${Math.max(...times).toFixed(0)} ms; ${kept} of the ${first.size} segments of the first build untouched, ${now.size} segments now`,
  })
  ctx.cases.push(c)
  return { c, kept, total: first.size }
}

/** Every search case; the goals they are judged on. */
export async function searchBench(ctx) {
  const { s } = ctx
  const target = s.searchEvents
  const w = searchWorld(ctx.root, s.corpus)
  ctx.progress('search: backfill of the corpus')
  const backfill = backfillCase(ctx, w)
  const base = readLog(w.env('backfill-0').BOOKMARK_HOME)
  ctx.progress(`search: an events log of ${target} events from ${base.events.length}`)
  const env = w.env('big')
  const gen = writeRepeatedLog(base, env.BOOKMARK_HOME, target, w, { linked: 1 })
  ctx.progress(`search: building the index of ${gen.events} events`)
  const build = runWithRss([s.bin, 'index'], { env, cwd: w.home, scratch: ctx.root })
  ok('index build', build, (out) => out.startsWith(`Indexed ${gen.events} new events.`))
  const indexBytes = folderBytes(join(env.BOOKMARK_HOME, 'memory', 'index'))
  ctx.cases.push(
    row('search-build', `build the index of ${gen.events} events`, {
      ...summary([build.ms]),
      bare: NaN,
      ratio: NaN,
      pairRatio: NaN,
      rssMb: build.rssKb / 1024,
      notes: `${(indexBytes / MiB).toFixed(1)} MB on disk, ${(indexBytes / gen.events).toFixed(0)} bytes per event; log ${(gen.logBytes / MiB).toFixed(0)} MB`,
    }),
  )
  // The first searches write the stamp and fill the code cache, as a user's first searches do.
  const k = Math.min(PICK, gen.repetitions - 1)
  const file = `config${suffixOf(k)}.go`
  for (let i = 0; i < 3; i++) ok('first search', runShell(nodeCommand([s.bin, 'search', file]), { env, cwd: w.home }))
  const fromK = (out) => out.includes(`-bench-r${k}/`) || out.includes(`${suffixOf(k)}`)
  const selective = coldCase(ctx, w, env, 'search-selective', `search, selective (${file}), cold`, ['search', file], fromK)
  const broad = coldCase(ctx, w, env, 'search-broad', 'search, broad (go test failed), cold', ['search', 'go', 'test', 'failed'], (o) => /^1\. /.test(o))
  const orient = coldCase(ctx, w, env, 'search-orient', `orientation (search --project cli-r${k}), cold`, ['search', '--project', `cli-r${k}`], (o) =>
    o.startsWith(`Project cli-r${k}: the latest`),
  )
  const mcp = await mcpCase(
    ctx,
    w,
    env,
    [
      { query: file },
      { query: 'go test failed' },
      { query: 'auto-summarise at commit time', kind: 'commit' },
      { query: 'fix test', recent: true },
      { project: `cli-r${k}` },
    ],
    s.quick ? 50 : 200,
  )
  const add = addCase(ctx, w, base, env)
  // The cost of looking at every transcript: all repetitions' files on disk.
  const linked = linkAll(base, w, gen.repetitions)
  for (let i = 0; i < 3; i++) ok('first search', runShell(nodeCommand([s.bin, 'search', file]), { env, cwd: w.home }))
  const all = coldCase(ctx, w, env, 'search-selective-all', `search, selective, ${linked} transcripts on disk`, ['search', file], fromK)
  all.notes = 'informative: a host that keeps every transcript'

  const ratioGoal = (label, c) => ({
    label,
    pass: c.pairRatio <= 1.5,
    measured: `${c.pairRatio.toFixed(2)}x bare node (pair ratio)`,
    goal: 'at most 1.5x',
    detail: `ratio of medians ${c.ratio.toFixed(2)}x; ${c.median.toFixed(0)} ms against ${c.bare.toFixed(0)} ms`,
  })
  return [
    ratioGoal(`cold search, selective, ${gen.events} events`, selective),
    ratioGoal(`cold search, broad (go test failed), ${gen.events} events`, broad),
    ratioGoal(`orientation, cold, ${gen.events} events`, orient),
    { label: 'MCP bookmark_search, warm', pass: mcp.median < 5, measured: `${mcp.median.toFixed(2)} ms median`, goal: 'under 5 ms', detail: mcp.notes },
    { label: 'index on disk', pass: indexBytes / gen.events <= 200, measured: `${(indexBytes / gen.events).toFixed(0)} bytes per event`, goal: 'at most 200' },
    {
      label: `building the index of ${gen.events} events, peak RSS`,
      pass: build.rssKb / 1024 <= 500,
      measured: `${(build.rssKb / 1024).toFixed(0)} MB`,
      goal: 'at most 500 MB',
    },
    {
      label: 'adding 1,000 events to the index',
      pass: add.c.max < 1000 && add.kept === add.total,
      measured: `${add.c.median.toFixed(0)} ms median, ${add.c.max.toFixed(0)} ms at most`,
      goal: 'well under a second, never rewriting the whole index',
      detail: `${add.kept} of ${add.total} first segments untouched`,
    },
    {
      label: 'backfill of the corpus',
      pass: true,
      measured: `${Math.round(backfill.eps)} events/s, ${backfill.rssMb.toFixed(0)} MB peak RSS`,
      goal: 'reported',
    },
  ]
}
