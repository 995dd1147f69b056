#!/usr/bin/env node
// Capture benchmark: a generated transcript of BENCH_MB megabytes (default 100), captured whole by the
// built CLI, then once more after one appended turn (the incremental cost a Stop hook pays).
// Prints wall time, bytes read and the child's peak RSS. Writes only under a temp folder.
import { spawnSync } from 'node:child_process'
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const BIN = fileURLToPath(new URL('../bin/bookmark.js', import.meta.url))
const MB = Number(process.env.BENCH_MB ?? 100)
const dir = mkdtempSync(join(tmpdir(), 'bm-bench-'))
const project = join(dir, 'proj')
mkdirSync(join(project, '.git'), { recursive: true })
const env = { PATH: process.env.PATH, HOME: join(dir, 'home'), BOOKMARK_HOME: join(dir, 'home', '.bookmark'), CLAUDE_CONFIG_DIR: join(dir, 'home', '.claude') }
mkdirSync(env.HOME, { recursive: true })

let n = 0
function turn() {
  n++
  const ts = new Date(Date.UTC(2026, 10, 28, 10, 0, 0) + n * 1000).toISOString()
  const base = { parentUuid: null, isSidechain: false, userType: 'external', cwd: project, sessionId: 'bench', version: '2.1.63', gitBranch: 'main', timestamp: ts }
  const file = join(project, 'src', `mod${n % 400}.ts`)
  const body = Array.from({ length: 60 }, (_, i) => `export function f${n}_${i}(x: number): number { return x * ${i} }`).join('\n')
  return [
    { ...base, type: 'user', uuid: `u${n}`, message: { role: 'user', content: `request ${n}: refactor module ${n % 400} and keep the tests green` } },
    { ...base, type: 'assistant', uuid: `a${n}`, message: { id: `msg_${n}`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: `t${n}`, name: 'Write', input: { file_path: file, content: body } }], usage: { input_tokens: 10, output_tokens: 50, cache_read_input_tokens: 50000 } } },
    { ...base, type: 'user', uuid: `r${n}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${n}`, content: 'File created successfully' }] }, toolUseResult: { type: 'create', filePath: file, content: body, structuredPatch: [], originalFile: null } },
    { ...base, type: 'assistant', uuid: `b${n}`, message: { id: `msg_${n}b`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: `Done with module ${n % 400}. `.repeat(20) }] } },
  ].map((r) => JSON.stringify(r)).join('\n') + '\n'
}

const transcript = join(dir, 'bench.jsonl')
writeFileSync(transcript, '')
let size = 0
let chunk = ''
while (size < MB * 1024 * 1024) {
  const t = turn()
  chunk += t
  size += Buffer.byteLength(t)
  if (chunk.length > 4 << 20) {
    appendFileSync(transcript, chunk)
    chunk = ''
  }
}
appendFileSync(transcript, chunk)

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
