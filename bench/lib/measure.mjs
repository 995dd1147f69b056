/**
 * Whole-process measurement. Every process under test runs as `sh -c 'exec node … < payload'`, the bare
 * baseline the same way (`exec node -e 0`), so the shell, the spawn and the stdin redirect cost the same
 * on both sides. Paired rounds run A then B back to back, so a slow moment of the machine hits both.
 * Peak RSS comes from `/usr/bin/time -v` (the kernel's ru_maxrss of the child), else from a preload that
 * prints the child's VmHWM at exit.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { RSS_PRELOAD } from '../../stress/lib/sandbox.mjs'

export class BenchError extends Error {}

const TIME = '/usr/bin/time'

/** How peak RSS is measured here: `time` (GNU time -v) when present unless BENCH_RSS=preload. */
export function rssMethod(env = process.env) {
  if (env.BENCH_RSS === 'preload') return 'preload'
  return existsSync(TIME) ? 'time' : 'preload'
}

export function quote(s) {
  return `'${String(s).replace(/'/g, `'\\''`)}'`
}

/** The shell command for `node <args…> [< stdin]`, optionally with the RSS preload. */
export function nodeCommand(args, { stdin, preload = false } = {}) {
  const parts = [quote(process.execPath), ...(preload ? ['--import', quote(RSS_PRELOAD)] : []), ...args.map(quote)]
  return `exec ${parts.join(' ')}${stdin ? ` < ${quote(stdin)}` : ''}`
}

/** Runs `sh -c command` and times it from spawn to exit (ms); a run past `timeoutMs` is a broken case. */
export function runShell(command, { env, cwd, rssFile, timeoutMs = 600_000 }) {
  const argv = rssFile ? [TIME, ['-v', '-o', rssFile, '/bin/sh', '-c', command]] : ['/bin/sh', ['-c', command]]
  const started = process.hrtime.bigint()
  const r = spawnSync(argv[0], argv[1], {
    env,
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
  })
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  if (r.error)
    throw new BenchError(`${r.error.code === 'ETIMEDOUT' ? `still running after ${timeoutMs / 1000} s` : 'could not run'}: ${command} (${r.error.message})`)
  return { ms, status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr }
}

/**
 * One run of `node <args>` with its peak RSS in KiB: under /usr/bin/time -v (its report goes to a file, which
 * also gives the CPU time, user + system, as `cpuMs`), or with the VmHWM preload (its line is taken out of
 * stderr; no CPU time).
 */
export function runWithRss(args, { env, cwd, stdin, scratch }) {
  if (rssMethod(env) === 'time') {
    const file = join(scratch, `rss-${process.pid}.txt`)
    const r = runShell(nodeCommand(args, { stdin }), { env, cwd, rssFile: file })
    const report = existsSync(file) ? readFileSync(file, 'utf8') : ''
    rmSync(file, { force: true })
    const kb = Number(/Maximum resident set size \(kbytes\):\s*(\d+)/.exec(report)?.[1])
    if (!Number.isFinite(kb)) throw new BenchError(`no "Maximum resident set size" in the /usr/bin/time report: ${report.slice(0, 200)}`)
    const secs = (name) => Number(new RegExp(`${name} time \\(seconds\\):\\s*([\\d.]+)`).exec(report)?.[1])
    return { ...r, rssKb: kb, cpuMs: (secs('User') + secs('System')) * 1000 }
  }
  const r = runShell(nodeCommand(args, { stdin, preload: true }), { env, cwd })
  const kb = Number(/STRESS_MAXRSS_KB=(\d+)/.exec(r.stderr)?.[1])
  if (!Number.isFinite(kb)) throw new BenchError(`the RSS preload printed nothing (stderr: ${r.stderr.slice(0, 200)})`)
  return { ...r, stderr: r.stderr.replace(/\n?STRESS_MAXRSS_KB=\d+\n?/, ''), rssKb: kb }
}

/** The q-quantile of numbers (linear between the nearest ranks). */
export function quantile(values, q) {
  const s = [...values].sort((a, b) => a - b)
  if (s.length === 0) return Number.NaN
  const pos = (s.length - 1) * q
  const lo = Math.floor(pos)
  const hi = Math.ceil(pos)
  return s[lo] + (s[hi] - s[lo]) * (pos - lo)
}

export const median = (values) => quantile(values, 0.5)

/** Median, p10 and p90 of a list of milliseconds. */
export function summary(values) {
  return {
    n: values.length,
    median: median(values),
    p10: quantile(values, 0.1),
    p90: quantile(values, 0.9),
    min: Math.min(...values),
    max: Math.max(...values),
  }
}

/**
 * Paired rounds of A (bare node) and B (the hook): `warmup` rounds discarded, then `rounds` kept.
 * `prepare()` runs untimed before each round (before A, so both sides run after it); `check(run)` must
 * throw on a bad B run; `after(run)` collects facts (untimed). Returns both series and the pair ratios.
 */
export function paired({ a, b, env, cwd, rounds, warmup, prepare, check, after }) {
  const as = []
  const bs = []
  for (let i = 0; i < warmup + rounds; i++) {
    prepare?.()
    const ra = runShell(a, { env, cwd })
    if (ra.status !== 0) throw new BenchError(`bare node exited ${ra.status}: ${ra.stderr.slice(0, 300)}`)
    const rb = runShell(b, { env, cwd })
    check(rb)
    after?.(rb, i >= warmup)
    if (i < warmup) continue
    as.push(ra.ms)
    bs.push(rb.ms)
  }
  const ratios = bs.map((x, i) => x / as[i])
  return { bare: summary(as), hook: summary(bs), ratio: median(bs) / median(as), pairRatio: median(ratios) }
}
