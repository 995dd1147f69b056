/**
 * What the bench prints and writes: the machine, the table of cases, one verdict per goal, as text for
 * the terminal and as Markdown for docs/BENCHMARKS.md (between its result markers).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { arch, availableParallelism, cpus, loadavg, release, totalmem, type as osType } from 'node:os'
import { dirname, join } from 'node:path'

export const DOC_BEGIN = '<!-- bench:results:begin -->'
export const DOC_END = '<!-- bench:results:end -->'

function osName() {
  try {
    const m = /^PRETTY_NAME="?([^"\n]+)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))
    if (m) return `${m[1]}, ${osType()} ${release()} ${arch()}`
  } catch {
    // not Linux
  }
  return `${osType()} ${release()} ${arch()}`
}

/** The commit of the CLI under test (`+dirty` when its tree has changes), when it lives in a git checkout. */
function cliCommit(bin) {
  const dir = dirname(dirname(bin))
  try {
    const sha = execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    const dirty = execFileSync('git', ['-C', dir, 'status', '--porcelain', '--untracked-files=no'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim()
    return `${sha}${dirty ? '+dirty' : ''}`
  } catch {
    return 'not a git checkout'
  }
}

export function machine(bin, rss) {
  let version = '?'
  const pkg = join(dirname(dirname(bin)), 'package.json')
  if (existsSync(pkg)) version = JSON.parse(readFileSync(pkg, 'utf8')).version ?? '?'
  return {
    cpu: cpus()[0]?.model?.trim() ?? 'unknown',
    cores: availableParallelism(),
    ramGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: osName(),
    node: process.version,
    cli: `session-bookmark ${version} at ${cliCommit(bin)} (${bin})`,
    rss: rss === 'time' ? '/usr/bin/time -v (ru_maxrss of the child)' : 'preload printing VmHWM of /proc/self/status at exit',
    loadStart: loadavg()[0],
  }
}

/** The 1-minute load average at the start and now: other work on the machine shows here. */
export function loadLine(m) {
  return `Load average (1 min): ${m.loadStart.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end, on ${m.cores} cores`
}

const ms = (v) => (Number.isFinite(v) ? (v >= 100 ? v.toFixed(0) : v.toFixed(1)) : '-')
const ratio = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '-')
const mb = (v) => (Number.isFinite(v) ? v.toFixed(0) : '-')

/** The table as rows of cells (header first). */
function rows(cases) {
  const head = ['case', 'runs', 'median ms', 'p10-p90 ms', 'baseline ms', 'ratio', 'pair ratio', 'peak RSS MB', 'notes']
  return [
    head,
    ...cases.map((c) => [
      c.label,
      String(c.n),
      ms(c.median),
      `${ms(c.p10)}-${ms(c.p90)}`,
      ms(c.bare),
      ratio(c.ratio),
      ratio(c.pairRatio),
      mb(c.rssMb),
      c.notes ?? '',
    ]),
  ]
}

function verdictLine(g) {
  return `${g.pass ? 'PASS' : 'FAIL'}  ${g.label}: ${g.measured} (goal ${g.goal})${g.detail ? `; ${g.detail}` : ''}`
}

function machineLines(m) {
  return [`CPU: ${m.cpu}, ${m.cores} cores; RAM ${m.ramGiB} GiB`, `OS: ${m.os}; Node ${m.node}`, `CLI: ${m.cli}`, `Peak RSS: ${m.rss}`]
}

export function textReport(r) {
  const table = rows(r.cases)
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)))
  const fmt = (row) =>
    row
      .map((cell, i) => (i === 0 || i === row.length - 1 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
      .join('  ')
      .trimEnd()
  return [
    ...table.map(fmt),
    '',
    `spread: p10-p90 of the kept rounds; baseline: bare node for a hook, the plain pass over the same file for a first capture; ratio: median of the case / median of its baseline in the same rounds; pair ratio: median of the per-round ratios`,
    '',
    ...r.goals.map(verdictLine),
    '',
    r.load,
    ...(r.settings.quick ? ['', 'BENCH_QUICK: reduced sizes and rounds; the verdicts are indicative only'] : []),
  ].join('\n')
}

export function markdownReport(r) {
  const table = rows(r.cases)
  const line = (cells) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`
  const s = r.settings
  return [
    `Run of ${r.date} (${s.quick ? 'BENCH_QUICK, indicative only' : 'full size'}): ${s.rounds} paired rounds per hook case after ${s.warmup} warm-up rounds, ${s.captureRuns} paired rounds per first capture after 1 warm-up round, ${s.rssRuns} extra runs per hook case for its peak RSS.`,
    '',
    ...machineLines(r.machine).map((l) => `- ${l}`),
    `- ${r.load}`,
    `- Transcripts: ${r.transcripts.map((t) => `${t.label} ${(t.bytes / 2 ** 20).toFixed(1)} MB (${t.lines} lines, ${t.repetitions} repetitions of ${t.sources} real sessions${t.whole ? ' each whole' : ''}, generated in ${(t.ms / 1000).toFixed(1)} s)`).join('; ')}`,
    ...(r.skipped.length > 0
      ? [
          `- Left out of the hook cases' transcripts: ${r.skipped.length} Windows sessions (their paths cannot be relocated onto a POSIX project); the first captures' whole transcripts have them`,
        ]
      : []),
    '',
    line(table[0]),
    line(table[0].map((_, i) => (i === 0 || i === table[0].length - 1 ? '---' : '---:'))),
    ...table.slice(1).map(line),
    '',
    'Spread: p10-p90 of the kept rounds. Baseline: `node -e 0` for a hook, the plain pass over the same file (read, split lines, `JSON.parse` each) for a first capture. Ratio: median of the case / median of its baseline in the same rounds. Pair ratio: median of the per-round ratios.',
    '',
    '| goal | verdict | measured | target |',
    '| --- | --- | ---: | --- |',
    ...r.goals.map((g) => line([g.label, g.pass ? 'PASS' : 'FAIL', g.measured, `${g.goal}${g.detail ? ` (${g.detail})` : ''}`])),
  ].join('\n')
}

export function printHeader(m, s) {
  return [`session-bookmark bench${s.quick ? ' (BENCH_QUICK)' : ''}`, ...machineLines(m), ''].join('\n')
}

/** Replaces the results section of docs/BENCHMARKS.md (between the markers) with `markdown`. */
export function updateDoc(path, markdown) {
  const text = readFileSync(path, 'utf8')
  const a = text.indexOf(DOC_BEGIN)
  const b = text.indexOf(DOC_END)
  if (a < 0 || b < a) throw new Error(`${path} has no ${DOC_BEGIN} … ${DOC_END} section to rewrite`)
  writeFileSync(path, `${text.slice(0, a + DOC_BEGIN.length)}\n${markdown}\n${text.slice(b)}`)
}
