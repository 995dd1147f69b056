/**
 * 4. Hostile stdin: malformed hook payloads on each of the four hooks: empty, not JSON, binary, wrong types,
 * missing fields, paths that do not exist, `..` paths, special files (FIFO, /dev/zero, a directory),
 * prototype keys, oversized (17 MB) and deeply nested payloads, and pipes that never close or drip slowly.
 * Guarantees: 0 non-zero exits, 0 hangs over 2 s, always valid output (nothing, or the hook's JSON shape),
 * no internal error (TypeError...) behind the exit 0, and no folder created for a working directory that
 * does not exist.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { pick } from '../lib/env.mjs'
import { lines, writeTranscript } from '../lib/gen.mjs'
import { Checks } from '../lib/result.mjs'
import { gitProject, hookOutputProblem, pool, rng, runCli, sandbox, spawnCli } from '../lib/sandbox.mjs'
import { walk } from '../lib/store.mjs'

export const name = '4 hostile stdin'

const HOOKS = ['stop', 'precompact', 'check', 'restore']
const HANG_MS = 2_000
const HEAVY = new Set(['oversized (17 MB)', 'big valid (8 MB message)', 'deep nesting', 'deep nesting (valid)'])

/** Payload families; each returns `{label, stdin}` where stdin is a string, a Buffer or `{open, data?, drip?}`. */
function families(w) {
  const { project, transcript, sid, dir, home, fifo } = w
  const ok = { session_id: sid, transcript_path: transcript, cwd: project, hook_event_name: 'Stop', source: 'startup', prompt: 'go on', stop_hook_active: true }
  const wrong = [42, -1, 1e308, true, false, null, [], ['x'], {}, { a: 1 }, '', ' ', '\u0000']
  const fields = ['session_id', 'transcript_path', 'cwd', 'stop_hook_active', 'source', 'last_assistant_message', 'prompt', 'trigger', 'hook_event_name']
  const J = (v) => JSON.stringify(v)
  return [
    // nothing or not JSON
    (r) => ({ label: 'empty', stdin: '' }),
    (r) => ({ label: 'whitespace', stdin: r.pick([' ', '\n', '\t\r\n  ', '\ufeff']) }),
    (r) => ({
      label: 'not json',
      stdin: r.pick([
        'not json',
        '{',
        '}',
        '{"session_id":',
        'undefined',
        'NaN',
        "{'a':1}",
        '{"a":1,}',
        '<xml/>',
        'SELECT 1;',
        '{"a":1}{"b":2}',
        '\u0000\u0000',
      ]),
    }),
    (r) => ({ label: 'binary', stdin: Buffer.from(Array.from({ length: 1 + r.int(4096) }, () => r.int(256))) }),
    (r) => ({
      label: 'invalid utf-8',
      stdin: Buffer.concat([
        Buffer.from('{"session_id":"'),
        Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
        Buffer.from(`","cwd":${J(project)},"transcript_path":${J(transcript)}}`),
      ]),
    }),
    (r) => ({ label: 'json non-object', stdin: r.pick(['null', '42', '"str"', '[]', '[1,2]', 'true', J([ok])]) }),
    // wrong types and missing fields
    (r) => {
      const p = { ...ok }
      for (let i = 0; i < 1 + r.int(3); i++) p[r.pick(fields)] = r.pick(wrong)
      return { label: 'wrong types', stdin: J(p) }
    },
    (r) => {
      const p = { ...ok }
      for (const f of fields) if (r() < 0.5) delete p[f]
      return { label: 'missing fields', stdin: J(p) }
    },
    // paths that do not exist, `..`, special files
    (r) => ({
      label: 'nonexistent transcript',
      stdin: J({ ...ok, transcript_path: r.pick([join(dir, 'does/not/exist.jsonl'), join(dir, 'nope.jsonl'), 'relative/nope.jsonl', '']) }),
    }),
    (r) => ({
      label: 'nonexistent cwd',
      stdin: J({ ...ok, cwd: r.pick([join(dir, 'does/not/exist'), join(dir, 'nonexistent', 'deeper'), join(dir, 'nonexistent')]) }),
    }),
    (r) => ({
      label: 'nonexistent cwd, real transcript',
      stdin: J({ ...ok, session_id: `ghost-${r.int(1e6)}`, stop_hook_active: true, cwd: join(dir, 'nonexistent', `cwd${r.int(100)}`) }),
    }),
    (r) => ({
      label: 'dot-dot paths',
      stdin: J({
        ...ok,
        transcript_path: r.pick(['../../../../etc/passwd', `${project}/../../../../etc/passwd`, `${project}/../${transcript.split('/').pop()}`]),
        cwd: r.pick(['..', '../..', `${project}/../..`, `${project}/./src/../..`, '/..']),
      }),
    }),
    (r) => ({
      label: 'dot-dot session id',
      stdin: J({
        ...ok,
        session_id: r.pick(['../../../outside/evil', '..', '/etc/passwd', 'a/b\\c', '.bookmark', 'x'.repeat(10_000), 'CON', 'nul\u0000byte', '\n']),
      }),
    }),
    (r) => {
      const t = r.pick(['/dev/zero', '/dev/urandom', '/dev/stdin', '/proc/self/status', dir, fifo, project])
      return { label: 'special files', detail: t === fifo ? 'a FIFO' : t === dir || t === project ? 'a directory' : t, stdin: J({ ...ok, transcript_path: t }) }
    },
    (r) => {
      const t = r.pick([transcript, '/dev/null', fifo])
      return { label: 'cwd is a file', detail: t === fifo ? 'a FIFO' : t === transcript ? 'the transcript' : t, stdin: J({ ...ok, cwd: t }) }
    },
    (r) => ({ label: 'home or root cwd', stdin: J({ ...ok, cwd: r.pick([home, '/', '~', '$HOME']) }) }),
    (r) => ({
      label: 'NUL and huge strings in paths',
      stdin: J({
        ...ok,
        cwd: r.pick([`${project}\u0000/x`, 'a'.repeat(100_000), `${project}/${'a/'.repeat(3000)}`]),
        transcript_path: r.pick([`${transcript}\u0000`, transcript, 'b'.repeat(5000)]),
      }),
    }),
    (r) => ({
      label: 'prototype keys',
      stdin: r.pick([
        `{"__proto__":{"cwd":"/etc","session_id":"x"},"cwd":${J(project)}}`,
        `{"constructor":{"prototype":{"cwd":"/"}},"transcript_path":${J(transcript)}}`,
        `{"__proto__":null}`,
        J({ ...ok, session_id: '__proto__' }),
        J({ ...ok, session_id: 'constructor' }),
      ]),
    }),
    (r) => ({ label: 'deep nesting', stdin: `{"session_id":${'['.repeat(r.pick([1000, 100_000]))}${']'.repeat(1)}` }),
    (r) => ({ label: 'deep nesting (valid)', stdin: `{"cwd":${J(project)},"x":${'['.repeat(50_000)}${']'.repeat(50_000)}}` }),
    (r) => ({
      label: 'oversized (17 MB)',
      stdin: `{"session_id":${J(sid)},"transcript_path":${J(transcript)},"cwd":${J(project)},"last_assistant_message":"${'x'.repeat(17 * 2 ** 20)}"}`,
    }),
    (r) => ({ label: 'big valid (8 MB message)', stdin: J({ ...ok, stop_hook_active: true, last_assistant_message: 'y'.repeat(8 * 2 ** 20) }) }),
    // pipes that stay open
    (r) => ({ label: 'pipe never closes (no data)', stdin: { open: true } }),
    (r) => ({ label: 'pipe never closes (partial JSON)', stdin: { open: true, data: '{"session_id":"abc","cwd":' } }),
    (r) => ({ label: 'pipe never closes (whole payload)', stdin: { open: true, data: J(ok) } }),
    (r) => ({ label: 'slow drip', stdin: { open: true, drip: J(ok) } }),
    // a few valid payloads as a control
    (r) => ({ label: 'valid (control)', stdin: J({ ...ok, stop_hook_active: r() < 0.5, last_assistant_message: `reply ${r.int(1e6)}` }) }),
  ]
}

async function runPayload(hook, p, env, cwd) {
  if (p.stdin && typeof p.stdin === 'object' && !Buffer.isBuffer(p.stdin) && p.stdin.drip) {
    // one byte every 100 ms, never closed: the hook must decide within its second anyway
    const h = spawnCli([hook], { env, cwd, stdin: { open: true }, timeoutMs: 5_000 })
    const text = p.stdin.drip
    let i = 0
    const t = setInterval(() => {
      if (i < text.length && h.child.stdin.writable) h.child.stdin.write(text[i++])
    }, 100)
    const res = await h.done
    clearInterval(t)
    return res
  }
  return runCli([hook], { env, cwd, stdin: p.stdin, timeoutMs: 5_000 })
}

export async function run(ctx) {
  const variants = pick(ctx, 250, 27)
  const c = new Checks(name)
  const sb = sandbox('stdin')
  // Everything a payload names, `..` included, stays inside the sandbox: the project and HOME sit three
  // levels down, and "paths that do not exist" are inside it too (the hooks run as whatever user runs this).
  const base = join(sb.dir, 'n1', 'n2', 'n3')
  const home = join(base, 'home')
  mkdirSync(home, { recursive: true })
  const project = gitProject(join(base, 'proj'))
  const sid = 'stdin000-0000-4000-8000-000000000000'
  const transcript = join(sb.dir, `${sid}.jsonl`)
  const g = lines(sid, project)
  writeTranscript(transcript, [...g.turn(1, 'src/a.ts'), ...g.turn(2, 'src/b.ts')])
  const fifo = join(sb.dir, 'fifo')
  execFileSync('mkfifo', [fifo])
  const env = { ...sb.env, HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude'), BOOKMARK_HOME: join(home, '.bookmark'), CLAUDE_PROJECT_DIR: project }
  const fams = families({ project, transcript, sid, dir: sb.dir, base, home, fifo })
  const r = rng(4)
  const runs = []
  const hooksPer = pick(ctx, 4, 1)
  for (let i = 0; i < variants; i++) {
    // every family at least once, then at random; full: each payload on all four hooks, quick: one hook in turn
    let p = (i < fams.length ? fams[i] : r.pick(fams))(r)
    // the megabyte payloads are a few percent of the random picks, not one in 27 (time, not coverage)
    while (i >= fams.length && HEAVY.has(p.label) && r() < 0.8) p = r.pick(fams)(r)
    const hooks = hooksPer === 4 ? HOOKS : [HOOKS[i % 4]]
    for (const hook of hooks) runs.push({ hook, p, cwd: r() < 0.7 ? project : r() < 0.5 ? home : base })
  }
  const rootBookmarkBefore = existsSync('/.bookmark')
  const results = await pool(runs, 3, async (x) => ({ ...x, res: await runPayload(x.hook, x.p, env, x.cwd) }))

  const nonZero = results.filter((x) => x.res.code !== 0)
  c.check(
    '0 non-zero exits',
    nonZero.length === 0,
    nonZero.length
      ? `${nonZero.length}: ${nonZero
          .slice(0, 3)
          .map(
            (x) =>
              `${x.hook} ${x.p.label}${x.p.detail ? ` (${x.p.detail})` : ''}: exit ${x.res.code}${x.res.timedOut ? ' (killed at 5 s)' : ''} ${x.res.stderr.trim().split('\n').pop()?.slice(0, 120)}`,
          )
          .join(' | ')}`
      : `${results.length} runs`,
  )
  // A slow run under parallel load is run again alone: a hang repeats, a scheduling delay does not.
  const slow = results.filter((x) => x.res.ms > HANG_MS)
  const hangs = []
  for (const x of slow) {
    const again = await runPayload(x.hook, x.p, env, x.cwd)
    if (again.ms > HANG_MS)
      hangs.push(
        `${x.hook} ${x.p.label}${x.p.detail ? ` (${x.p.detail})` : ''}: ${Math.round(x.res.ms)} ms, alone ${Math.round(again.ms)} ms${again.timedOut ? ' (killed)' : ''}`,
      )
  }
  const ms = results.map((x) => x.res.ms).sort((a, b) => a - b)
  const openPipe = results.filter((x) => typeof x.p.stdin === 'object' && !Buffer.isBuffer(x.p.stdin)).map((x) => x.res.ms)
  c.check(
    `0 hangs over ${HANG_MS / 1000} s`,
    hangs.length === 0,
    hangs.length
      ? hangs.slice(0, 3).join(' | ')
      : `median ${Math.round(ms[ms.length >> 1])} ms, max ${Math.round(ms[ms.length - 1])} ms (${slow.length} over 2 s under load, none alone); open pipes: max ${Math.round(Math.max(...openPipe))} ms`,
  )
  const bad = results.map((x) => ({ x, p: hookOutputProblem(x.hook, x.res.stdout) })).filter((y) => y.p)
  c.check(
    'always valid output',
    bad.length === 0,
    bad.length
      ? `${bad.length}: ${bad
          .slice(0, 3)
          .map((y) => `${y.x.hook} ${y.x.p.label}: ${y.p}`)
          .join(' | ')}`
      : 'stdout empty or the documented JSON on every run',
  )
  const internal = results.filter((x) =>
    /TypeError|RangeError|ReferenceError|SyntaxError: (?!Unexpected|Expected|Bad)|unexpected error|Maximum call stack/.test(x.res.stderr),
  )
  c.check(
    'no internal error behind the exit 0',
    internal.length === 0,
    internal.length
      ? `${internal.length}: ${internal
          .slice(0, 3)
          .map(
            (x) =>
              `${x.hook} ${x.p.label}: ${x.res.stderr
                .split('\n')
                .find((l) => /Error|unexpected/.test(l))
                ?.slice(0, 160)}`,
          )
          .join(' | ')}`
      : 'stderr carries only one-line notes',
  )
  const created = [
    join(sb.dir, 'nonexistent'),
    join(sb.dir, 'does'),
    join(base, 'proj', '~'),
    join(base, 'proj', '$HOME'),
    join(home, '~'),
    join(home, '$HOME'),
    join(base, '~'),
    join(base, '$HOME'),
  ]
    .filter((p) => existsSync(p))
    .map((p) => p.slice(sb.dir.length + 1))
  const rootStore = !rootBookmarkBefore && existsSync('/.bookmark')
  c.check(
    'no folder created for a working directory that does not exist',
    created.length === 0 && !rootStore,
    created.length || rootStore ? `created: ${[...created, ...(rootStore ? ['/.bookmark'] : [])].join(', ')}` : 'none',
  )
  // Stores that relative or `..` working directories led to (folders that exist): reported, not failed.
  const strays = walk(sb.dir).filter(
    (e) =>
      e.isDir &&
      e.rel.endsWith('.bookmark') &&
      e.rel !== 'n1/n2/n3/proj/.bookmark' &&
      e.rel !== 'n1/n2/n3/home/.bookmark' &&
      !created.some((p) => e.rel.startsWith(p)),
  )
  if (strays.length) c.note(`stores created in existing folders named by relative or .. working directories: ${strays.map((e) => e.rel).join(', ')}`)
  const byFamily = {}
  for (const x of results) byFamily[x.p.label] = (byFamily[x.p.label] ?? 0) + 1
  c.figure('runs', results.length)
  c.figure('families', Object.keys(byFamily).length)
  c.figure('maxMs', Math.round(ms[ms.length - 1]))
  c.figure('medianMs', Math.round(ms[ms.length >> 1]))
  return c.result(
    `${results.length} runs: ${variants} malformed payloads x ${hooksPer === 4 ? '4 hooks' : '1 hook in turn'} (${Object.keys(byFamily).length} families: empty, not JSON, binary, wrong types, missing fields, nonexistent and .. paths, FIFO and devices, 17 MB, deep nesting, open and dripping pipes)`,
    `0 non-zero exits, 0 hangs over 2 s, valid output, no internal errors, no stray folders (max ${Math.round(ms[ms.length - 1])} ms)`,
  )
}
