/**
 * 1. Concurrency: rounds of hook processes started at once on one project (stop, check, snapshot,
 * precompact and restore mixed; a hot session that many of them share, and seven others).
 * Guarantees: 0 lost snapshots (every capture that must write one did), 0 lost index entries (every
 * snapshot file is listed), 0 unparsable files, the registry lists exactly the project's snapshots,
 * per-session counters lose no update, and the narrative is asked for at most once per session.
 */
import { join } from 'node:path'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { pick } from '../lib/env.mjs'
import { appendTranscript, lines, writeTranscript } from '../lib/gen.mjs'
import { Checks } from '../lib/result.mjs'
import { gitProject, hookOutputProblem, rng, runCli, sandbox } from '../lib/sandbox.mjs'
import { auditStore, indexAudit, readJsonFile, registryEntries } from '../lib/store.mjs'
import { stateDir } from '../lib/state.mjs'

const HOOKS = new Set(['stop', 'precompact', 'check', 'restore'])

export const name = '1 concurrency'

export async function run(ctx) {
  const rounds = pick(ctx, 10, 2)
  const width = pick(ctx, 32, 12)
  const c = new Checks(name)
  const sb = sandbox('conc')
  const project = gitProject(join(sb.dir, 'proj'))
  const env = { ...sb.env, CLAUDE_PROJECT_DIR: project, BOOKMARK_INDEX_CAP: '10000', BOOKMARK_REGISTRY_CAP: '100000', BOOKMARK_INTERVAL: '1440' }
  const tdir = join(sb.dir, 'transcripts')
  mkdirSync(tdir)
  const sessions = Array.from({ length: 8 }, (_, i) => `${String(i).repeat(8)}-0000-4000-8000-${String(i).padStart(12, '0')}`)
  const gens = new Map(sessions.map((s) => [s, lines(s, project)]))
  const tpath = (s) => join(tdir, `${s}.jsonl`)
  for (const s of sessions) writeTranscript(tpath(s), gens.get(s).turn(0, `src/${s.slice(0, 4)}-0.ts`))
  // The check hooks run but are never due (their interval snapshot was just taken): the number of
  // snapshots this run must write is exactly one per stop, snapshot and precompact.
  // Session state lives in the project's folder of the bookmark home (made here with the key, as a first capture would).
  const state = stateDir(sb.bookmarkHome, project)
  mkdirSync(join(state, 'sessions'), { recursive: true, mode: 0o700 })
  for (const s of sessions)
    writeFileSync(
      join(state, 'sessions', `${s}.json`),
      JSON.stringify({ version: 1, sessionId: s, blocks: 0, compactions: 0, lastIntervalSnapshotAt: new Date().toISOString() }),
      { mode: 0o600 },
    )

  const r = rng(1)
  const launched = { stop: 0, snapshot: 0, precompact: 0, check: 0, restore: 0 }
  const skipped = { stop: 0, precompact: 0, check: 0, restore: 0 }
  const compactionsBySession = new Map()
  const blocksBySession = new Map()
  const reportedIds = []
  const failures = []
  let processes = 0
  let maxMs = 0

  for (let round = 1; round <= rounds; round++) {
    // Every session gains a turn, so each Stop has something new to record.
    for (const s of sessions) appendTranscript(tpath(s), gens.get(s).turn(round, `src/${s.slice(0, 4)}-${round}.ts`))
    const jobs = []
    const hot = sessions[0]
    const mix = ['stop', 'stop', 'stop', 'snapshot', 'snapshot', 'precompact', 'check', 'check', 'restore', 'stop']
    for (let i = 0; i < width; i++) {
      // A third of the processes share the hot session; the rest spread over the other seven.
      const sid = i % 3 === 0 ? hot : sessions[1 + (i % 7)]
      jobs.push({ kind: mix[i % mix.length], sid, n: i })
    }
    jobs.sort(() => r() - 0.5)
    const results = await Promise.all(
      jobs.map(async (job) => {
        launched[job.kind]++
        const payload = {
          session_id: job.sid,
          transcript_path: tpath(job.sid),
          cwd: project,
          hook_event_name: job.kind,
          stop_hook_active: false,
          last_assistant_message: `round ${round} process ${job.n}: reply for ${job.sid.slice(0, 4)}`,
          source: ['startup', 'compact', 'resume'][job.n % 3],
          trigger: 'auto',
          prompt: 'go on',
        }
        const args = job.kind === 'snapshot' ? ['snapshot', '--transcript', tpath(job.sid), '--session-id', job.sid, '--cwd', project, '--json'] : [job.kind]
        const res = await runCli(args, { env, cwd: project, stdin: job.kind === 'snapshot' ? undefined : JSON.stringify(payload), timeoutMs: 60_000 })
        return { job, res }
      }),
    )
    for (const { job, res } of results) {
      processes++
      maxMs = Math.max(maxMs, res.ms)
      if (res.code !== 0) failures.push(`${job.kind} exit ${res.code}${res.timedOut ? ' (killed after 60 s)' : ''}: ${res.stderr.trim().split('\n').pop()}`)
      // A hook answers within 2 s: one that could not have the lock in time skips its capture (logged); the next reads on.
      const skippedCapture = HOOKS.has(job.kind) && /hook failed: could not take the lock .* this capture was skipped/.test(res.stderr)
      if (skippedCapture) skipped[job.kind]++
      else if (/hook failed|hook error|unexpected error/.test(res.stderr))
        failures.push(
          `${job.kind}: ${res.stderr
            .trim()
            .split('\n')
            .find((l) => /failed|error/.test(l))
            ?.slice(0, 200)}`,
        )
      if (job.kind === 'precompact' && !skippedCapture) compactionsBySession.set(job.sid, (compactionsBySession.get(job.sid) ?? 0) + 1)
      if (job.kind === 'snapshot') {
        try {
          const out = JSON.parse(res.stdout)
          if (out.snapshotId) reportedIds.push(out.snapshotId)
          else failures.push(`snapshot wrote nothing: ${out.reason}`)
        } catch {
          failures.push(`snapshot --json printed no JSON: ${res.stdout.slice(0, 100)}`)
        }
      } else {
        const p = hookOutputProblem(job.kind, res.stdout)
        if (p) failures.push(p)
        if (job.kind === 'stop' && res.stdout.includes('"block"')) blocksBySession.set(job.sid, (blocksBySession.get(job.sid) ?? 0) + 1)
      }
    }
  }

  // What the skipped captures did not read, a later capture of the session reads (nothing is lost): one quiet Stop each.
  for (const s of sessions) {
    const res = await runCli(['stop'], {
      env,
      cwd: project,
      stdin: JSON.stringify({ session_id: s, transcript_path: tpath(s), cwd: project, hook_event_name: 'Stop', stop_hook_active: true }),
      timeoutMs: 60_000,
    })
    if (/hook failed/.test(res.stderr)) failures.push(`final stop: ${res.stderr.trim().slice(0, 200)}`)
  }
  c.check(
    'every process exits 0 with valid output and no logged failure but a skipped capture',
    failures.length === 0,
    failures.length
      ? `${failures.length} problems; first: ${failures.slice(0, 3).join(' | ')}`
      : `${processes} processes, slowest ${Math.round(maxMs)} ms; captures skipped for a busy lock: stop ${skipped.stop}, precompact ${skipped.precompact}, check ${skipped.check}`,
  )

  // Every snapshot written is in the registry once (its cap is far above what this run writes).
  const store = join(project, '.bookmark')
  const reg = registryEntries(sb.bookmarkHome)
  const mine = reg.entries.filter((e) => e.project === project).map((e) => e.snapshotId)
  const regSet = new Set(mine)
  const expected = launched.stop - skipped.stop + launched.snapshot + launched.precompact - skipped.precompact
  const reportedMissing = reportedIds.filter((id) => !regSet.has(id))
  // The quiet Stops after the rounds write one snapshot for a session whose last capture was skipped, at most.
  c.check(
    '0 lost snapshots',
    reg.parses && regSet.size >= expected && regSet.size <= expected + sessions.length && reportedMissing.length === 0,
    `${regSet.size} registered of ${expected} written (stop ${launched.stop} - ${skipped.stop} skipped, snapshot ${launched.snapshot}, precompact ${launched.precompact} - ${skipped.precompact} skipped, and the quiet Stops); snapshot --json ids not registered: ${reportedMissing.length}`,
  )
  const sortedReg = reg.entries.every((e, i) => i === 0 || reg.entries[i - 1].seq > e.seq)
  c.check(
    'registry consistent',
    reg.parses && regSet.size === mine.length && sortedReg,
    `${mine.length} entries for the project, duplicates ${mine.length - regSet.size}, newest first: ${sortedReg}`,
  )

  // The index is the newest part of everything written, and lists exactly the snapshot files on disk.
  const idx = indexAudit(project)
  const all = [...regSet]
  const prefix = all.slice(0, idx.listed.length)
  const notPrefix = prefix.filter((id) => !idx.listed.includes(id))
  c.check(
    '0 lost index entries',
    idx.indexParses && idx.unlisted.length === 0 && idx.missing.length === 0 && notPrefix.length === 0 && idx.duplicates === 0 && idx.sorted,
    `${idx.listed.length} listed (the newest of ${all.length} written), ${idx.onDisk.length} files; unlisted ${idx.unlisted.length}, listed-but-missing ${idx.missing.length}, newer snapshots missing from the index ${notPrefix.length}, duplicates ${idx.duplicates}`,
  )

  const audits = [auditStore(store), auditStore(sb.bookmarkHome)]
  const problems = audits.flatMap((a) => a.problems)
  const leftovers = audits.flatMap((a) => [...a.temps, ...a.locks])
  c.check(
    '0 unparsable files',
    problems.length === 0,
    problems.length ? problems.slice(0, 3).join(' | ') : `${audits.reduce((n, a) => n + a.parsed, 0)} files parse`,
  )
  c.check('no temp or lock file left after all processes ended', leftovers.length === 0, leftovers.slice(0, 5).join(', ') || 'none')

  // Read-modify-write under the session lock: no lost update of the per-session counters.
  const counterProblems = []
  for (const [sid, n] of compactionsBySession) {
    const h = readJsonFile(join(state, 'sessions', `${sid}.json`))
    if (h?.compactions !== n) counterProblems.push(`${sid.slice(0, 8)}: compactions ${h?.compactions} after ${n} precompact hooks`)
  }
  for (const sid of sessions) {
    const h = readJsonFile(join(state, 'sessions', `${sid}.json`))
    const printed = blocksBySession.get(sid) ?? 0
    if ((h?.blocks ?? 0) !== printed) counterProblems.push(`${sid.slice(0, 8)}: blocks counter ${h?.blocks ?? 0}, blocks printed ${printed}`)
  }
  c.check(
    'per-session counters lose no update',
    counterProblems.length === 0,
    counterProblems.slice(0, 3).join(' | ') || `compactions of ${compactionsBySession.size} sessions match their precompact hooks`,
  )
  const overBlocked = [...blocksBySession].filter(([, n]) => n > 1)
  c.check(
    'at most maxNarrativeBlocks (1) Stop block per session',
    overBlocked.length === 0,
    overBlocked.length ? overBlocked.map(([s, n]) => `${s.slice(0, 8)} blocked ${n} times`).join(', ') : `${blocksBySession.size} sessions blocked once`,
  )

  // Each session's cursor read each transcript byte once (no capture re-read what another had consumed).
  const reread = []
  for (const s of sessions) {
    const cur = readJsonFile(join(state, 'cursors', `${s}.json`))
    const size = readFileSync(tpath(s)).length
    if (!cur) continue
    const offset = cur.cursor?.offset
    if (cur.bytesReadTotal !== offset || offset > size)
      reread.push(`${s.slice(0, 8)}: read ${cur.bytesReadTotal} bytes in total for a cursor at ${offset} of ${size}`)
  }
  c.check(
    'cursors: every transcript byte read exactly once',
    reread.length === 0,
    reread.slice(0, 3).join(' | ') || `${sessions.length} cursors: bytes read = cursor offset`,
  )
  c.figure('processes', processes)
  c.figure('snapshots', idx.onDisk.length)
  c.figure('slowestMs', Math.round(maxMs))
  if (readdirSync(store).includes('bookmark.context.md')) c.note('a bookmark.context.md exists (unexpected: nothing wrote one)')
  await capsHonoured(c)
  return c.result(
    `${rounds} rounds x ${width} processes at once (stop/check/snapshot/precompact/restore), 8 sessions, 1 hot`,
    '0 lost snapshots and index entries, 0 unparsable files, registry = index, counters, <=1 block/session',
  )
}

/**
 * The caps come from the configuration for every writer (pitfalls: "caps hard-coded and disagreeing with the
 * config"), and pruning keeps the registry true: it lists no snapshot whose file was deleted.
 */
async function capsHonoured(c) {
  const sb = sandbox('caps')
  const project = gitProject(join(sb.dir, 'proj'))
  const env = { ...sb.env, BOOKMARK_INDEX_CAP: '3' }
  const sid = 'caps0000-0000-4000-8000-000000000000'
  const t = join(sb.dir, `${sid}.jsonl`)
  const g = lines(sid, project)
  writeTranscript(t, g.turn(1, 'src/a.ts'))
  for (let i = 0; i < 4; i++) await runCli(['snapshot', '--transcript', t, '--cwd', project, '--json'], { env, cwd: project, timeoutMs: 30_000 })
  const afterCli = indexAudit(project)
  for (let i = 0; i < 2; i++) {
    appendTranscript(t, g.turn(10 + i, `src/b${i}.ts`))
    await runCli(['precompact'], {
      env,
      cwd: project,
      stdin: JSON.stringify({ session_id: sid, transcript_path: t, cwd: project, hook_event_name: 'PreCompact', trigger: 'auto' }),
      timeoutMs: 30_000,
    })
  }
  const afterHooks = indexAudit(project)
  c.check(
    'indexCap (BOOKMARK_INDEX_CAP=3) honoured by `bookmark snapshot` and the hooks',
    afterCli.listed.length === 3 && afterCli.onDisk.length === 3 && afterHooks.listed.length === 3 && afterHooks.onDisk.length === 3,
    `after 4 \`bookmark snapshot\`: ${afterCli.listed.length} listed, ${afterCli.onDisk.length} files; after 2 more precompact hooks: ${afterHooks.listed.length} listed, ${afterHooks.onDisk.length} files`,
  )
  const reg = registryEntries(sb.bookmarkHome).entries.filter((e) => e.project === project)
  const dangling = reg.filter((e) => !afterHooks.onDisk.includes(e.snapshotId))
  c.check(
    'registry lists no pruned snapshot',
    dangling.length === 0,
    `${reg.length} registry entries for the project, ${dangling.length} name snapshot files that pruning deleted${dangling[0] ? ` (e.g. ${dangling[0].snapshotId})` : ''}`,
  )
}
