#!/usr/bin/env node
// Capture benchmark: a generated transcript of BENCH_MB megabytes (default 100), captured whole by the
// built CLI, then once more after one appended turn (the incremental cost a Stop hook pays).
// Prints wall time, bytes read and the child's peak RSS. Writes only under a temp folder.
import { spawnSync } from 'node:child_process'
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bigTranscript, moduleTurn } from '../stress/lib/gen.mjs'

const BIN = fileURLToPath(new URL('../bin/bookmark.js', import.meta.url))
const MB = Number(process.env.BENCH_MB ?? 100)
const dir = mkdtempSync(join(tmpdir(), 'bm-bench-'))
const project = join(dir, 'proj')
mkdirSync(join(project, '.git'), { recursive: true })
const env = { PATH: process.env.PATH, HOME: join(dir, 'home'), BOOKMARK_HOME: join(dir, 'home', '.bookmark'), CLAUDE_CONFIG_DIR: join(dir, 'home', '.claude') }
mkdirSync(env.HOME, { recursive: true })

const transcript = join(dir, 'bench.jsonl')
const { bytes: size, turns } = bigTranscript(transcript, project, 'bench', MB)
let n = turns
const turn = () => moduleTurn(++n, project, 'bench')

// The capture runs as its own process, as a hook would; a preload reports its peak RSS on exit.
const PRELOAD = 'data:text/javascript,process.on("exit",()=>process.stderr.write("\\nBENCH_MAXRSS_KB="+process.resourceUsage().maxRSS))'

function run(label, trigger = 'stop') {
  const started = process.hrtime.bigint()
  const r = spawnSync(process.execPath, ['--import', PRELOAD, BIN, 'snapshot', '--transcript', transcript, '--cwd', project, '--trigger', trigger, '--json'], { env, encoding: 'utf8', maxBuffer: 64 << 20 })
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  if (r.status !== 0) throw new Error(`capture failed: ${r.stderr}`)
  const rssKb = Number(/BENCH_MAXRSS_KB=(\d+)/.exec(r.stderr)?.[1])
  return { label, ms, rssKb, result: JSON.parse(r.stdout) }
}

const full = run('full capture')
appendFileSync(transcript, turn())
const inc = run('incremental (one new turn)')
const idle = run('incremental (nothing new)')
console.log(`transcript: ${(size / 1048576).toFixed(1)} MB, ${n} turns`)
for (const r of [full, inc, idle]) {
  console.log(`${r.label.padEnd(28)} ${r.ms.toFixed(0).padStart(6)} ms  read ${(r.result.stats.bytesRead / 1048576).toFixed(2).padStart(7)} MB  peak RSS ${(r.rssKb / 1024).toFixed(0).padStart(4)} MB  snapshot: ${r.result.written}`)
}
rmSync(dir, { recursive: true, force: true })
