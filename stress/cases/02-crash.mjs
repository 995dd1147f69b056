/**
 * 2. Crash safety: captures of a large transcript killed with SIGKILL at random moments (uniform over
 * 0..1.1x their typical runtime under the same parallel load), a few at a time on one project.
 * Guarantees: afterwards every stored file under .bookmark/ and ~/.bookmark/ parses, the index lists only
 * snapshots that exist, the next capture succeeds, locks left by killed processes (and planted dead-owner
 * and half-written locks) are taken over, and what killed writes left behind is swept.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, utimesSync, writeFileSync, existsSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { pick } from '../lib/env.mjs'
import { runDoctor } from '../lib/doctor.mjs'
import { bigTranscript } from '../lib/gen.mjs'
import { Checks } from '../lib/result.mjs'
import { gitProject, hookOutputProblem, pool, rng, runCli, sandbox, spawnCli } from '../lib/sandbox.mjs'
import { stateDir } from '../lib/state.mjs'
import { auditStore, indexAudit, registryEntries, walk, isTempFile } from '../lib/store.mjs'

export const name = '2 crash safety'

export async function run(ctx) {
  const kills = Number(process.env.STRESS_KILLS ?? pick(ctx, 1000, 24))
  const width = pick(ctx, 4, 2)
  const mb = pick(ctx, 1, 1)
  const c = new Checks(name)
  const sb = sandbox('crash')
  const project = gitProject(join(sb.dir, 'proj'))
  const env = { ...sb.env, CLAUDE_PROJECT_DIR: project }
  const transcript = join(sb.dir, 'big.jsonl')
  const gen = bigTranscript(transcript, project, 'crash-session', mb)
  const store = join(project, '.bookmark')
  const r = rng(2)
  let n = 0
  const args = () => {
    n++
    const sid = `crash-${String(n).padStart(5, '0')}`
    // Four captures in five are `bookmark snapshot`, one is a Stop hook: both die the same way.
    if (n % 5 === 0)
      return {
        args: ['stop'],
        stdin: JSON.stringify({
          session_id: sid,
          transcript_path: transcript,
          cwd: project,
          hook_event_name: 'Stop',
          stop_hook_active: true,
          last_assistant_message: `reply ${n}`,
        }),
      }
    return { args: ['snapshot', '--transcript', transcript, '--session-id', sid, '--cwd', project, '--json'] }
  }

  // Typical runtime of a whole capture under the same parallel load.
  const calib = await pool(
    Array.from({ length: width * 2 }, () => args()),
    width,
    (a) => runCli(a.args, { env, cwd: project, stdin: a.stdin, timeoutMs: 60_000 }),
  )
  const times = calib.map((x) => x.ms).sort((a, b) => a - b)
  const typical = times[Math.floor(times.length / 2)]
  c.figure('typicalMs', Math.round(typical))
  if (calib.some((x) => x.code !== 0)) c.check('calibration captures succeed', false, calib.find((x) => x.code !== 0).stderr.slice(0, 200))

  let killed = 0
  let finished = 0
  const finishedBadly = []
  await pool(
    Array.from({ length: kills }, (_, i) => i),
    width,
    async () => {
      const a = args()
      const delay = r() * typical * 1.1
      const { child, done } = spawnCli(a.args, { env, cwd: project, stdin: a.stdin, timeoutMs: 60_000 })
      const timer = setTimeout(() => child.kill('SIGKILL'), delay)
      const res = await done
      clearTimeout(timer)
      if (res.signal === 'SIGKILL' && !res.timedOut) killed++
      else {
        finished++
        if (res.code !== 0) finishedBadly.push(`exit ${res.code}: ${res.stderr.trim().split('\n').pop()?.slice(0, 160)}`)
        if (a.args[0] === 'stop' && hookOutputProblem('stop', res.stdout)) finishedBadly.push(hookOutputProblem('stop', res.stdout))
      }
    },
  )
  c.figure('killed', killed)
  c.figure('finishedBeforeKill', finished)
  c.check(
    'captures that were not killed succeed',
    finishedBadly.length === 0,
    finishedBadly.slice(0, 2).join(' | ') || `${finished} finished before their kill, all exit 0`,
  )

  // Right after the kills, before anything repairs: the stored files and the index.
  const a1 = [auditStore(store), auditStore(sb.bookmarkHome)]
  const problems = a1.flatMap((a) => a.problems)
  c.check(
    'every stored file parses after the kills',
    problems.length === 0,
    problems.slice(0, 3).join(' | ') ||
      `${a1.reduce((k, a) => k + a.parsed, 0)} files parse (${a1.reduce((k, a) => k + a.temps.length, 0)} temp files and ${a1.reduce((k, a) => k + a.locks.length, 0)} lock files of killed processes apart)`,
  )
  const idx1 = indexAudit(project)
  c.check(
    'the index only lists snapshots that exist',
    idx1.indexParses && idx1.missing.length === 0,
    `${idx1.listed.length} listed, ${idx1.missing.length} missing${idx1.missing[0] ? ` (e.g. ${idx1.missing[0]})` : ''}; ${idx1.unlisted.length} unlisted files (orphans of killed captures)`,
  )
  const reg1 = registryEntries(sb.bookmarkHome)
  c.check('the registry parses', reg1.parses || !existsSync(join(sb.bookmarkHome, 'registry.json')), `${reg1.entries.length} entries`)
  const leftLocks = a1.flatMap((a) => a.locks)
  const leftTemps = a1.flatMap((a) => a.temps)
  c.figure('tempsFromKills', leftTemps.length)
  c.figure('locksLeft', leftLocks.length)
  c.figure('tempsLeft', leftTemps.length)

  // Plant the locks a killed process leaves: dead owner (pid of a process that has exited), half-written, empty.
  const deadPid = await new Promise((res) => {
    const p = spawn(process.execPath, ['-e', '0'])
    p.on('close', () => res(p.pid))
  })
  // Locks and session state live in the project's folder of the bookmark home.
  const state = stateDir(sb.bookmarkHome, project)
  mkdirSync(join(state, 'cursors'), { recursive: true })
  const owner = (pid) => JSON.stringify({ pid, host: hostname(), nonce: 'deadbeefdeadbeef', at: Date.now() })
  writeFileSync(join(state, 'store.lock'), owner(deadPid), { mode: 0o600 })
  writeFileSync(join(sb.bookmarkHome, 'registry.lock'), '{"pid":', { mode: 0o600 })
  const halfOld = (Date.now() - 5_000) / 1000
  utimesSync(join(sb.bookmarkHome, 'registry.lock'), halfOld, halfOld)
  writeFileSync(join(state, 'cursors', 'recover-0000.lock'), '', { mode: 0o600 })
  utimesSync(join(state, 'cursors', 'recover-0000.lock'), halfOld, halfOld)

  // The next capture (and a Stop hook) succeed, taking over every lock, quickly.
  const next = await runCli(['snapshot', '--transcript', transcript, '--session-id', 'recover-0000', '--cwd', project, '--json'], {
    env,
    cwd: project,
    timeoutMs: 60_000,
  })
  let written = false
  try {
    written = JSON.parse(next.stdout).written === true
  } catch {
    written = false
  }
  const stop = await runCli(['stop'], {
    env,
    cwd: project,
    stdin: JSON.stringify({ session_id: 'recover-0001', transcript_path: transcript, cwd: project, stop_hook_active: true }),
    timeoutMs: 60_000,
  })
  c.check(
    'the next capture succeeds, taking over the locks left behind',
    next.code === 0 && written && stop.code === 0 && !/failed|error/i.test(stop.stderr),
    `snapshot exit ${next.code}, written ${written}, ${Math.round(next.ms)} ms with ${leftLocks.length} locks left by kills + 3 planted (dead owner, half-written, empty); stop hook exit ${stop.code} ${Math.round(stop.ms)} ms${stop.stderr.trim() ? `: ${stop.stderr.trim().split('\n').pop().slice(0, 160)}` : ''}`,
  )
  c.check(
    'lock takeover is quick (< 5 s, not the 30 s age limit)',
    next.ms < 5_000 + typical * 2,
    `${Math.round(next.ms)} ms (a capture takes ~${Math.round(typical)} ms)`,
  )
  const locksAfter = [auditStore(store), auditStore(sb.bookmarkHome)].flatMap((a) => a.locks)
  const stale = locksAfter.filter((l) => ['store.lock', 'registry.lock', 'cursors/recover-0000.lock'].some((n) => l === n || l.endsWith(`/${n}`)))
  c.check('taken-over locks are released', stale.length === 0, stale.join(', ') || 'none of the planted locks remain')

  // What killed writes left behind, once older than the 10-minute orphan age, is swept by the next capture.
  // Besides the real leftovers (how many depends on where the kills fell), one planted in each folder, as a
  // write-file-atomic temp file of a killed process looks: `<target>.<murmur hash>` with a partial body.
  const planted = ['index.json.1111111111', 'LATEST.md.2222222222', 'trails/files.json.3333333333', 'snapshots/SNAP_20261128_100000_000_abcd.json.6666666666']
  const plantedState = ['cursors/recover-0000.json.4444444444', 'sessions/recover-0000.json.5555555555']
  mkdirSync(join(state, 'sessions'), { recursive: true })
  for (const rel of planted) writeFileSync(join(store, rel), '{"version":1,"snap', { mode: 0o600 })
  for (const rel of plantedState) writeFileSync(join(state, rel), '{"version":1,"snap', { mode: 0o600 })
  planted.push(...plantedState.map((rel) => `~/.bookmark/projects/…/${rel}`))
  writeFileSync(join(sb.bookmarkHome, 'registry.json.7777777777'), '{"version":1,"entr', { mode: 0o600 })
  leftTemps.push(...planted, '~/.bookmark/registry.json.7777777777')
  const old = (Date.now() - 11 * 60_000) / 1000
  const aged = [...walk(store), ...walk(sb.bookmarkHome)].filter((e) => e.isFile && (isTempFile(e.path) || e.path.includes('/snapshots/')))
  for (const e of aged) if (isTempFile(e.path) || !indexAudit(project).listed.includes(e.path.split('/').pop().slice(0, -5))) utimesSync(e.path, old, old)
  await runCli(['snapshot', '--transcript', transcript, '--session-id', 'recover-0002', '--cwd', project, '--json'], { env, cwd: project, timeoutMs: 60_000 })
  const a2 = [auditStore(store), auditStore(sb.bookmarkHome)]
  const temps2 = a2.flatMap((a, i) => a.temps.map((t) => (i === 0 ? `.bookmark/${t}` : `~/.bookmark/${t}`)))
  const idx2 = indexAudit(project)
  const byDir = {}
  for (const t of temps2) {
    const d = t.includes('/') ? t.slice(0, t.lastIndexOf('/')) : '.'
    byDir[d] = (byDir[d] ?? 0) + 1
  }
  c.check(
    'no half-written file remains: temp files of killed writes swept (aged past 10 min)',
    temps2.length === 0,
    temps2.length
      ? `${temps2.length} of ${leftTemps.length} (${leftTemps.length - 7} from the kills + 7 planted) remain after the sweep: ${Object.entries(byDir)
          .map(([d, k]) => `${d} ${k}`)
          .join(', ')} (e.g. ${temps2[0]})`
      : `${leftTemps.length} temp files swept`,
  )
  const locks2 = a2.flatMap((a) => a.locks)
  if (locks2.length > 0) c.note(`${locks2.length} lock files of killed captures remain (e.g. ${locks2[0]}); each is taken over when its session captures again`)
  c.check(
    'orphan snapshot files swept (aged past 10 min)',
    idx2.unlisted.length === 0 && idx2.missing.length === 0,
    `${idx2.unlisted.length} unlisted snapshot files remain, ${idx2.missing.length} listed-but-missing`,
  )
  const problems2 = a2.flatMap((a) => a.problems)
  c.check(
    'every stored file parses after recovery',
    problems2.length === 0,
    problems2.slice(0, 3).join(' | ') || `${a2.reduce((k, a) => k + a.parsed, 0)} files parse`,
  )

  const doc = await runDoctor(env, project)
  if (!doc.available) c.skip('doctor reports no store error after recovery', doc.reason)
  else {
    const errs = doc.report.checks.filter((x) => x.status === 'error' && ['storage', 'index', 'registry'].includes(x.id))
    c.check(
      'doctor reports no store error after recovery',
      errs.length === 0,
      errs
        .map((x) => x.message)
        .join(' | ')
        .slice(0, 300) || 'storage, index and registry checks clean',
    )
  }
  return c.result(
    `${killed} captures SIGKILLed at random moments (${kills} launched, ${width} at a time, ${(gen.bytes / 2 ** 20).toFixed(1)} MB transcript, ~${Math.round(typical)} ms per capture)`,
    'stored files parse, index lists only existing snapshots, next capture succeeds, locks recovered, leftovers swept',
  )
}
