/**
 * First captures, against a plain pass over the same file: paired rounds of A (`node plain-pass.mjs FILE`:
 * read, split lines, JSON.parse every line) and B (`bookmark snapshot` of FILE on a fresh store), both
 * under the RSS tool, one warm-up round first. The file was just written, so both sides read it from the
 * page cache, in the same Node. Every run is checked: the pass parsed every line, the capture read the
 * whole file and wrote a snapshot. The notes also give the ratio of CPU times (user + system, from the RSS
 * tool): on a machine shared with other work the wall times are slowed, the capture's worker and read-ahead
 * threads most, and the CPU times much less.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BenchError, median, runWithRss, summary } from './measure.mjs'

const PLAIN_PASS = fileURLToPath(new URL('./plain-pass.mjs', import.meta.url))
const WARMUP = 1

function json(label, r) {
  if (r.status !== 0) throw new BenchError(`${label}: exit ${r.status ?? r.signal}: ${r.stderr.slice(0, 500)}`)
  try {
    return JSON.parse(r.stdout)
  } catch {
    throw new BenchError(`${label}: stdout is not JSON: ${r.stdout.slice(0, 200)}`)
  }
}

/** One `bookmark snapshot` of `gen` on a fresh store of `w`: the run, its output and its RSS. */
export function captureOnce(ctx, w, gen, label) {
  rmSync(join(w.project, '.bookmark'), { recursive: true, force: true })
  rmSync(w.env.BOOKMARK_HOME, { recursive: true, force: true })
  const args = [ctx.s.bin, 'snapshot', '--transcript', gen.path, '--cwd', w.project, '--trigger', 'stop', '--json']
  const r = runWithRss(args, { env: w.env, cwd: w.project, scratch: ctx.root })
  const out = json(label, r)
  if (out.written !== true) throw new BenchError(`${label}: no snapshot written (${out.reason})`)
  if (out.stats?.bytesRead !== gen.bytes) throw new BenchError(`${label}: read ${out.stats?.bytesRead} bytes of ${gen.bytes}`)
  return { ...r, out }
}

function plainPass(ctx, w, gen, label) {
  const r = runWithRss([PLAIN_PASS, gen.path], { env: w.env, cwd: w.project, scratch: ctx.root })
  const out = json(`${label} (plain pass)`, r)
  if (out.lines !== gen.lines || out.parsed + out.failed !== gen.lines || out.bytes !== gen.bytes)
    throw new BenchError(`${label} (plain pass): ${JSON.stringify(out)} for a file of ${gen.lines} lines, ${gen.bytes} bytes`)
  return { ...r, out }
}

/**
 * The first-capture case: `ctx.s.captureRuns` paired rounds after one warm-up round. The row's baseline is
 * the plain pass (its median; ratio = capture median / pass median, pair ratio = median of per-round ratios).
 */
export function captureCase(ctx, w, gen, id, label, sizeText) {
  ctx.progress(`${label}: ${WARMUP} + ${ctx.s.captureRuns} rounds paired with a plain pass`)
  const pass = []
  const cap = []
  const passRss = []
  const capRss = []
  const passCpu = []
  const capCpu = []
  let entries = 0
  let failedLines = 0
  for (let i = 0; i < WARMUP + ctx.s.captureRuns; i++) {
    const a = plainPass(ctx, w, gen, label)
    const b = captureOnce(ctx, w, gen, label)
    if (i < WARMUP) continue
    pass.push(a.ms)
    cap.push(b.ms)
    passRss.push(a.rssKb)
    capRss.push(b.rssKb)
    passCpu.push(a.cpuMs)
    capCpu.push(b.cpuMs)
    entries = b.out.stats.entries ?? entries
    failedLines = a.out.failed
  }
  const t = summary(cap)
  const cpu = median(capCpu) / median(passCpu)
  const passMs = median(pass)
  const row = {
    id,
    label,
    kind: 'capture',
    n: t.n,
    median: t.median,
    p10: t.p10,
    p90: t.p90,
    bare: passMs,
    ratio: t.median / passMs,
    pairRatio: median(cap.map((x, i) => x / pass[i])),
    rssMb: Math.max(...capRss) / 1024,
    passRssMb: Math.max(...passRss) / 1024,
    cpuRatio: cpu,
    notes:
      `read ${sizeText} whole, ${entries} entries; baseline: the plain pass (${gen.lines} lines` +
      `${failedLines > 0 ? `, ${failedLines} not JSON` : ''}; peak RSS ${(Math.max(...passRss) / 1024).toFixed(0)} MB); both timed under the RSS tool` +
      `${Number.isFinite(cpu) ? `; CPU time (user + system) ${cpu.toFixed(2)}x the pass's` : ''}`,
  }
  ctx.cases.push(row)
  return row
}
