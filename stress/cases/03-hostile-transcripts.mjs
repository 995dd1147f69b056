/**
 * 3. Hostile transcripts: lines of the real corpus mutated (truncation, bit flips, wrong types, huge strings,
 * deep nesting, NUL bytes, invalid UTF-8, prototype keys, lone surrogates, wrongly typed tool inputs, junk),
 * appended in slices cut at arbitrary bytes with a capture after each slice, plus single lines of 50 MB.
 * Guarantees: 0 crashes (no non-zero exit, no logged hook failure), every hook exits 0 with valid output,
 * bounded memory, and the valid lines that follow hostile ones are still captured.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pick } from '../lib/env.mjs'
import { jsonl, lines } from '../lib/gen.mjs'
import { PLAIN_KINDS, PROTO_KINDS, mutate } from '../lib/mutate.mjs'
import { Checks } from '../lib/result.mjs'
import { gitProject, hookOutputProblem, pool, rng, runCli, sandbox } from '../lib/sandbox.mjs'
import { auditStore, indexAudit, readJsonFile } from '../lib/store.mjs'

export const name = '3 hostile transcripts'

/** Peak RSS allowed for a capture of hostile lines no longer than 4 MB (the corpus, mutated). */
const RSS_LINES_MB = 400
/** Peak RSS allowed for a capture that meets one line of L MB: a fixed base plus a small multiple of L. */
const rssBigLineMB = (lineMB) => 250 + 6 * lineMB

function sourceLines(ctx, project) {
  if (ctx.corpusPresent) {
    const out = []
    for (const f of ctx.corpus) {
      const buf = readFileSync(f)
      let from = 0
      for (;;) {
        const nl = buf.indexOf(10, from)
        const end = nl === -1 ? buf.length : nl
        if (end > from) out.push(buf.subarray(from, end))
        if (nl === -1) break
        from = nl + 1
      }
    }
    return { lines: out, from: `${ctx.corpus.length} corpus transcripts (${out.length} lines)` }
  }
  // No corpus: the generator's ordinary lines stand in (said in the output).
  const g = lines('generated', project)
  const out = []
  for (let i = 0; i < 2_000; i++)
    out.push(
      ...jsonl(g.turn(i, `src/g${i % 50}.ts`))
        .trim()
        .split('\n')
        .map((l) => Buffer.from(l)),
    )
  return { lines: out, from: 'GENERATED lines (corpus absent)' }
}

export async function run(ctx) {
  const total = pick(ctx, 100_000, 3_000)
  const transcripts = pick(ctx, 10, 2)
  const bigMB = pick(ctx, 50, 8)
  const c = new Checks(name)
  const sb = sandbox('hostile')
  const project = gitProject(join(sb.dir, 'proj'))
  const env = { ...sb.env, CLAUDE_PROJECT_DIR: project }
  const src = sourceLines(ctx, project)
  if (!ctx.corpusPresent) c.note('corpus absent: the mutated lines come from generated transcripts, not the real corpus')
  const r = rng(3)
  const opts = { hugeLeft: pick(ctx, 96, 6) * 2 ** 20, hugeMax: pick(ctx, 1_000_000, 400_000), cwd: project }
  const kinds = {}
  const crashes = []
  const hookExits = []
  const badOutput = []
  const rss = []
  const notCaptured = []
  let processes = 0
  let processesProto = 0
  let bytes = 0
  let mutated = 0

  const runOne = async (args, stdin, label) => {
    const res = await runCli(args, { env, cwd: project, stdin, timeoutMs: 120_000, rss: true, maxOutput: 1 << 20 })
    processes++
    if (label.includes('hostile-proto-')) processesProto++
    if (res.rssKb) rss.push({ label, mb: res.rssKb / 1024 })
    const hook = args[0]
    const isHook = ['stop', 'check', 'restore', 'precompact'].includes(hook)
    const firstError =
      res.stderr
        .split('\n')
        .find((l) => /Error|failed|error/.test(l))
        ?.trim()
        .slice(0, 240) ?? res.stderr.trim().split('\n').pop()?.slice(0, 240)
    if (isHook && res.code !== 0) hookExits.push(`${label}: exit ${res.code}${res.signal ? ` signal ${res.signal}` : ''}`)
    if (res.code !== 0 || res.signal || res.timedOut)
      crashes.push(`${label}: exit ${res.code}${res.signal ? ` signal ${res.signal}` : ''}${res.timedOut ? ' (timed out)' : ''}: ${firstError}`)
    else if (/hook failed|hook error|unexpected error|RangeError|TypeError/.test(res.stderr))
      crashes.push(
        `${label}: ${res.stderr
          .trim()
          .split('\n')
          .find((l) => /failed|error|Error/.test(l))
          ?.slice(0, 240)}`,
      )
    if (isHook) {
      const p = hookOutputProblem(hook, res.stdout)
      if (p) badOutput.push(`${label}: ${p}`)
    } else if (args.includes('--json')) {
      try {
        JSON.parse(res.stdout)
      } catch {
        if (res.code === 0) badOutput.push(`${label}: --json printed no JSON`)
      }
    }
    return res
  }

  const perT = Math.ceil(total / transcripts)
  await pool(
    Array.from({ length: transcripts }, (_, i) => i),
    2,
    async (t) => {
      // the last transcript holds the prototype-name family; the others every other kind, so one defect does not hide the rest
      const proto = t === transcripts - 1
      const sid = proto ? `hostile-proto-${String(t).padStart(4, '0')}` : `hostile-${String(t).padStart(4, '0')}`
      const path = join(sb.dir, `${sid}.jsonl`)
      const parts = []
      let count = 0
      while (count < perT) {
        opts.kinds = proto ? PROTO_KINDS : PLAIN_KINDS // the generation loop is synchronous: no other worker runs in between
        const m = mutate(src.lines[r.int(src.lines.length)], r, opts)
        kinds[m.kind] = (kinds[m.kind] ?? 0) + 1
        for (const b of m.out) parts.push(b, Buffer.from('\n'))
        count++
      }
      mutated += count
      const all = Buffer.concat(parts)
      bytes += all.length
      writeFileSync(path, '')
      // Four slices cut at arbitrary bytes (a capture may meet half a line), a capture after each.
      const cuts = [0, ...[r(), r(), r()].sort().map((x) => Math.floor(x * all.length)), all.length]
      const hooks = [['snapshot', '--transcript', path, '--session-id', sid, '--cwd', project, '--json'], ['stop'], ['precompact'], ['stop']]
      for (let k = 0; k < 4; k++) {
        appendFileSync(path, all.subarray(cuts[k], cuts[k + 1]))
        const args = hooks[k]
        const payload = JSON.stringify({
          session_id: sid,
          transcript_path: path,
          cwd: project,
          hook_event_name: args[0],
          stop_hook_active: k === 3,
          last_assistant_message: k === 1 ? 'reply with \u0000 NUL, \ud800 lone surrogate and \u202e bidi' : undefined,
          trigger: 'auto',
        })
        await runOne(args, args[0] === 'snapshot' ? undefined : payload, `${sid} ${args[0]} slice ${k + 1}`)
      }
      // A valid turn after all that: it must be captured.
      const g = lines(sid, project)
      const sentinel = `sentinel request ${sid}: wrap up the hostile transcript run`
      appendFileSync(path, `\n${jsonl([g.prompt(sentinel), g.assistantText('Wrapped up.')])}`)
      await runOne(['stop'], JSON.stringify({ session_id: sid, transcript_path: path, cwd: project, stop_hook_active: true }), `${sid} stop sentinel`)
      await runOne(['check'], JSON.stringify({ session_id: sid, transcript_path: path, cwd: project, prompt: 'go on' }), `${sid} check`)
      for (const source of ['startup', 'compact', 'resume'])
        await runOne(['restore'], JSON.stringify({ session_id: sid, transcript_path: path, cwd: project, source }), `${sid} restore ${source}`)
      const idx = readJsonFile(join(project, '.bookmark', 'index.json'))
      const entry = idx?.snapshots?.find((e) => e.sessionId === sid)
      const snap = entry ? readJsonFile(join(project, '.bookmark', 'snapshots', `${entry.id}.json`)) : undefined
      if (!snap || !JSON.stringify(snap.requests ?? {}).includes(sentinel))
        notCaptured.push(`${sid}: latest snapshot ${entry?.id ?? '(none)'} lacks the sentinel request`)
    },
  )
  await runOne(['show', '--json', '--cwd', project], undefined, 'show --json')
  await runOne(['status', '--json', '--cwd', project], undefined, 'status --json')

  // One line of bigMB megabytes: a prompt, then a tool output; each followed by a valid turn.
  const sid = 'hostile-bigline'
  const path = join(sb.dir, `${sid}.jsonl`)
  const g = lines(sid, project)
  const bigRss = []
  writeFileSync(path, jsonl([g.prompt('a normal request before the huge line'), g.assistantText('ok')]))
  const huge = 'x'.repeat(bigMB * 2 ** 20)
  appendFileSync(path, `${JSON.stringify(g.prompt(huge))}\n${jsonl([g.prompt('sentinel after the huge prompt line'), g.assistantText('ok')])}`)
  let res = await runOne(
    ['stop'],
    JSON.stringify({ session_id: sid, transcript_path: path, cwd: project, stop_hook_active: true }),
    `${bigMB} MB prompt line: stop`,
  )
  bigRss.push(res.rssKb / 1024)
  appendFileSync(path, `${JSON.stringify(g.toolResult('big1', huge))}\n${jsonl([g.prompt('sentinel after the huge tool output line'), g.assistantText('ok')])}`)
  res = await runOne(['snapshot', '--transcript', path, '--session-id', sid, '--cwd', project, '--json'], undefined, `${bigMB} MB tool-output line: snapshot`)
  bigRss.push(res.rssKb / 1024)
  res = await runOne(['restore'], JSON.stringify({ session_id: sid, cwd: project, source: 'startup' }), `${bigMB} MB line: restore`)
  bigRss.push(res.rssKb / 1024)
  let bigSnap
  try {
    bigSnap = readJsonFile(
      JSON.parse(readFileSync(join(project, '.bookmark', 'index.json'), 'utf8'))
        .snapshots.filter((e) => e.sessionId === sid)
        .map((e) => join(project, '.bookmark', 'snapshots', `${e.id}.json`))[0],
    )
  } catch {
    bigSnap = undefined
  }
  const bigText = JSON.stringify(bigSnap?.requests ?? {})
  if (!bigText.includes('sentinel after the huge prompt line') || !bigText.includes('sentinel after the huge tool output line'))
    notCaptured.push(`${bigMB} MB lines: the requests after them are not both in the latest snapshot`)
  const storeFiles = auditStore(join(project, '.bookmark'))
    .entries.filter((e) => e.isFile)
    .sort((a, b) => b.size - a.size)
  const largestFile = storeFiles[0]?.size ?? 0

  const protoCrashes = crashes.filter((x) => x.includes('hostile-proto-'))
  const otherCrashes = crashes.filter((x) => !x.includes('hostile-proto-'))
  c.check(
    '0 crashes (every kind but prototype names)',
    otherCrashes.length === 0,
    otherCrashes.length ? `${otherCrashes.length} processes: ${otherCrashes.slice(0, 3).join(' | ')}` : `${processes - processesProto} processes`,
  )
  c.check(
    '0 crashes (prototype names as keys: __proto__, constructor, toString... as file, tool, task, model names)',
    protoCrashes.length === 0,
    protoCrashes.length ? `${protoCrashes.length} of ${processesProto} processes: ${protoCrashes.slice(0, 3).join(' | ')}` : `${processesProto} processes`,
  )
  c.check(
    'every hook exits 0 with valid output',
    badOutput.length === 0 && hookExits.length === 0,
    [...hookExits, ...badOutput].slice(0, 3).join(' | ') || 'every hook exit 0; stdout empty or the documented JSON',
  )
  const peak = rss.filter((x) => !x.label.includes('MB ')).reduce((m, x) => Math.max(m, x.mb), 0)
  const bigPeak = Math.max(...bigRss.filter(Number.isFinite))
  c.check(
    `bounded memory: mutated corpus lines under ${RSS_LINES_MB} MB peak RSS`,
    peak > 0 && peak < RSS_LINES_MB,
    `peak ${peak.toFixed(0)} MB over ${rss.length - bigRss.length} processes (highest: ${rss
      .filter((x) => !x.label.includes('MB '))
      .sort((a, b) => b.mb - a.mb)
      .slice(0, 3)
      .map((x) => `${x.label} ${x.mb.toFixed(0)} MB`)
      .join(', ')})`,
  )
  c.check(
    `bounded memory: a ${bigMB} MB line under ${rssBigLineMB(bigMB)} MB peak RSS`,
    bigPeak < rssBigLineMB(bigMB),
    `peak ${bigPeak.toFixed(0)} MB (stop ${bigRss[0]?.toFixed(0)}, snapshot ${bigRss[1]?.toFixed(0)}, restore ${bigRss[2]?.toFixed(0)})`,
  )
  c.check(
    'valid lines after hostile ones are captured',
    notCaptured.length === 0,
    notCaptured.slice(0, 4).join(' | ') || `${transcripts} transcripts + the ${bigMB} MB lines: the following requests are in the snapshots`,
  )
  c.check(
    'stored state stays bounded (no file in .bookmark/ over 4 MB)',
    largestFile < 4 * 2 ** 20,
    `largest file in .bookmark/: ${storeFiles[0]?.rel} ${(largestFile / 1024).toFixed(0)} KB; next ${storeFiles
      .slice(1, 3)
      .map((f) => `${f.rel} ${(f.size / 1024).toFixed(0)} KB`)
      .join(', ')}`,
  )
  const audit = [auditStore(join(project, '.bookmark')), auditStore(sb.bookmarkHome)]
  const problems = audit.flatMap((a) => a.problems)
  const idx = indexAudit(project)
  c.check(
    'stores parse and the index is consistent afterwards',
    problems.length === 0 && idx.missing.length === 0 && idx.unlisted.length === 0,
    problems.slice(0, 2).join(' | ') || `${audit.reduce((n, a) => n + a.parsed, 0)} files parse; ${idx.listed.length} snapshots listed`,
  )
  const polluted = {}.polluted !== undefined
  if (polluted) c.note('the harness itself saw a polluted Object.prototype (unexpected)')
  c.figure('kinds', kinds)
  c.figure('mutatedLines', mutated)
  c.figure('transcriptMB', Math.round(bytes / 2 ** 20))
  c.figure('peakRssMB', Math.round(peak))
  c.figure('bigLinePeakRssMB', Math.round(bigPeak))
  return c.result(
    `${mutated.toLocaleString('en')} mutated lines from ${src.from} (${(bytes / 2 ** 20).toFixed(0)} MB, ${Object.keys(kinds).length} kinds) in ${transcripts} transcripts cut at random bytes + a ${bigMB} MB prompt line and a ${bigMB} MB tool-output line`,
    `0 crashes, exit 0 with valid output, peak RSS (${Math.round(peak)} MB; ${Math.round(bigPeak)} MB with the ${bigMB} MB line), later lines captured`,
  )
}
