#!/usr/bin/env node
/**
 * node bench/floor.mjs WORLD: the floor of a capturing Stop (docs/BENCHMARKS.md, "The floor of a capturing Stop").
 *
 * WORLD is a bench world that `BENCH_KEEP=1 npm run bench` left: the folder holding `home/`, `project/` and a
 * `payload-stop-turn-*.json` (the run's `big` folder is the 500 MB session). Two builds of this checkout's CLI
 * capture one new turn after another, each against bare `node -e 0` in paired rounds:
 *   - shipped: `bin/bookmark.cjs` as built;
 *   - state only: a copy of the build whose capture records nothing (`const record = false` in the built save
 *     chunk): it reads the turn, folds it, redacts and stores the state and the cursor, and writes no snapshot,
 *     index, LATEST.md, trail, registry entry, pointer or prepared restore;
 *   - hand-off only: `bench/lib/detach.cjs`, which starts the shipped Stop as a detached process (the payload
 *     on its stdin, no stdout or stderr) and exits: what moving the capture off the hook's path would cost the
 *     hook before it did any work of its own. Its check waits, untimed, for the detached process to end.
 * Each build runs its own blocks (alternating builds would make their code caches, which share file names,
 * replace each other on every run). Every run is checked: exit 0, no failure on stderr, the cursor at the
 * transcript's end, and a new snapshot except for the state-only build. It prints the ratios; it asserts no time.
 * Knobs: FLOOR_ROUNDS (21), FLOOR_WARMUP (4), FLOOR_BLOCKS (2 per build). Exit 2 when it cannot start.
 */
import { spawnSync } from 'node:child_process'
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { REPO_ROOT } from '../stress/lib/env.mjs'
import { corpusDir, findTurn, loadSources, newTurn } from './lib/corpus.mjs'
import { BenchError, median, nodeCommand, paired } from './lib/measure.mjs'

const RECORD = /const record = [^;\n]+;/g
const DETACH = join(REPO_ROOT, 'bench', 'lib', 'detach.cjs')

/** Waits (untimed, between runs) until `done()`, at most 30 s. */
function waitFor(done, failure) {
  const until = Date.now() + 30_000
  const nap = new Int32Array(new SharedArrayBuffer(4))
  for (;;) {
    if (done()) return
    if (Date.now() > until) throw new BenchError(failure)
    Atomics.wait(nap, 0, 0, 5)
  }
}

/**
 * Whether process `pid` still runs. A detached child is re-parented, and a PID 1 that does not reap (as in some
 * containers) leaves it a zombie (`Z` in /proc/PID/stat), which has finished all the same.
 */
function running(pid) {
  if (!Number.isInteger(pid) || pid <= 0) throw new BenchError(`hand-off: no child pid on stdout (${pid})`)
  if (existsSync('/proc/self')) {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z'
    } catch {
      return false // gone
    }
  }
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return e.code === 'EPERM'
  }
}

/** A copy of the built CLI in `dir` whose capture records nothing; throws when the built code no longer has the line. */
export function stateOnlyBuild(dir) {
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(REPO_ROOT, part), join(dir, part), { recursive: true })
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'))
  const cli = join(dir, 'dist', 'cli')
  const folds = readdirSync(cli).filter((f) => /^stop\.turn-.*\.cjs$/.test(f)) // a capturing Stop's chunk (scripts/bundle.mjs)
  if (folds.length !== 1) throw new BenchError(`expected one dist/cli/stop.turn-*.cjs, found ${folds.length}: run npm run build`)
  const path = join(cli, folds[0])
  const code = readFileSync(path, 'utf8')
  const found = code.match(RECORD) ?? []
  if (found.length !== 1)
    throw new BenchError(`${folds[0]} has ${found.length} \`const record = …;\` lines (expected 1): update bench/floor.mjs to the capture's code`)
  writeFileSync(path, code.replace(RECORD, 'const record = false;'))
  return join(dir, 'bin', 'bookmark.cjs')
}

function main() {
  const world = process.argv[2] ? resolve(process.argv[2]) : undefined
  const payloadName = world && existsSync(world) ? readdirSync(world).find((f) => /^payload-stop-turn-.*\.json$/.test(f)) : undefined
  if (!world || !payloadName || !existsSync(join(world, 'project'))) {
    console.error('usage: node bench/floor.mjs WORLD (a folder `BENCH_KEEP=1 npm run bench` left, with project/ and payload-stop-turn-*.json: its big/ folder)')
    return 2
  }
  const dist = join(REPO_ROOT, 'dist', 'cli', 'hook-stop.cjs')
  if (!existsSync(dist)) {
    console.error('bench/floor.mjs: no built CLI: run npm run build')
    return 2
  }
  const corpus = corpusDir(REPO_ROOT)
  if (!existsSync(corpus)) {
    console.error(`bench/floor.mjs: the corpus is not at ${corpus} (BOOKMARK_CORPUS): it gives the new turns`)
    return 2
  }
  const turn = findTurn(loadSources(corpus).sources)
  if (!turn) {
    console.error('bench/floor.mjs: no request + Edit/Write + result + reply in the corpus to use as the new turn')
    return 2
  }
  const num = (name, dflt) => (process.env[name] ? Math.max(1, Number.parseInt(process.env[name], 10) || dflt) : dflt)
  const rounds = num('FLOOR_ROUNDS', 21)
  const warmup = num('FLOOR_WARMUP', 4)
  const blocks = num('FLOOR_BLOCKS', 2)
  const payloadFile = join(world, payloadName)
  const payload = JSON.parse(readFileSync(payloadFile, 'utf8'))
  const home = join(world, 'home')
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    BOOKMARK_HOME: join(home, '.bookmark'),
    CLAUDE_PROJECT_DIR: join(world, 'project'),
    TMPDIR: tmpdir(),
    BOOKMARK_MAX_NARRATIVE_BLOCKS: '0',
  }
  const store = join(world, 'project', '.bookmark')
  const lines = readFileSync(payload.transcript_path, 'utf8').trimEnd().split('\n')
  let parent = JSON.parse(lines.at(-1)).uuid
  const scratch = mkdtempSync(join(tmpdir(), 'bm-floor-'))
  try {
    const builds = [
      { name: 'shipped', bin: join(REPO_ROOT, 'bin', 'bookmark.cjs'), records: true },
      { name: 'state only', bin: stateOnlyBuild(join(scratch, 'state-only')), records: false },
      { name: 'hand-off', bin: join(REPO_ROOT, 'bin', 'bookmark.cjs'), records: true, detached: true },
    ]
    // The cursor is machine-local state: in the project's folder of the bookmark home, as `bookmark status` names it.
    const status = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'bookmark.cjs'), 'status', '--json'], {
      env,
      cwd: join(world, 'project'),
      encoding: 'utf8',
    })
    const stateDir = JSON.parse(status.stdout).stateDir
    const cursorOffset = () => JSON.parse(readFileSync(join(stateDir, 'cursors', `${payload.session_id}.json`), 'utf8')).cursor.offset
    const indexHead = () => JSON.parse(readFileSync(join(store, 'index.json'), 'utf8')).snapshots?.[0]?.id
    const results = builds.map(() => [])
    for (let block = 0; block < blocks; block++) {
      builds.forEach((build, i) => {
        let head = indexHead()
        const input = join(scratch, 'payload.json')
        const r = paired({
          a: nodeCommand(['-e', '0'], { stdin: input }),
          b: nodeCommand(build.detached ? [DETACH, build.bin] : [build.bin, 'stop'], { stdin: input }),
          env,
          cwd: join(world, 'project'),
          rounds,
          warmup,
          prepare: () => {
            const t = newTurn(turn, { sessionId: payload.session_id, projectDir: join(world, 'project'), parentUuid: parent })
            appendFileSync(payload.transcript_path, t.text)
            parent = t.lastUuid
            writeFileSync(input, JSON.stringify({ ...payload, last_assistant_message: t.lastAssistantText }))
          },
          check: (run) => {
            if (run.status !== 0 || /hook (failed|error)/.test(run.stderr))
              throw new BenchError(`${build.name}: exit ${run.status}: ${run.stderr.slice(0, 300)}`)
            const size = readFileSync(payload.transcript_path).length
            if (build.detached) waitFor(() => !running(Number(run.stdout)), `${build.name}: the detached capture (pid ${run.stdout}) still runs after 30 s`)
            const offset = cursorOffset()
            if (offset !== size) throw new BenchError(`${build.name}: the turn was not captured (cursor at ${offset})`)
            const now = indexHead()
            if ((now !== head) !== build.records) throw new BenchError(`${build.name}: ${build.records ? 'no snapshot written' : 'a snapshot was written'}`)
            head = now
          },
        })
        results[i].push(r)
        console.log(
          `${build.name.padEnd(10)} block ${block + 1}: ${r.ratio.toFixed(2)}x bare node (pair ratio ${r.pairRatio.toFixed(2)}x; ${r.hook.median.toFixed(1)} ms against ${r.bare.median.toFixed(1)} ms)`,
        )
      })
    }
    console.log(
      `\n${rounds} paired rounds after ${warmup} warm-up per block, a new turn before each; ${payloadName.replace(/^payload-|\.json$/g, '')} in ${world}`,
    )
    builds.forEach((build, i) => console.log(`${build.name.padEnd(10)} median of the blocks: ${median(results[i].map((r) => r.ratio)).toFixed(2)}x`))
    return 0
  } catch (e) {
    if (!(e instanceof BenchError)) throw e
    console.error(`bench/floor.mjs: ${e.message}`)
    return 1
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

process.exitCode = main()
