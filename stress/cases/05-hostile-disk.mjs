/**
 * 5. Hostile disk: the project on a small tmpfs that is full, or has only a few KB left at each step of a
 * sweep (so a capture runs out of space at a different file each time); ~/.bookmark on a full tmpfs; and
 * `.bookmark/` and ~/.bookmark bind-mounted read-only. Needs root (mount); otherwise the read-only part uses
 * chmod and the rest is SKIPPED with the reason.
 * Guarantees: hooks exit 0 with valid output, nothing half-written remains (no temp file, every file parses,
 * the previous index and LATEST.md survive intact, the index lists only existing snapshots), and
 * `bookmark doctor` reports the problem.
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, closeSync, existsSync, ftruncateSync, fstatSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { pick } from '../lib/env.mjs'
import { runDoctor } from '../lib/doctor.mjs'
import { appendTranscript, lines, writeTranscript } from '../lib/gen.mjs'
import { Checks } from '../lib/result.mjs'
import { gitProject, hookOutputProblem, runCli, sandbox } from '../lib/sandbox.mjs'
import { auditStore, indexAudit } from '../lib/store.mjs'

export const name = '5 hostile disk'

const mounts = []

function mountTmpfs(dir, kb) {
  mkdirSync(dir, { recursive: true })
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kb}k,mode=0755`, 'tmpfs', dir], { stdio: 'pipe' })
  mounts.push(dir)
}

function bindReadOnly(dir) {
  execFileSync('mount', ['--bind', dir, dir], { stdio: 'pipe' })
  mounts.push(dir)
  execFileSync('mount', ['-o', 'remount,bind,ro', dir], { stdio: 'pipe' })
}

function unmountAll() {
  for (const d of mounts.splice(0).reverse()) {
    try {
      execFileSync('umount', [d], { stdio: 'pipe' })
    } catch {
      try {
        execFileSync('umount', ['-l', d], { stdio: 'pipe' })
      } catch {
        // left mounted: said in the result
      }
    }
  }
}

function canMount(dir) {
  try {
    mountTmpfs(dir, 64)
    unmountAll()
    return { ok: true }
  } catch (e) {
    return {
      ok: false,
      reason: `mount -t tmpfs failed (${
        String(e.stderr ?? e.message)
          .trim()
          .split('\n')[0]
      }); run as root for the ENOSPC part`,
    }
  }
}

/** Fills the file system of `dir` with a filler file, then frees `leaveBytes` of it. Returns the filler path. */
function fill(dir, leaveBytes) {
  const filler = join(dir, 'filler.bin')
  const fd = openSync(filler, 'a')
  const chunk = Buffer.alloc(64 * 1024, 0x61)
  try {
    for (;;) {
      try {
        writeSync(fd, chunk)
      } catch (e) {
        if (e.code !== 'ENOSPC') throw e
        break
      }
    }
    // the last partial block: smaller writes until nothing fits
    for (let n = 32 * 1024; n >= 512; n >>= 1) {
      try {
        for (;;) writeSync(fd, chunk, 0, n)
      } catch (e) {
        if (e.code !== 'ENOSPC') throw e
      }
    }
    const size = fstatSync(fd).size
    ftruncateSync(fd, Math.max(0, size - leaveBytes))
  } finally {
    closeSync(fd)
  }
  return filler
}

function snapshotState(project) {
  const read = (p) => (existsSync(p) ? readFileSync(p, 'utf8') : undefined)
  return { index: read(join(project, '.bookmark', 'index.json')), latest: read(join(project, '.bookmark', 'LATEST.md')) }
}

export async function run(ctx) {
  const sweepLevels = pick(ctx, [0, 2, 4, 6, 8, 12, 16, 20, 24, 32, 40, 48, 64, 96, 128], [0, 8, 24])
  const c = new Checks(name)
  const sb = sandbox('disk')
  const isRoot = process.getuid?.() === 0
  const probe = canMount(join(sb.dir, 'probe'))
  const hookProblems = []
  const halfWritten = []
  const intactProblems = []
  let hookRuns = 0
  let failedWrites = 0
  let slowest = 0

  const hook = async (env, project, t, sid, kind, extra = {}) => {
    const payload = JSON.stringify({
      session_id: sid,
      transcript_path: t,
      cwd: project,
      hook_event_name: kind,
      stop_hook_active: true,
      source: 'startup',
      prompt: 'go on',
      trigger: 'auto',
      ...extra,
    })
    const res = await runCli([kind], { env, cwd: project, stdin: payload, timeoutMs: 30_000 })
    hookRuns++
    slowest = Math.max(slowest, res.ms)
    if (res.code !== 0) hookProblems.push(`${kind}: exit ${res.code}`)
    const p = hookOutputProblem(kind, res.stdout)
    if (p) hookProblems.push(`${kind}: ${p}`)
    if (/hook failed/.test(res.stderr)) failedWrites++
    return res
  }
  // Each problem is reported once, by the step that caused it (later steps see it too).
  const seen = new Set()
  const audit = (label, project, home) => {
    const found = []
    for (const [where, dir] of [
      ['.bookmark', join(project, '.bookmark')],
      ['~/.bookmark', home],
    ]) {
      const a = auditStore(dir)
      for (const t of a.temps) found.push(`temp file ${where}/${t}`)
      for (const l of a.locks) found.push(`lock file left behind ${where}/${l}`)
      for (const p of a.problems) found.push(`${where}/${p}`)
    }
    for (const id of indexAudit(project).missing) found.push(`index lists missing ${id}`)
    for (const f of found) {
      if (seen.has(f)) continue
      seen.add(f)
      halfWritten.push(`${label}: ${f}`)
    }
  }
  const doctorReports = async (label, env, project, pattern) => {
    const doc = await runDoctor(env, project)
    if (!doc.available) return { skipped: doc.reason }
    const hit = doc.report.checks.find((x) => (x.status === 'error' || x.status === 'warn') && pattern.test(`${x.message} ${x.fix ?? ''}`))
    return {
      ok: hit !== undefined,
      info: hit
        ? `${label}: doctor ${hit.status} "${hit.message.slice(0, 140)}"`
        : `${label}: doctor says nothing matching ${pattern} (${
            doc.report.checks
              .filter((x) => x.status !== 'ok' && x.status !== 'info')
              .map((x) => `${x.status} ${x.id}: ${x.message.slice(0, 80)}`)
              .join('; ') || 'all ok'
          })`,
    }
  }
  const doctorResults = []

  try {
    if (!probe.ok) {
      c.skip('ENOSPC: project disk full', probe.reason)
      c.skip('ENOSPC sweep', probe.reason)
      c.skip('ENOSPC: ~/.bookmark full', probe.reason)
    } else {
      // --- the project's disk is full, after one good capture ---
      const disk = join(sb.dir, 'disk')
      mountTmpfs(disk, pick(ctx, 2048, 1024))
      const project = gitProject(join(disk, 'proj'))
      const env = { ...sb.env, CLAUDE_PROJECT_DIR: project }
      const sid = 'disk0000-0000-4000-8000-000000000000'
      const t = join(sb.dir, `${sid}.jsonl`)
      const g = lines(sid, project)
      const turns = []
      for (let i = 0; i < 30; i++) turns.push(...g.turn(i, `src/m${i}.ts`, `export const x${i} = ${i}\n`.repeat(40)))
      writeTranscript(t, turns)
      await hook(env, project, t, sid, 'stop')
      const before = snapshotState(project)
      const filler = fill(disk, 0)
      let n = 100
      for (const kind of ['stop', 'precompact', 'check', 'restore']) {
        appendTranscript(t, g.turn(n++, `src/full${n}.ts`))
        await hook(env, project, t, sid, kind, { last_assistant_message: `reply ${n}` })
      }
      const cli = await runCli(['snapshot', '--transcript', t, '--cwd', project, '--json'], { env, cwd: project, timeoutMs: 30_000 })
      const cliLines = cli.stderr.split('\n').filter(Boolean)
      c.check(
        '`bookmark snapshot` on a full disk: exit 1 with a one-line error',
        cli.code === 1 && cliLines.length === 1,
        `exit ${cli.code}, ${cliLines.length} stderr lines: ${cliLines[0]?.slice(0, 160)}`,
      )
      audit('full disk', project, sb.bookmarkHome)
      const after = snapshotState(project)
      if (after.index !== before.index) intactProblems.push('full disk: index.json changed or was lost')
      if (after.latest !== before.latest) intactProblems.push('full disk: LATEST.md changed or was lost')
      c.check(
        'ENOSPC: project disk full',
        hookProblems.length === 0 && halfWritten.length === 0 && intactProblems.length === 0,
        [...hookProblems, ...halfWritten, ...intactProblems].slice(0, 3).join(' | ') ||
          '4 hooks exit 0 with valid output; previous index and LATEST.md intact; no temp file',
      )
      doctorResults.push(await doctorReports('project disk full', env, project, /ENOSPC|no space|disk (is )?full|not writable/i))

      // --- the sweep: a few KB left at each step, so each capture fails at another file ---
      rmSync(filler)
      const sweepStart = hookProblems.length + halfWritten.length
      let step = 0
      for (const kb of sweepLevels) {
        step++
        appendTranscript(t, g.turn(200 + step, `src/sweep${step}.ts`, `export const s${step} = 1\n`.repeat(200)))
        const f = fill(disk, kb * 1024)
        await hook(env, project, t, sid, step % 3 === 0 ? 'precompact' : 'stop', { last_assistant_message: `sweep ${step}` })
        audit(`${kb} KB free`, project, sb.bookmarkHome)
        rmSync(f)
      }
      // and with space again: the next capture works and the store is whole
      appendTranscript(t, g.turn(300, 'src/after.ts'))
      await hook(env, project, t, sid, 'precompact')
      audit('space again', project, sb.bookmarkHome)
      const idx = indexAudit(project)
      const sweepBad = [...hookProblems, ...halfWritten].slice(sweepStart)
      c.check(
        `ENOSPC sweep (${sweepLevels.length} levels, ${sweepLevels[0]}-${sweepLevels[sweepLevels.length - 1]} KB free)`,
        sweepBad.length === 0 && idx.unlisted.length === 0,
        sweepBad.slice(0, 3).join(' | ') ||
          `every step: hook exit 0, valid output, no temp file, every file parses, index = files (${idx.listed.length}); a capture with space again succeeds`,
      )

      // --- ~/.bookmark full (a fresh project on the ordinary disk, so nothing else is there to report) ---
      const homeDisk = join(sb.dir, 'homedisk')
      mountTmpfs(homeDisk, 512)
      const home2 = join(homeDisk, '.bookmark')
      const project2 = gitProject(join(sb.dir, 'proj-home-full'))
      const env2 = { ...sb.env, CLAUDE_PROJECT_DIR: project2, BOOKMARK_HOME: home2 }
      const sid2 = 'home0000-0000-4000-8000-000000000000'
      const t2 = join(sb.dir, `${sid2}.jsonl`)
      const g2 = lines(sid2, project2)
      writeTranscript(t2, g2.turn(1, 'src/a.ts'))
      await hook(env2, project2, t2, sid2, 'precompact')
      const regBefore = existsSync(join(home2, 'registry.json')) ? readFileSync(join(home2, 'registry.json'), 'utf8') : undefined
      const f2 = fill(homeDisk, 0)
      const startHome = hookProblems.length + halfWritten.length
      appendTranscript(t2, g2.turn(2, 'src/homefull.ts'))
      const r2 = await hook(env2, project2, t2, sid2, 'precompact')
      appendTranscript(t2, g2.turn(3, 'src/homefull2.ts'))
      await hook(env2, project2, t2, sid2, 'stop', { last_assistant_message: 'home full' })
      await hook(env2, project2, t2, sid2, 'restore')
      audit('home full', project2, home2)
      const regAfter = existsSync(join(home2, 'registry.json')) ? readFileSync(join(home2, 'registry.json'), 'utf8') : undefined
      const homeBad = [...hookProblems, ...halfWritten].slice(startHome)
      if (regAfter !== regBefore) homeBad.push('registry.json changed while its disk was full')
      c.check(
        'ENOSPC: ~/.bookmark full',
        homeBad.length === 0,
        homeBad.slice(0, 3).join(' | ') ||
          `hooks exit 0 with valid output, registry intact, no temp file (stderr: ${r2.stderr.trim().split('\n').slice(0, 2).join(' / ').slice(0, 160) || 'nothing'})`,
      )
      doctorResults.push(await doctorReports('~/.bookmark full', env2, project2, /ENOSPC|no space|disk (is )?full|registry not updated|not writable/i))
      rmSync(f2)
      unmountAll()
    }

    // --- read-only .bookmark/ and ~/.bookmark ---
    const roBase = join(sb.dir, 'ro')
    const project = gitProject(join(roBase, 'proj'))
    const home = join(roBase, 'home', '.bookmark')
    const env = { ...sb.env, CLAUDE_PROJECT_DIR: project, BOOKMARK_HOME: home }
    const sid = 'ro000000-0000-4000-8000-000000000000'
    const t = join(sb.dir, `${sid}.jsonl`)
    const g = lines(sid, project)
    writeTranscript(t, g.turn(1, 'src/a.ts'))
    await hook(env, project, t, sid, 'stop')
    const before = snapshotState(project)
    const how = probe.ok ? 'read-only bind mount' : isRoot ? undefined : 'chmod 0500'
    if (!how) {
      c.skip('read-only .bookmark/', 'running as root without mount: chmod cannot make a folder read-only for root')
    } else {
      const store = join(project, '.bookmark')
      if (probe.ok) bindReadOnly(store)
      else chmodSync(store, 0o500)
      const start = hookProblems.length + halfWritten.length
      let k = 10
      for (const kind of ['stop', 'precompact', 'check', 'restore']) {
        appendTranscript(t, g.turn(k++, `src/ro${k}.ts`))
        await hook(env, project, t, sid, kind, { last_assistant_message: `ro ${k}` })
      }
      audit('read-only .bookmark', project, home)
      const after = snapshotState(project)
      const bad = [...hookProblems, ...halfWritten].slice(start)
      if (after.index !== before.index || after.latest !== before.latest) bad.push('index.json or LATEST.md changed')
      c.check(`read-only .bookmark/ (${how})`, bad.length === 0, bad.slice(0, 3).join(' | ') || '4 hooks exit 0 with valid output, nothing changed')
      doctorResults.push(await doctorReports('read-only .bookmark', env, project, /not writable|read-only|EROFS|EACCES/i))
      if (probe.ok) unmountAll()
      else chmodSync(store, 0o700)

      if (probe.ok) bindReadOnly(home)
      else chmodSync(home, 0o500)
      const start2 = hookProblems.length + halfWritten.length
      appendTranscript(t, g.turn(50, 'src/rohome.ts'))
      const r3 = await hook(env, project, t, sid, 'precompact')
      await hook(env, project, t, sid, 'restore')
      audit('read-only ~/.bookmark', project, home)
      const bad2 = [...hookProblems, ...halfWritten].slice(start2)
      c.check(
        `read-only ~/.bookmark (${how})`,
        bad2.length === 0,
        bad2.slice(0, 3).join(' | ') ||
          `hooks exit 0 with valid output (stderr: ${r3.stderr.trim().split('\n').slice(0, 2).join(' / ').slice(0, 160) || 'nothing'})`,
      )
      doctorResults.push(await doctorReports('read-only ~/.bookmark', env, project, /not writable|read-only|EROFS|EACCES/i))
      if (probe.ok) unmountAll()
      else chmodSync(home, 0o700)
    }
  } finally {
    unmountAll()
  }

  const skipped = doctorResults.find((d) => d.skipped)
  if (skipped) c.skip('the error is reported by doctor', skipped.skipped)
  else if (doctorResults.length > 0) {
    const missing = doctorResults.filter((d) => !d.ok)
    c.check('the error is reported by doctor', missing.length === 0, doctorResults.map((d) => `${d.ok ? '' : 'NOT REPORTED: '}${d.info}`).join(' | '))
  }
  c.figure('hookRuns', hookRuns)
  c.figure('failedCaptures', failedWrites)
  c.figure('slowestHookMs', Math.round(slowest))
  return c.result(
    `${probe.ok ? `tmpfs: project disk full + ${sweepLevels.length}-step sweep of free space, ~/.bookmark full; ` : ''}read-only .bookmark/ and ~/.bookmark${probe.ok ? ' (bind mounts)' : ''}; ${hookRuns} hook runs`,
    'hooks exit 0 with valid output, nothing half-written, previous state intact, doctor reports it',
  )
}
