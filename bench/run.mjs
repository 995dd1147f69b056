#!/usr/bin/env node
/**
 * npm run bench: the goals of issues 7 and 17, measured on whole processes of the built CLI.
 *
 * - Transcripts of ~50 MB and ~500 MB are generated from the real corpus (bench/lib/corpus.mjs).
 * - Hook cases run paired rounds A B A B … of `sh -c 'exec node -e 0 < payload'` (A) and
 *   `sh -c 'exec node <bin> <hook> < payload'` (B); each B run must exit 0 with empty or valid JSON output.
 * - First captures run `bookmark snapshot` on a fresh store, of transcripts made of whole real sessions, in
 *   paired rounds with a plain pass over the same file (read, split, JSON.parse); peak RSS from /usr/bin/time -v.
 * - Restore runs on a history of 1,000 snapshots and a registry of 500 projects.
 * - Codex CLI's restore and Stops run on a rollout made of the real Codex ones (bench/lib/codex.mjs).
 * - A capturing Stop with the search memory's store present, paired with the same Stop without one.
 * - Search (issue 20, bench/lib/search.mjs): an events log of 200,000 events built from the corpus, its index,
 *   cold searches paired with bare Node, the MCP server warm, adding 1,000 events, the corpus's backfill.
 * It prints the machine, a table and one PASS/FAIL verdict per goal. It never asserts a time: it exits 0
 * whatever the verdicts, 1 when a case broke (a hook failed, printed garbage, or did not do what the case
 * measures), 2 when it cannot start (no corpus, bad settings).
 *
 * Everything happens in a fresh temp folder (BENCH_TMP, else the system temp) with HOME, CLAUDE_CONFIG_DIR
 * and BOOKMARK_HOME inside it; the folder is removed at the end unless BENCH_KEEP=1.
 * Options: --quick (= BENCH_QUICK=1), --markdown FILE (= BENCH_MARKDOWN), --json FILE (= BENCH_JSON),
 * --update-doc (rewrites the results section of docs/BENCHMARKS.md), --only hooks|search (one part alone).
 * Knobs: see docs/BENCHMARKS.md.
 */
import { randomUUID } from 'node:crypto'
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { REPO_ROOT } from '../stress/lib/env.mjs'
import { buildTranscript, corpusDir, findTurn, loadSources, newTurn } from './lib/corpus.mjs'
import { captureCase, captureOnce } from './lib/capture.mjs'
import { codexCases } from './lib/codex.mjs'
import { memoryGoal, memoryStopCase } from './lib/memory.mjs'
import { NARRATIVE_PROBE, fillRegistry, growHistory, writeNarrative } from './lib/history.mjs'
import { additionalContext, checkHookRun, errorsLogPath, errorsLogSize, hookPrefix, indexHead, readJson, stateDirOf, world } from './lib/world.mjs'
import { BenchError, median, nodeCommand, paired, rssMethod, runShell, runWithRss } from './lib/measure.mjs'
import { loadLine, machine, markdownReport, printHeader, textReport, updateDoc } from './lib/report.mjs'
import { searchBench } from './lib/search.mjs'

const MiB = 2 ** 20
const DEFAULT_BUDGET = 6000
const SMALL_BUDGET = 1000
/**
 * The bound on (one turn on the large session) / (one turn on the small one), both as ratios to bare node. A
 * Stop whose work grew with the file would show the sizes' 10x; a constant one shows 1 plus the noise of two
 * cases (one run's ratio moves by 0.05 or more here, so a quotient of two by about 0.1). 1.25 is above that
 * noise and still catches a cost of 15 ms (a quarter of a 60 ms Stop) over 450 MB, a pass at 30 GB/s.
 */
const PROPORTIONAL_LIMIT = 1.25

class UsageError extends Error {}

/** Sizes, rounds and places, from the environment and the command line. */
export function settings(env = process.env, argv = process.argv.slice(2)) {
  const quick = env.BENCH_QUICK === '1' || argv.includes('--quick')
  const num = (name, full, small, min = 1) => {
    const raw = env[name]
    if (raw === undefined || raw === '') return quick ? small : full
    const n = Number(raw)
    if (!Number.isFinite(n) || n < min) throw new UsageError(`${name}=${raw}: expected a number of at least ${min}`)
    return n
  }
  const value = (name) => {
    const i = argv.indexOf(name)
    if (i < 0) return undefined
    const v = argv[i + 1]
    if (!v || v.startsWith('--')) throw new UsageError(`${name} needs a ${name === '--only' ? 'part (hooks or search)' : 'file name'}`)
    return v
  }
  const flag = (name) => (value(name) === undefined ? undefined : resolve(value(name)))
  const only = value('--only')
  if (only !== undefined && only !== 'hooks' && only !== 'search') throw new UsageError(`--only takes hooks or search, got ${only}`)
  const known = new Set(['--quick', '--markdown', '--json', '--update-doc', '--only'])
  const unknown = argv.filter((a, i) => a.startsWith('--') && !known.has(a) && !['--markdown', '--json', '--only'].includes(argv[i - 1] ?? ''))
  if (unknown.length > 0) throw new UsageError(`unknown option ${unknown[0]} (known: ${[...known].join(', ')})`)
  const s = {
    quick,
    rounds: num('BENCH_ROUNDS', 30, 5),
    warmup: num('BENCH_WARMUP', 3, 1, 0),
    captureRuns: num('BENCH_CAPTURE_RUNS', 3, 2),
    rssRuns: num('BENCH_RSS_RUNS', 3, 1),
    smallMb: num('BENCH_SMALL_MB', 50, 2),
    bigMb: num('BENCH_BIG_MB', 500, 5),
    historyMb: quick ? 1 : 4,
    snapshots: num('BENCH_SNAPSHOTS', 1000, 100),
    projects: num('BENCH_PROJECTS', 500, 50),
    searchEvents: num('BENCH_SEARCH_EVENTS', 200_000, 20_000, 1_000),
    only,
    tmp: resolve(env.BENCH_TMP || tmpdir()),
    keep: env.BENCH_KEEP === '1',
    markdown: flag('--markdown') ?? (env.BENCH_MARKDOWN ? resolve(env.BENCH_MARKDOWN) : undefined),
    json: flag('--json') ?? (env.BENCH_JSON ? resolve(env.BENCH_JSON) : undefined),
    updateDoc: argv.includes('--update-doc'),
    bin: env.BOOKMARK_BENCH_BIN ? resolve(env.BOOKMARK_BENCH_BIN) : join(REPO_ROOT, 'bin', 'bookmark.cjs'),
    corpus: corpusDir(REPO_ROOT, env),
  }
  if (s.updateDoc && (s.quick || only)) throw new UsageError('--update-doc records a full run: unset BENCH_QUICK, leave out --only')
  return s
}

const progress = (m) => process.stderr.write(`bench: ${m}\n`)

const size = (bytes) => `${(bytes / MiB).toFixed(bytes < 10 * MiB ? 1 : 0)} MB`

/**
 * One hook case: the payload written to a file, paired rounds, then `rssRuns` runs for the peak RSS.
 * `expect(run)` throws when a run did not do what the case measures; `after(run, timed)` collects facts.
 */
export function hookCase(ctx, { id, label, w, hook, args = [], payload, env = w.env, cwd = w.project, prepare, expect, after, notes }) {
  progress(`${label}: ${ctx.s.warmup} + ${ctx.s.rounds} paired rounds`)
  const file = join(w.dir, `payload-${id}.json`)
  writeFileSync(file, `${JSON.stringify(payload)}\n`)
  const logBefore = errorsLogSize(w)
  const check = (r) => {
    checkHookRun(label, hook, r)
    expect?.(r)
  }
  ctx.s.hookPrefix ??= hookPrefix(ctx.s.bin, ctx.s.tmp)
  const result = paired({
    a: nodeCommand(['-e', '0'], { stdin: file }),
    b: nodeCommand([...ctx.s.hookPrefix, ctx.s.bin, hook, ...args], { stdin: file }),
    env,
    cwd,
    rounds: ctx.s.rounds,
    warmup: ctx.s.warmup,
    prepare,
    check,
    after,
  })
  const rss = []
  for (let i = 0; i < ctx.s.rssRuns; i++) {
    prepare?.()
    const r = runWithRss([...ctx.s.hookPrefix, ctx.s.bin, hook, ...args], { env, cwd, stdin: file, scratch: ctx.root })
    check(r)
    after?.(r, false)
    rss.push(r.rssKb)
  }
  if (errorsLogSize(w) !== logBefore) throw new BenchError(`${label}: the hook logged a failure in ${errorsLogPath(w)}`)
  const row = {
    id,
    label,
    kind: 'hook',
    n: result.hook.n,
    median: result.hook.median,
    p10: result.hook.p10,
    p90: result.hook.p90,
    bare: result.bare.median,
    ratio: result.ratio,
    pairRatio: result.pairRatio,
    rssMb: Math.max(...rss) / 1024,
    notes: typeof notes === 'function' ? notes() : notes,
  }
  ctx.cases.push(row)
  return row
}

/** A transcript for world `w`: the relocated sessions cut at the size, or with `whole` every session whole. */
function generate(ctx, w, mb, label, { whole = false } = {}) {
  progress(`generating the ${label} transcript (${mb} MB${whole ? ', whole sessions' : ''}) in ${w.transcript}`)
  const started = Date.now()
  const gen = buildTranscript(w.transcript, {
    sources: whole ? ctx.whole : ctx.sources,
    targetBytes: mb * MiB,
    projectDir: w.project,
    sessionId: w.sessionId,
    whole,
  })
  const ms = Date.now() - started
  ctx.transcripts.push({
    label,
    path: gen.path,
    bytes: gen.bytes,
    lines: gen.lines,
    repetitions: gen.repetitions.length,
    sources: new Set(gen.repetitions.map((r) => r.source)).size,
    whole,
    sessionId: whole ? undefined : gen.sessionId,
    projectDir: gen.projectDir,
    ms,
    repetitionRanges: gen.repetitions,
  })
  return gen
}

/** The Stop payload Claude Code sends for this world's session. */
function stopPayload(w, lastAssistantMessage) {
  return {
    session_id: w.sessionId,
    transcript_path: w.transcript,
    cwd: w.project,
    permission_mode: 'default',
    hook_event_name: 'Stop',
    stop_hook_active: false,
    last_assistant_message: lastAssistantMessage ?? '',
    background_tasks: [],
    session_crons: [],
  }
}

function startupPayload(w, cwd = w.project) {
  const sid = randomUUID()
  return {
    session_id: sid,
    transcript_path: join(dirname(w.transcript), `${sid}.jsonl`),
    cwd,
    hook_event_name: 'SessionStart',
    source: 'startup',
    model: 'claude-opus-4-6',
  }
}

/** The index must not move during the timed rounds of a case that writes nothing. */
export function unchangedIndex(label, w) {
  let head
  return (_r, timed) => {
    if (!timed) return
    const now = indexHead(w)
    head ??= now
    if (now !== head) throw new BenchError(`${label}: a snapshot was written (${now}); this case measures a hook that has nothing to write`)
  }
}

/** Claude Code turns for `w`: each one chained to the last turn appended (`append`: this one will be). */
function claudeTurns(ctx, w, gen) {
  let parent = gen.lastUuid
  return (append) => {
    const t = newTurn(ctx.turn, { sessionId: w.sessionId, projectDir: w.project, parentUuid: parent })
    if (append) parent = t.lastUuid
    return t
  }
}

/**
 * Stop after one new turn: a real turn (`nextTurn(true)`) appended (untimed) before each round; each run must write
 * one snapshot. The payload names the reply of a turn like it (`nextTurn(false)`, not appended).
 */
export function stopTurnCase(ctx, w, { id, label, args, nextTurn, payload = (reply) => stopPayload(w, reply) }) {
  let reply
  const sample = nextTurn(false)
  const read = []
  let head = indexHead(w)
  return hookCase(ctx, {
    id,
    label,
    w,
    hook: 'stop',
    args,
    payload: payload(sample.lastAssistantText),
    env: { ...w.env, BOOKMARK_MAX_NARRATIVE_BLOCKS: '0' },
    prepare: () => {
      const t = nextTurn(true)
      appendFileSync(w.transcript, t.text)
      reply = t.lastAssistantText
    },
    expect: (r) => {
      if (r.stdout.trim() !== '') throw new BenchError(`${label}: stop printed ${r.stdout.slice(0, 120)} with narrative blocks off`)
    },
    after: (_r, timed) => {
      const now = indexHead(w)
      if (now === head) throw new BenchError(`${label}: no snapshot written for the new turn (reply ${JSON.stringify(reply?.slice(0, 60))})`)
      head = now
      const snap = readJson(join(w.project, '.bookmark', 'snapshots', `${now}.json`))
      if (timed && Number.isFinite(snap?.capture?.bytesRead)) read.push(snap.capture.bytesRead)
    },
    notes: () =>
      `reads ${read.length > 0 ? `${(median(read) / 1024).toFixed(1)} KB` : 'unknown bytes'} per turn; narrative blocks off (BOOKMARK_MAX_NARRATIVE_BLOCKS=0)`,
  })
}

export function restoreCase(ctx, { id, label, w, cwd, budget, probe = true, args, payload, prepare, after, note }) {
  const env = budget === DEFAULT_BUDGET ? w.env : { ...w.env, BOOKMARK_RESTORE_BUDGET: String(budget) }
  const chars = []
  const row = hookCase(ctx, {
    id,
    label,
    w,
    hook: 'restore',
    args,
    payload: payload ?? startupPayload(w, cwd),
    env,
    cwd: cwd ?? w.project,
    prepare,
    after,
    expect: (r) => {
      const text = additionalContext(r)
      if (text === undefined) throw new BenchError(`${label}: restore printed nothing`)
      if (probe && !text.includes(NARRATIVE_PROBE)) throw new BenchError(`${label}: the handoff was not restored: ${text.slice(0, 300)}`)
      chars.push(text.length)
    },
    notes: () => `injects ${Math.max(...chars)} characters (budget ${budget})${note ? `; ${note}` : ''}`,
  })
  ctx.budgets.push({ budget, label, chars: Math.max(...chars) })
  return row
}

function findCase(ctx, id) {
  return ctx.cases.find((c) => c.id === id)
}

/** One verdict per goal (issue 17 set the hook ratios: 1.2x for the light hooks, 3x for a capturing Stop). */
function goals(ctx) {
  const s = ctx.s
  const out = []
  const ratioGoal = (label, id, limit, detail) => {
    const c = findCase(ctx, id)
    out.push({
      label,
      pass: c.ratio <= limit,
      measured: `${c.ratio.toFixed(2)}x bare node`,
      goal: `at most ${limit.toFixed(1)}x`,
      detail: detail ?? `pair ratio ${c.pairRatio.toFixed(2)}x`,
    })
  }
  ratioGoal('check (not due)', 'check', 1.2)
  ratioGoal('restore (startup)', 'restore', 1.2)
  ratioGoal('stop with nothing new', 'stop-idle', 1.2)
  ratioGoal('Codex restore (startup)', 'codex-restore', 1.2)
  ratioGoal('Codex stop with nothing new', 'codex-stop-idle', 1.2)
  ratioGoal(`Codex stop after one new turn, ${size(ctx.codexBytes)} rollout`, 'codex-stop-turn', 3)
  const turn = findCase(ctx, 'stop-turn-big')
  ratioGoal(
    `stop after one new turn, ${size(ctx.bigBytes)} transcript`,
    'stop-turn-big',
    3,
    `pair ratio ${turn.pairRatio.toFixed(2)}x; ${turn.notes.split(';')[0]}`,
  )
  // Not proportional to the transcript: the same turn on a session 10 times the size (2.5 times in BENCH_QUICK).
  // Compared as ratios to bare node (each case paired), so a drift of the machine between the cases cancels.
  const turnSmall = findCase(ctx, 'stop-turn-small')
  const growth = turn.ratio / turnSmall.ratio
  out.push({
    label: `stop after one new turn, ${size(ctx.bigBytes)} against ${size(ctx.smallBytes)}: not proportional to the transcript`,
    pass: growth <= PROPORTIONAL_LIMIT,
    measured: `${growth.toFixed(2)}x the time on ${size(ctx.smallBytes)}`,
    goal: `at most ${PROPORTIONAL_LIMIT}x`,
    detail: `the sizes are ${(ctx.bigBytes / ctx.smallBytes).toFixed(1)}x apart; pair ratios ${(turn.pairRatio / turnSmall.pairRatio).toFixed(2)}x`,
  })
  out.push(memoryGoal(findCase(ctx, 'stop-memory')))
  const cap = findCase(ctx, 'capture-big')
  const name = size(ctx.captureBigBytes)
  out.push({
    label: `first capture of ${name} (whole real sessions), against a plain pass`,
    pass: cap.ratio <= 1,
    measured: `${cap.ratio.toFixed(2)}x the pass`,
    goal: 'at most 1.0x',
    detail: `pair ratio ${cap.pairRatio.toFixed(2)}x; ${(cap.median / 1000).toFixed(2)} s against ${(cap.bare / 1000).toFixed(2)} s`,
  })
  out.push({ label: `first capture of ${name}, peak RSS`, pass: cap.rssMb <= 100, measured: `${cap.rssMb.toFixed(0)} MB`, goal: 'at most 100 MB' })
  for (const budget of [DEFAULT_BUDGET, SMALL_BUDGET]) {
    const seen = ctx.budgets.filter((b) => b.budget === budget)
    const worst = Math.max(...seen.map((b) => b.chars))
    out.push({
      label: `restore within its budget of ${budget} (${s.snapshots} snapshots, ${s.projects} projects)`,
      pass: worst <= budget,
      measured: `${worst} characters at most`,
      goal: `at most ${budget}`,
      detail: `${seen.length} restore case${seen.length > 1 ? 's' : ''}`,
    })
  }
  return out
}

async function main() {
  let s
  try {
    s = settings()
  } catch (e) {
    if (!(e instanceof UsageError)) throw e
    console.error(`bench: ${e.message}`)
    return 2
  }
  if (!existsSync(s.bin)) {
    console.error(`bench: the CLI under test ${s.bin} does not exist (run npm run build, or set BOOKMARK_BENCH_BIN)`)
    return 2
  }
  const m = machine(s.bin, rssMethod())
  process.stdout.write(printHeader(m, s))
  const { sources, skipped, whole, missing } = loadSources(s.corpus)
  if (missing || sources.length === 0) {
    console.error(
      `bench: no real transcripts at ${missing ?? join(s.corpus, 'claude')}: the bench generates its transcripts from them (set BOOKMARK_CORPUS to the corpus folder)`,
    )
    return 2
  }
  for (const k of skipped) progress(`left out of the hook cases' transcripts: ${k.name}: ${k.reason}`)
  const turn = findTurn(sources)
  if (!turn) {
    console.error('bench: no request + Edit/Write + result + reply in the corpus to use as the new turn')
    return 2
  }
  mkdirSync(s.tmp, { recursive: true })
  const root = mkdtempSync(join(s.tmp, 'bm-bench-'))
  const ctx = { s, root, sources, whole, turn, progress, cases: [], budgets: [], transcripts: [] }
  let code = 0
  try {
    code = await run(ctx, m, skipped)
  } catch (e) {
    if (!(e instanceof BenchError)) throw e
    console.error(`bench: BROKEN: ${e.message}`)
    code = 1
  } finally {
    if (s.keep) progress(`kept ${root} (BENCH_KEEP=1)`)
    else rmSync(root, { recursive: true, force: true, maxRetries: 3 })
  }
  return code
}

async function run(ctx, m, skipped) {
  const { s, root } = ctx
  progress(`working in ${root}`)
  if (s.only === 'search') return report(ctx, m, skipped, await searchBench(ctx), false)
  const newTurnFile = join(root, 'new-turn.jsonl')
  writeFileSync(newTurnFile, newTurn(ctx.turn, { sessionId: randomUUID(), projectDir: join(root, 'small', 'project'), parentUuid: null }).text)

  // First captures of the corpus as it is (every session whole), each against a plain pass over its file;
  // the file is removed after its case (unless BENCH_KEEP=1), so the run never holds both large files.
  for (const [id, mb, label] of [
    ['capture-small', s.smallMb, 'whole small'],
    ['capture-big', s.bigMb, 'whole large'],
  ]) {
    const w = world(root, id)
    const gen = generate(ctx, w, mb, label, { whole: true })
    if (id === 'capture-big') ctx.captureBigBytes = gen.bytes
    captureCase(ctx, w, gen, id, `first capture, ${size(gen.bytes)}, whole sessions`, size(gen.bytes))
    if (!s.keep) rmSync(gen.path, { force: true })
  }

  const small = world(root, 'small')
  const big = world(root, 'big')
  const hist = world(root, 'history')
  const genSmall = generate(ctx, small, s.smallMb, 'small')
  const genBig = generate(ctx, big, s.bigMb, 'large')
  const genHist = generate(ctx, hist, s.historyMb, 'history')
  ctx.smallBytes = genSmall.bytes
  ctx.bigBytes = genBig.bytes

  // The hook cases' sessions, captured once (untimed), as a first Stop of theirs would have.
  captureOnce(ctx, small, genSmall, 'first capture of the small session')
  captureOnce(ctx, big, genBig, 'first capture of the large session')

  // Steady state of a long-time user: a fresh handoff, a full registry.
  for (const w of [small, big]) {
    writeNarrative(w.project, { sessionId: w.sessionId, branch: w.branch, head: w.head, bookmarkHome: w.env.BOOKMARK_HOME })
    fillRegistry(w.env.BOOKMARK_HOME, s.projects, join(w.dir, 'other-projects'))
  }

  // The model writes the handoff at the end of a turn, and the Stop that ends the turn captures it and prepares
  // the next startup restore (src/hooks/prepared.ts): one such turn on the small session, as in a real one.
  const handoffTurn = newTurn(ctx.turn, { sessionId: small.sessionId, projectDir: small.project, parentUuid: genSmall.lastUuid, at: Date.now() - 5_000 }) // its four lines a second apart, before the handoff
  appendFileSync(small.transcript, handoffTurn.text)
  genSmall.lastUuid = handoffTurn.lastUuid
  writeNarrative(small.project, { sessionId: small.sessionId, branch: small.branch, head: small.head, bookmarkHome: small.env.BOOKMARK_HOME })
  const turnPayload = join(small.dir, 'payload-handoff-turn.json')
  writeFileSync(turnPayload, JSON.stringify(stopPayload(small, handoffTurn.lastAssistantText)))
  checkHookRun(
    'stop (the turn that wrote the handoff)',
    'stop',
    runShell(nodeCommand([s.bin, 'stop'], { stdin: turnPayload }), { env: { ...small.env, BOOKMARK_MAX_NARRATIVE_BLOCKS: '0' }, cwd: small.project }),
  )
  const prepared = join(stateDirOf(small), 'restore.prepared.json')
  if (!existsSync(prepared)) throw new BenchError(`stop (the turn that wrote the handoff): no ${prepared} written`)

  hookCase(ctx, {
    id: 'stop-idle',
    label: `stop, nothing new (${size(genSmall.bytes)} session)`,
    w: small,
    hook: 'stop',
    payload: stopPayload(small, handoffTurn.lastAssistantText),
    after: unchangedIndex('stop, nothing new', small),
  })

  const checkEnv = { ...small.env, BOOKMARK_INTERVAL: '1440' }
  const checkPayload = {
    session_id: small.sessionId,
    transcript_path: small.transcript,
    cwd: small.project,
    permission_mode: 'default',
    hook_event_name: 'UserPromptSubmit',
    prompt: 'Make the colors green and yellow',
  }
  // The first check of the session is due: it captures and records the time, so the next ones are not due.
  const payloadFile = join(small.dir, 'payload-check-first.json')
  writeFileSync(payloadFile, JSON.stringify(checkPayload))
  checkHookRun('check (first, due)', 'check', runShell(nodeCommand([s.bin, 'check'], { stdin: payloadFile }), { env: checkEnv, cwd: small.project }))
  const sessionFile = join(stateDirOf(small), 'sessions', `${small.sessionId}.json`)
  if (!readJson(sessionFile)?.lastIntervalSnapshotAt) throw new BenchError(`check (first, due): ${sessionFile} records no interval snapshot`)
  hookCase(ctx, {
    id: 'check',
    label: `check, not due (${size(genSmall.bytes)} session)`,
    w: small,
    hook: 'check',
    payload: checkPayload,
    env: checkEnv,
    after: unchangedIndex('check, not due', small),
  })

  const stillPrepared = () => {
    if (!existsSync(prepared)) throw new BenchError(`restore, startup: ${prepared} is gone: this case measures the prepared answer`)
  }
  restoreCase(ctx, {
    id: 'restore',
    label: `restore, startup (${size(genSmall.bytes)} session)`,
    w: small,
    budget: DEFAULT_BUDGET,
    note: 'the answer the last capture prepared',
    after: stillPrepared,
  })
  // The same restore computed in full (no prepared answer: a store changed by hand, or another version): for the record.
  restoreCase(ctx, {
    id: 'restore-computed',
    label: `restore, startup, computed (${size(genSmall.bytes)} session)`,
    w: small,
    budget: DEFAULT_BUDGET,
    note: 'nothing prepared: rendered and redacted',
    prepare: () => rmSync(prepared, { force: true }),
  })

  stopTurnCase(ctx, small, { id: 'stop-turn-small', label: `stop, one new turn on ${size(genSmall.bytes)}`, nextTurn: claudeTurns(ctx, small, genSmall) })
  stopTurnCase(ctx, big, { id: 'stop-turn-big', label: `stop, one new turn on ${size(genBig.bytes)}`, nextTurn: claudeTurns(ctx, big, genBig) })

  // The same hooks as Codex CLI runs them, on a rollout of the small size (bench/lib/codex.mjs).
  ctx.codexBytes = codexCases(ctx, { hookCase, restoreCase, stopTurnCase, unchangedIndex, size, budget: DEFAULT_BUDGET })
  // Issue 20: the same kind of Stop with the search memory's store present, against it absent (bench/lib/memory.mjs).
  memoryStopCase(ctx)

  // A long history: one real capture, copied into `snapshots` snapshots; `projects` projects in the registry.
  progress(`history: ${s.snapshots} snapshots, ${s.projects} projects`)
  const cfg = runShell(nodeCommand([s.bin, 'config', '--project', '--set', `indexCap=${s.snapshots}`]), { env: hist.env, cwd: hist.project })
  if (cfg.status !== 0) throw new BenchError(`bookmark config --project --set indexCap=${s.snapshots}: ${cfg.stderr}`)
  const cap = runShell(nodeCommand([s.bin, 'snapshot', '--transcript', genHist.path, '--cwd', hist.project, '--trigger', 'stop', '--json']), {
    env: hist.env,
    cwd: hist.project,
  })
  if (cap.status !== 0) throw new BenchError(`history capture: ${cap.stderr}`)
  growHistory(hist.project, s.snapshots, hist.env.BOOKMARK_HOME)
  fillRegistry(hist.env.BOOKMARK_HOME, s.projects, join(hist.dir, 'other-projects'))
  writeNarrative(hist.project, { sessionId: hist.sessionId, branch: hist.branch, head: hist.head, long: true, bookmarkHome: hist.env.BOOKMARK_HOME })
  const many = `${s.snapshots} snapshots, ${s.projects} projects`
  restoreCase(ctx, { id: 'restore-history', label: `restore, ${many}`, w: hist, budget: DEFAULT_BUDGET })
  restoreCase(ctx, { id: 'restore-history-small', label: `restore, ${many}, budget ${SMALL_BUDGET}`, w: hist, budget: SMALL_BUDGET })
  restoreCase(ctx, { id: 'restore-home', label: `restore from the home folder, ${many}`, w: hist, cwd: hist.home, budget: DEFAULT_BUDGET })

  return report(ctx, m, skipped, s.only === 'hooks' ? [] : await searchBench(ctx), true)
}

/** Prints and writes the results: the hook goals when those cases ran, then `more` (the search goals). */
function report(ctx, m, skipped, more, hooks) {
  const { s, root } = ctx
  const newTurnFile = join(root, 'new-turn.jsonl')
  const results = {
    date: new Date().toISOString(),
    machine: m,
    settings: { ...s, bin: s.bin },
    transcripts: ctx.transcripts.map(({ repetitionRanges, ...t }) => t),
    skipped,
    newTurnFile,
    root,
    cases: ctx.cases,
    goals: [...(hooks ? goals(ctx) : []), ...more],
    load: loadLine(m),
  }
  process.stdout.write(`\n${textReport(results)}\n`)
  if (s.markdown) writeFileSync(s.markdown, `${markdownReport(results)}\n`)
  if (s.json) writeFileSync(s.json, `${JSON.stringify({ ...results, transcripts: ctx.transcripts }, null, 2)}\n`)
  if (s.updateDoc) {
    const doc = join(REPO_ROOT, 'docs', 'BENCHMARKS.md')
    updateDoc(doc, markdownReport(results))
    progress(`updated ${doc}`)
  }
  return 0
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main()
}
