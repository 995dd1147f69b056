/**
 * 10. Hangs: whatever sits at a path the store reads, every hook and command returns. One at a time, a FIFO
 * (which blocks a plain open() until a writer comes) replaces: in the project index.json, the latest
 * snapshot the index lists, trails/files.json, bookmark.context.md, LATEST.md, config.json; in the bookmark
 * home registry.json, key, the pointer bookmark.context.md, config.json; and, after a first capture, every
 * file under `.bookmark/`, under the state folder `status --json` names (when it names one) and under
 * `<BOOKMARK_HOME>/cache/`. Locks: store.lock and cursors/<sid>.lock as folders, and as files of a live
 * owner (pid 1) whose time and mtime are an hour ahead, in the project and in the state folder.
 * For each planting: stop, check, precompact, restore, status, doctor, snapshot, list and show (the planting
 * re-made before each), killed at 10 s.
 * Guarantees: every run returns within 2 s; hooks exit 0 with valid output; commands exit 0 or 1 with at most
 * a one-line error and no stack trace; with a planted lock, the user's capture still lands or is logged as skipped.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Checks } from '../lib/result.mjs'
import { appendTranscript, lines, writeTranscript } from '../lib/gen.mjs'
import { gitProject, hookOutputProblem, pool, sandbox } from '../lib/sandbox.mjs'
import {
  cmd,
  errorLogs,
  filesUnder,
  hasStackTrace,
  headerFromReason,
  hook,
  isFifo,
  parseJson,
  plantDir,
  plantFifo,
  plantLiveLock,
  snapshotFiles,
  stateDirOf,
} from '../lib/attack.mjs'
import { pick } from '../lib/env.mjs'

export const name = '10 hangs'

const SID = 'hang0000-0000-4000-8000-000000000010'
const LIMIT_MS = 2_000
const KILL_MS = 10_000
const HOOKS = new Set(['stop', 'check', 'precompact', 'restore'])
const ALL = ['stop', 'check', 'precompact', 'restore', 'status', 'doctor', 'snapshot', 'list', 'show']

/** A project with one capture, a narrative written from the Stop block's header, and the home pointer. */
async function world(label) {
  const sb = sandbox(`hang-${label.replace(/[^a-z0-9]+/gi, '-').slice(0, 40)}`)
  const p = gitProject(join(sb.dir, 'project'))
  const t = join(sb.dir, 't.jsonl')
  const g = lines(SID, p)
  writeTranscript(t, [...g.turn(1, 'src/a.ts'), ...g.turn(2, 'src/b.ts')])
  const w = { p, t, sid: SID, g, turns: 2, env: { ...sb.env, CLAUDE_PROJECT_DIR: p }, sb, store: join(p, '.bookmark'), home: sb.bookmarkHome }
  const first = await hook('stop', w)
  const header = headerFromReason(parseJson(first.stdout)?.reason)
  if (header) writeFileSync(join(w.store, 'bookmark.context.md'), `${header}# Handoff\n\n## Task\nrefactor the modules\n\n## Next step\nrun the tests\n`)
  await hook('stop', w, { stop_hook_active: true })
  await cmd(['snapshot', '--transcript', t, '--session-id', SID], w)
  await hook('restore', w, { source: 'startup' })
  w.stateDir = await stateDirOf(w)
  return w
}

/** One run of `command` in world `w` (new transcript lines first for the capturing ones). */
async function runOne(w, command) {
  if (command === 'stop' || command === 'precompact' || command === 'snapshot') {
    w.turns++
    appendTranscript(w.t, w.g.turn(w.turns, `src/m${w.turns}.ts`))
  }
  const opts = { timeoutMs: KILL_MS }
  if (command === 'stop') return hook('stop', w, {}, opts)
  if (command === 'check') return hook('check', w, { prompt: `go on with module ${w.turns}` }, opts)
  if (command === 'precompact') return hook('precompact', w, {}, opts)
  if (command === 'restore') return hook('restore', w, { source: 'startup' }, opts)
  if (command === 'snapshot') return cmd(['snapshot', '--transcript', w.t, '--session-id', SID], w, opts)
  if (command === 'status') return cmd(['status', '--json'], w, opts)
  if (command === 'doctor') return cmd(['doctor'], w, opts)
  return cmd([command], w, opts)
}

/** What a run did wrong, or ''. */
function problem(command, r) {
  if (r.timedOut) return `hung (killed at ${KILL_MS / 1000} s)`
  if (r.ms > LIMIT_MS) return `took ${Math.round(r.ms)} ms`
  if (HOOKS.has(command)) {
    if (r.code !== 0) return `exit ${r.code}`
    const p = hookOutputProblem(command, r.stdout)
    if (p) return p
  } else {
    if (r.code !== 0 && r.code !== 1) return `exit ${r.code}`
    if (r.code === 1 && r.stderr.trim().split('\n').length > 1)
      return `a ${r.stderr.trim().split('\n').length}-line error: ${JSON.stringify(r.stderr.trim().slice(0, 120))}`
  }
  if (hasStackTrace(r.stderr)) return `stack trace on stderr: ${JSON.stringify(r.stderr.trim().slice(0, 160))}`
  return ''
}

/**
 * The plantings: `{label, kind: 'fifo'|'dir'|'live', path(w), commands}`. Paths are functions of the world,
 * because the latest snapshot id and the state folder are only known after the first capture.
 */
function plantings(template, quick) {
  const out = []
  const add = (label, kind, path, commands = ALL) => out.push({ label, kind, path, commands })
  const proj = (rel) => (w) => join(w.store, rel)
  const home = (rel) => (w) => join(w.home, rel)
  add('project index.json', 'fifo', proj('index.json'))
  add('project snapshots/<latest>.json', 'fifo', (w) => join(w.store, 'snapshots', `${latestId(w)}.json`))
  add('project trails/files.json', 'fifo', proj('trails/files.json'))
  add('project bookmark.context.md', 'fifo', proj('bookmark.context.md'))
  add('project LATEST.md', 'fifo', proj('LATEST.md'))
  add('project config.json', 'fifo', proj('config.json'))
  add('home registry.json', 'fifo', home('registry.json'))
  add('home key', 'fifo', home('key'))
  add('home bookmark.context.md (pointer)', 'fifo', home('bookmark.context.md'))
  add('home config.json', 'fifo', home('config.json'))
  const named = new Set(out.map((o) => o.label))
  // every file the first capture left (the light runs in --quick: the four hooks and status)
  const light = quick ? ['stop', 'check', 'precompact', 'restore', 'status'] : ALL
  for (const rel of filesUnder(template.store)) {
    if (rel.startsWith('snapshots/')) continue // the one the index lists is planted above
    const label = `project ${rel}`
    if (!named.has(label)) add(label, 'fifo', proj(rel), light)
  }
  if (template.stateDir) for (const rel of filesUnder(template.stateDir)) add(`state ${rel}`, 'fifo', (w) => join(w.stateDir, rel), light)
  // the code caches of the bundles: in --quick one file per bundle family (stop.*, cli.*, hook-stop.*, …)
  const families = new Set()
  const caches = filesUnder(join(template.home, 'cache')).filter((rel) => {
    const fam = rel.split('.')[0]
    if (quick && families.has(fam)) return false
    families.add(fam)
    return true
  })
  for (const rel of caches) add(`home cache/${rel.replace(/\.[0-9a-f-]{12,}.*$/i, '…')}`, 'fifo', home(join('cache', rel)), light)
  for (const [where, base] of [['project', (w) => w.store], ...(template.stateDir ? [['state', (w) => w.stateDir]] : [])]) {
    add(`${where} store.lock as a folder`, 'dir', (w) => join(base(w), 'store.lock'))
    add(`${where} cursors/<sid>.lock as a folder`, 'dir', (w) => join(base(w), 'cursors', `${SID}.lock`))
    add(`${where} store.lock of a live owner, an hour ahead`, 'live', (w) => join(base(w), 'store.lock'))
    add(`${where} cursors/<sid>.lock of a live owner, an hour ahead`, 'live', (w) => join(base(w), 'cursors', `${SID}.lock`))
  }
  return out
}

function latestId(w) {
  const idx = parseJson(safeRead(join(w.store, 'index.json')))
  const id = idx?.snapshots?.[0]?.id
  if (typeof id === 'string') return id
  return snapshotFiles(w.store).sort().pop() ?? 'none'
}

function safeRead(path) {
  try {
    return isFifo(path) ? '' : readFileSync(path, 'utf8')
  } catch {
    return ''
  }
}

/** Plants `pl` in world `w` (again before each run: a run may legitimately remove or replace it). */
function plant(pl, path) {
  mkdirSync(join(path, '..'), { recursive: true })
  if (pl.kind === 'fifo') plantFifo(path)
  else if (pl.kind === 'dir') plantDir(path)
  else plantLiveLock(path)
}

async function variant(pl) {
  const w = await world(pl.label)
  const path = pl.path(w)
  const runs = []
  for (const command of pl.commands) {
    const before = { snaps: snapshotFiles(w.store).length, log: errorLogs(w.store, w.stateDir, w.home).length }
    plant(pl, path)
    const r = await runOne(w, command)
    const p = problem(command, r)
    let landed
    if (pl.kind !== 'fifo' && (command === 'stop' || command === 'snapshot')) {
      rmSync(path, { recursive: true, force: true }) // (so the audit itself reads freely)
      const after = { snaps: snapshotFiles(w.store).length, log: errorLogs(w.store, w.stateDir, w.home).length }
      // A hook logs a skipped capture; a command says it on stderr in one line and exits 1 (the user is there to read it).
      const said = command === 'snapshot' && r.code === 1 && /lock/.test(r.stderr) && r.stderr.trim().split('\n').length === 1
      landed = after.snaps > before.snaps || after.log > before.log || said
    }
    runs.push({ command, ms: r.ms, timedOut: r.timedOut, problem: p, landed })
  }
  rmSync(path, { recursive: true, force: true })
  return { pl, runs }
}

export async function run(ctx) {
  const c = new Checks(name)
  const quick = ctx.scale === 'small'
  const template = await world('template')
  if (!existsSync(template.store)) throw new Error('the first capture wrote no .bookmark/')
  const list = plantings(template, quick)
  const width = pick(ctx, 2, 2)
  const results = await pool(list, width, (pl) => variant(pl))

  const all = results.flatMap((r) => r.runs.map((x) => ({ ...x, label: r.pl.label, kind: r.pl.kind })))
  const hooks = all.filter((x) => HOOKS.has(x.command))
  const hung = all.filter((x) => x.timedOut)
  const slow = all.filter((x) => !x.timedOut && x.ms > LIMIT_MS)
  const maxMs = Math.max(...all.map((x) => (x.timedOut ? KILL_MS : x.ms)))
  c.figure('runs', all.length)
  c.figure(`runs over ${LIMIT_MS} ms (not a failure: a loaded machine)`, slow.length)
  c.figure('hooks hung', hooks.filter((x) => x.timedOut).length)
  c.figure('runs hung', hung.length)
  c.figure('max ms', Math.round(maxMs))
  const show = (xs) =>
    xs
      .slice(0, 8)
      .map((x) => `${x.command} with ${x.label}: ${x.problem}`)
      .join('; ') + (xs.length > 8 ? `; … ${xs.length - 8} more` : '')

  const fifoRuns = all.filter((x) => x.kind === 'fifo')
  const lockRuns = all.filter((x) => x.kind !== 'fifo')
  const late = (xs) => xs.filter((x) => x.timedOut || x.ms > LIMIT_MS)
  c.check(
    `every run with a FIFO in the store returns within ${LIMIT_MS / 1000} s`,
    late(fifoRuns).length === 0,
    late(fifoRuns).length
      ? `${late(fifoRuns).length} of ${fifoRuns.length}: ${show(late(fifoRuns))}`
      : `${fifoRuns.length} runs, max ${Math.round(Math.max(...fifoRuns.map((x) => x.ms)))} ms`,
  )
  c.check(
    `every run with a planted lock (folder, live owner an hour ahead) returns within ${LIMIT_MS / 1000} s`,
    late(lockRuns).length === 0,
    late(lockRuns).length
      ? `${late(lockRuns).length} of ${lockRuns.length}: ${show(late(lockRuns))}`
      : `${lockRuns.length} runs, max ${Math.round(Math.max(...lockRuns.map((x) => x.ms)))} ms`,
  )
  const badHooks = hooks.filter((x) => !x.timedOut && x.problem && !/^took /.test(x.problem))
  c.check('hooks exit 0 with valid output', badHooks.length === 0, badHooks.length ? show(badHooks) : `${hooks.length} hook runs`)
  const cmds = all.filter((x) => !HOOKS.has(x.command))
  const badCmds = cmds.filter((x) => !x.timedOut && x.problem && !/^took /.test(x.problem))
  c.check(
    'commands exit 0 or 1 with at most a one-line error and no stack trace',
    badCmds.length === 0,
    badCmds.length ? show(badCmds) : `${cmds.length} command runs`,
  )
  const captures = all.filter((x) => x.landed !== undefined)
  const lost = captures.filter((x) => !x.landed)
  c.check(
    "with a planted lock, the user's capture lands (or is logged as skipped, or a command says why)",
    lost.length === 0,
    lost.length
      ? `${lost.length} of ${captures.length} captures neither landed nor logged: ${lost
          .slice(0, 6)
          .map((x) => `${x.command} with ${x.label}`)
          .join('; ')}`
      : `${captures.length} captures`,
  )
  for (const r of results) {
    const bad = r.runs.filter((x) => x.problem)
    if (bad.length) c.note(`${r.pl.label}: ${bad.map((x) => `${x.command} ${x.timedOut ? 'hung' : x.problem}`).join(', ')}`)
  }
  const fifos = list.filter((p) => p.kind === 'fifo').length
  return c.result(
    `${all.length} runs: ${fifos} FIFO plantings (project, home, ${template.stateDir ? 'state folder, ' : ''}cache) and ${list.length - fifos} lock plantings x up to 9 commands (stop, check, precompact, restore, status, doctor, snapshot, list, show)`,
    `every run returns within ${LIMIT_MS / 1000} s (killed at ${KILL_MS / 1000} s); hooks exit 0 with valid output; commands 0/1 without a stack trace; captures land or are logged`,
  )
}
