/**
 * A capturing Stop with the search memory's store present against the same Stop without it (issue 20: appending
 * a turn's events may add at most 5 ms). Two worlds hold the same generated session, captured once: in one the
 * corpus is backfilled (`bookmark index --backfill`, which reads the session too), in the other there is no
 * memory store. Each round appends the same real turn to both sessions (untimed), then runs the two Stops back to
 * back (alternating which goes first); the case is the median of the per-round differences. Every run must write
 * a snapshot, and every Stop of the memory world must have appended the turn's events to the log (log.json's
 * commit point moved, no hint left for a catch-up): a Stop that skipped its append would be a broken case.
 */
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { buildTranscript, newTurn } from './corpus.mjs'
import { BenchError, median, nodeCommand, quantile, runShell, runWithRss } from './measure.mjs'
import { checkHookRun, indexHead, readJson, world } from './world.mjs'

export const MEMORY_GOAL_MS = 5

/** log.json's commit point, and the hints a Stop leaves when it could not append. */
export function memoryMark(w) {
  const dir = join(w.env.BOOKMARK_HOME, 'memory')
  const state = readJson(join(dir, 'log.json'))
  const pending = existsSync(join(dir, 'pending')) ? readdirSync(join(dir, 'pending')).filter((n) => n.endsWith('.json')).length : 0
  return { commit: state?.commit, committed: state?.committed, pending }
}

function stopPayloadFile(w, dir) {
  const file = join(dir, `payload-stop-${w.name}.json`)
  writeFileSync(
    file,
    JSON.stringify({ session_id: w.sessionId, transcript_path: w.transcript, cwd: w.project, hook_event_name: 'Stop', stop_hook_active: false }),
  )
  return file
}

/**
 * Two worlds under `root` with the same session of about `mb` MB, captured: `absent` (no memory store) and
 * `present` (the corpus of `corpusFiles` backfilled, the session's checkpoint at its end). Returns the worlds,
 * their payload files and what appends a new turn to both.
 */
export function memoryWorlds({ root, bin, sources, turn, corpusFiles, mb = 3, progress = () => {} }) {
  const worlds = {}
  for (const name of ['absent', 'present']) {
    const w = world(root, `memory-${name}`)
    const env = { ...w.env, BOOKMARK_MAX_NARRATIVE_BLOCKS: '0' }
    progress(`memory case: the ${name} world (${mb} MB session${name === 'present' ? `, ${corpusFiles.length} corpus transcripts backfilled` : ''})`)
    const gen = buildTranscript(w.transcript, { sources, targetBytes: mb * 2 ** 20, projectDir: w.project, sessionId: w.sessionId })
    if (name === 'present') {
      const other = join(env.CLAUDE_CONFIG_DIR, 'projects', '-corpus')
      mkdirSync(other, { recursive: true })
      for (const f of corpusFiles) copyFileSync(f, join(other, basename(f)))
      const r = runShell(nodeCommand([bin, 'index', '--backfill']), { env, cwd: w.home })
      if (r.status !== 0) throw new BenchError(`memory case: bookmark index --backfill: ${r.stderr.slice(0, 300)}`)
    }
    const payload = stopPayloadFile(w, w.dir)
    const first = runShell(nodeCommand([bin, 'stop'], { stdin: payload }), { env, cwd: w.project })
    checkHookRun(`memory case (${name}): first capture`, 'stop', first)
    if (indexHead(w) === undefined) throw new BenchError(`memory case (${name}): the first Stop wrote no snapshot`)
    worlds[name] = { w, env, payload, parent: gen.lastUuid }
  }
  if (memoryMark(worlds.present.w).pending !== 0) throw new BenchError('memory case: the backfilled session left a hint: its checkpoint is not at the capture')
  if (existsSync(join(worlds.absent.w.env.BOOKMARK_HOME, 'memory'))) throw new BenchError('memory case: the absent world has a memory store')
  let at = Date.now()
  const append = () => {
    at += 60_000
    for (const x of Object.values(worlds)) {
      const t = newTurn(turn, { sessionId: x.w.sessionId, projectDir: x.w.project, parentUuid: x.parent, at })
      appendFileSync(x.w.transcript, t.text)
      x.parent = t.lastUuid
    }
  }
  return { worlds, append }
}

/** One Stop of world `x`, checked: a snapshot written; in the memory world, the turn appended to the log. */
function stopOnce(bin, x, label, memory) {
  const head = indexHead(x.w)
  const mark = memory ? memoryMark(x.w) : undefined
  const r = runShell(nodeCommand([bin, 'stop'], { stdin: x.payload }), { env: x.env, cwd: x.w.project })
  checkHookRun(label, 'stop', r)
  if (indexHead(x.w) === head) throw new BenchError(`${label}: no snapshot written for the new turn`)
  if (memory) {
    const now = memoryMark(x.w)
    if (now.pending !== 0) throw new BenchError(`${label}: the Stop left its events to a catch-up (a hint in memory/pending)`)
    if (!(now.commit > mark.commit && now.committed > mark.committed)) throw new BenchError(`${label}: the Stop appended nothing to the events log`)
  }
  return r.ms
}

/** The case: `rounds` paired rounds after `warmup`, the order of the two Stops alternating. */
export function memoryStopCase(ctx, { rounds = ctx.s.rounds, warmup = ctx.s.warmup } = {}) {
  const { s, root } = ctx
  // The Stop reads and writes only its own transcript's checkpoint: a few backfilled transcripts show that as well as all.
  const corpusFiles = ctx.sources.map((x) => x.path).slice(0, s.quick ? 3 : undefined)
  const { worlds, append } = memoryWorlds({ root, bin: s.bin, sources: ctx.sources, turn: ctx.turn, corpusFiles, progress: ctx.progress })
  ctx.progress(`stop with and without the memory store: ${warmup} + ${rounds} paired rounds`)
  const absent = []
  const present = []
  for (let i = 0; i < warmup + rounds; i++) {
    append()
    const runA = () => stopOnce(s.bin, worlds.absent, 'stop, one new turn, no memory store', false)
    const runB = () => stopOnce(s.bin, worlds.present, 'stop, one new turn, memory store present', true)
    let a
    let b
    if (i % 2 === 0) {
      a = runA()
      b = runB()
    } else {
      b = runB()
      a = runA()
    }
    if (i < warmup) continue
    absent.push(a)
    present.push(b)
  }
  const diffs = present.map((b, i) => b - absent[i])
  append()
  stopOnce(s.bin, worlds.absent, 'stop, one new turn, no memory store', false)
  const rss = runWithRss([s.bin, 'stop'], { env: worlds.present.env, cwd: worlds.present.w.project, stdin: worlds.present.payload, scratch: root })
  checkHookRun('stop, one new turn, memory store present (peak RSS)', 'stop', rss)
  const row = {
    id: 'stop-memory',
    label: 'stop, one new turn: memory store present against absent',
    kind: 'hook',
    n: rounds,
    median: median(present),
    p10: quantile(present, 0.1),
    p90: quantile(present, 0.9),
    bare: median(absent),
    ratio: median(present) / median(absent),
    pairRatio: median(present.map((b, i) => b / absent[i])),
    rssMb: rss.rssKb / 1024,
    added: median(diffs),
    notes: `baseline: the same Stop without a memory store; adds ${median(diffs).toFixed(1)} ms (median of paired differences, p10 ${quantile(diffs, 0.1).toFixed(1)}, p90 ${quantile(diffs, 0.9).toFixed(1)})`,
  }
  ctx.cases.push(row)
  return row
}

/** The verdict of the case (issue 20). */
export function memoryGoal(row) {
  return {
    label: 'stop after one new turn, memory store present: what appending its events adds',
    pass: row.added <= MEMORY_GOAL_MS,
    measured: `${row.added.toFixed(1)} ms`,
    goal: `at most ${MEMORY_GOAL_MS} ms`,
    detail: `${row.median.toFixed(1)} ms against ${row.bare.toFixed(1)} ms (medians)`,
  }
}
