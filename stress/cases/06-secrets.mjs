/**
 * 6. Secrets: one session's transcript carries planted secrets of 129 kinds (68 in the formats docs/STORE.md names,
 * 33 credential forms of issue 15, 28 more that scanners such as gitleaks know), each in prompts (also cut exactly across the 500-character
 * prompt cap), shell commands (a git commit message, a failing command), tool outputs (errors), file
 * contents (Write, Edit, a Write whose result never came), file paths, todos, a plan, a subagent prompt,
 * assistant text, the Stop payload's last_assistant_message and the model-written narrative.
 * Guarantees: no secret, whole or an 8-character fragment, appears in any file under .bookmark/ or
 * ~/.bookmark (the narrative the model wrote excepted) or in any output: hooks, restore (startup, clear,
 * compact, resume), show, list, status, snapshot --json, MCP. Reports the redactor's hits on the clean corpus.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { distPath, pick } from '../lib/env.mjs'
import { jsonl, lines } from '../lib/gen.mjs'
import { Checks } from '../lib/result.mjs'
import { gitProject, rng, runCli, sandbox, spawnCli } from '../lib/sandbox.mjs'
import { ISSUE15, plant, uniqueProbes } from '../lib/secrets.mjs'
import { filesText } from '../lib/store.mjs'

export const name = '6 secrets'

const PROMPT_CAP = 500

/**
 * Where a secret is planted. Each carrier gets its own values of every kind, so a leak found anywhere names
 * the kind and the carrier. `lines(g, list, project)` returns transcript records; `payload` carriers go into
 * hook payloads or the narrative instead.
 */
const oneLine = (s) => s.replace(/\n/g, '\\n')
const CARRIERS = [
  ['prompt', (g, list) => list.map((s) => g.prompt(`Wire up the ${s.kind} credential, it is ${s.ctx} and keep it out of git.`))],
  [
    'prompt cut at 500',
    (g, list) =>
      list.map((s) => {
        // 12 characters of the secret fall before the prompt cap, the rest after it
        const cut = s.ctx.indexOf(s.secret.split('\n')[0]) + 12
        return g.prompt(`${'Long request '.repeat(60).slice(0, PROMPT_CAP - cut)}${s.ctx} and more words after it.`)
      }),
  ],
  [
    'git commit message',
    (g, list) =>
      list.flatMap((s, i) =>
        g.call(
          `gc${i}`,
          'Bash',
          { command: `git commit -m "chore: rotate ${oneLine(s.ctx).replace(/"/g, '\\"')}"`, description: 'commit' },
          `[main ${(1e6 + i).toString(16)}] chore: rotate ${oneLine(s.ctx)}\n 1 file changed`,
        ),
      ),
  ],
  [
    'failing command and its error',
    (g, list) =>
      list.flatMap((s, i) =>
        g.call(`fail${i}`, 'Bash', { command: `./deploy --credential '${oneLine(s.ctx)}'` }, `Error: rejected credential ${oneLine(s.ctx)}\nexit status 1`, {
          isError: true,
        }),
      ),
  ],
  [
    'file content (Write)',
    (g, list, project) =>
      list.flatMap((s, i) =>
        g.call(
          `env${i}`,
          'Write',
          {
            file_path: join(project, `config/${s.kind}.env`),
            content: `# ${s.kind}\n${s.ctx}\nexport const ${s.kind.replace(/-/g, '_').toUpperCase()} = "${oneLine(s.ctx).replace(/"/g, '\\"')}"\n`,
          },
          { type: 'create', filePath: join(project, `config/${s.kind}.env`), content: s.ctx },
        ),
      ),
  ],
  [
    'edit (new_string)',
    (g, list, project) =>
      list.flatMap((s, i) =>
        g.call(
          `edit${i}`,
          'Edit',
          { file_path: join(project, 'src/settings.ts'), old_string: `// ${s.kind}`, new_string: `const ${s.kind.replace(/-/g, '_')} = '${oneLine(s.ctx)}'` },
          { filePath: join(project, 'src/settings.ts') },
        ),
      ),
  ],
  [
    'tool output (Read)',
    (g, list, project) =>
      list.flatMap((s, i) => g.call(`read${i}`, 'Read', { file_path: join(project, `config/${s.kind}.r`) }, `     1\t${s.ctx.split('\n').join('\n     2\t')}`)),
  ],
  [
    'file path',
    (g, list, project) =>
      list
        .filter((s) => s.ctx === s.secret && /^[A-Za-z0-9_.~-]+$/.test(s.secret))
        .flatMap((s, i) => g.call(`path${i}`, 'Write', { file_path: join(project, 'keys', `${s.secret}.txt`), content: 'x\n' }, { type: 'create' })),
  ],
  ['assistant text', (g, list) => list.map((s) => g.assistantText(`Configured ${s.kind}: ${s.ctx}`))],
  [
    'todo (TodoWrite)',
    (g, list) =>
      g.call(
        'todo',
        'TodoWrite',
        { todos: list.map((s) => ({ content: `Rotate ${oneLine(s.ctx)}`, status: 'pending', activeForm: 'Rotating' })) },
        { oldTodos: [], newTodos: [] },
      ),
  ],
  [
    'task (TaskCreate)',
    (g, list) =>
      list.flatMap((s, i) =>
        g.call(
          `task${i}`,
          'TaskCreate',
          { subject: `Revoke ${oneLine(s.ctx)}`, description: s.ctx },
          { task: { id: String(i + 1), subject: `Revoke ${oneLine(s.ctx)}` } },
        ),
      ),
  ],
  [
    'plan (ExitPlanMode)',
    (g, list) => g.call('plan', 'ExitPlanMode', { plan: `# Plan\n${list.map((s) => `- replace ${s.ctx}`).join('\n')}` }, 'User approved the plan'),
  ],
  [
    'subagent prompt (Task)',
    (g, list) =>
      list.flatMap((s, i) => g.call(`agent${i}`, 'Task', { description: `audit ${oneLine(s.ctx)}`, prompt: s.ctx, subagent_type: 'general-purpose' }, 'done')),
  ],
  [
    'pending tool input',
    (g, list, project) => [g.toolUse('pending', 'Write', { file_path: join(project, '.env'), content: list.map((s) => s.ctx).join('\n') })],
  ],
  ['Stop payload last_assistant_message', 'payload'],
  ['UserPromptSubmit payload prompt', 'payload'],
  ['PreCompact custom_instructions', 'payload'],
  ['model-written narrative', 'payload'],
]

function transcriptWithSecrets(project, sid, byCarrier) {
  const g = lines(sid, project)
  const recs = [g.prompt('Set up the credentials of every service in config/.')]
  // the pending Write must be the last record: nothing answers it
  const ordered = [...CARRIERS.filter(([n]) => n !== 'pending tool input'), CARRIERS.find(([n]) => n === 'pending tool input')]
  for (const [carrier, make] of ordered) if (make !== 'payload') recs.push(...make(g, byCarrier.get(carrier), project).flat())
  return jsonl(recs)
}

/** 8-character probe -> {kind, carrier}; a scan of every text finds which planted values leaked. */
function probeIndex(byCarrier) {
  const index = new Map()
  for (const [carrier, list] of byCarrier) for (const s of list) for (const p of s.probes) index.set(p, { kind: s.kind, documented: s.documented, carrier })
  return index
}

function scan(text, index, where, found) {
  for (let i = 0; i + 8 <= text.length; i++) {
    const hit = index.get(text.substr(i, 8))
    if (!hit) continue
    const key = `${hit.carrier}\u0000${hit.kind}`
    const entry = found.get(key) ?? { ...hit, places: [] }
    if (entry.places.length < 40 && !entry.places.some((p) => p.where === where))
      entry.places.push({ where, around: `${text.slice(Math.max(0, i - 40), i).replace(/\s+/g, ' ')}«secret»` })
    found.set(key, entry)
    i += 7
  }
}

/** Speaks MCP to `bookmark mcp`: initialize, then each tools/call; returns every response line (or why not). */
async function mcpOutputs(env, cwd, calls) {
  const msgs = [
    { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'stress', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    ...calls.map((c, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: c.name, arguments: c.args } })),
  ]
  const h = spawnCli(['mcp'], { env, cwd, stdin: { open: true }, timeoutMs: 30_000 })
  for (const m of msgs) h.child.stdin.write(`${JSON.stringify(m)}\n`)
  // the server answers each line as it comes; closing stdin after a pause lets it finish and exit
  setTimeout(() => h.child.stdin.end(), 1_500)
  const res = await h.done
  if (/unknown command 'mcp'/.test(res.stderr)) return { available: false, reason: 'this build has no `bookmark mcp` command' }
  const lines = res.stdout.split('\n').filter(Boolean)
  return { available: true, text: res.stdout, answered: lines.length, expected: calls.length + 1 }
}

/** The redactor over the clean corpus: hits per kind (every hit is a false positive if the corpus holds no secret). */
async function corpusHits(ctx, sample) {
  const mod = await import(distPath('cli', 'redact.cjs'))
  const hits = {}
  const examples = {}
  let strings = 0
  let changed = 0
  let bytes = 0
  const visit = (v, depth) => {
    if (typeof v === 'string') {
      strings++
      const out = mod.redact(v)
      if (out === v) return
      changed++
      for (const m of out.matchAll(/\[REDACTED:([a-z0-9-]+)\]/g)) {
        const kind = m[1]
        const before = (v.match(new RegExp(`\\[REDACTED:${kind}\\]`, 'g')) ?? []).length
        if (before > 0) continue
        hits[kind] = (hits[kind] ?? 0) + 1
        if ((examples[kind] ?? []).length < 2) {
          let p = 0
          while (p < v.length && p < out.length && v[p] === out[p]) p++
          let q = 0
          while (q < v.length - p && q < out.length - p && v[v.length - 1 - q] === out[out.length - 1 - q]) q++
          const orig = v.slice(p, v.length - q)
          ;(examples[kind] ??= []).push(`…${v.slice(Math.max(0, p - 24), p).replace(/\s+/g, ' ')}«${orig.slice(0, 4)}… ${orig.length} chars»`)
        }
      }
      return
    }
    if (depth > 60 || v === null || typeof v !== 'object') return
    for (const x of Array.isArray(v) ? v : Object.values(v)) visit(x, depth + 1)
  }
  let n = 0
  for (const f of ctx.corpus) {
    const text = readFileSync(f, 'utf8')
    bytes += text.length
    for (const line of text.split('\n')) {
      if (!line || n++ % sample !== 0) continue
      try {
        visit(JSON.parse(line), 0)
      } catch {
        // not JSON: skipped, as the parser would
      }
    }
  }
  return { hits, examples, strings, changed, mb: bytes / 2 ** 20 }
}

export async function run(ctx) {
  const c = new Checks(name)
  const sb = sandbox('secrets')
  const project = gitProject(join(sb.dir, 'proj'))
  const env = { ...sb.env, CLAUDE_PROJECT_DIR: project }
  const r = rng(6)
  const byCarrier = new Map(CARRIERS.map(([carrier]) => [carrier, plant(r)]))
  uniqueProbes([...byCarrier.values()].flat())
  const kinds = byCarrier.get('prompt')
  const sid = 'secret00-0000-4000-8000-000000000000'
  const t = join(sb.dir, `${sid}.jsonl`)
  writeFileSync(t, transcriptWithSecrets(project, sid, byCarrier))
  const joined = (carrier) =>
    byCarrier
      .get(carrier)
      .map((s) => s.ctx)
      .join('\n')
  const outputs = []
  const out = async (label, args, stdin) => {
    const res = await runCli(args, { env, cwd: project, stdin, timeoutMs: 60_000 })
    outputs.push({ label, text: `${res.stdout}\n${res.stderr}` })
    return res
  }
  const payload = (extra) => JSON.stringify({ session_id: sid, transcript_path: t, cwd: project, ...extra })
  await out(
    'stop',
    ['stop'],
    payload({ hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: `Done. Used ${joined('Stop payload last_assistant_message')}` }),
  )
  await out('check', ['check'], payload({ hook_event_name: 'UserPromptSubmit', prompt: `here are keys ${joined('UserPromptSubmit payload prompt')}` }))
  await out(
    'precompact',
    ['precompact'],
    payload({ hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: joined('PreCompact custom_instructions') }),
  )
  await out('snapshot --json', ['snapshot', '--transcript', t, '--session-id', sid, '--cwd', project, '--json'])
  // the model writes the narrative with secrets in it (as a model might): restore must not pass them on
  const block = outputs[0].text.match(/<!-- BOOKMARK_IDENTITY[\s\S]*?-->/)?.[0]
  const header =
    block ??
    `<!-- BOOKMARK_IDENTITY\nscope: repo\nproject: proj\nrepo_path: ${project}\nbranch: main\nsession_id: ${sid}\nwritten: ${new Date().toISOString()}\n-->`
  const narrative = byCarrier.get('model-written narrative')
  writeFileSync(
    join(project, '.bookmark', 'bookmark.context.md'),
    `${header.replace(/written: .*/, `written: ${new Date().toISOString()}`)}\n# Handoff\n\n## Task\nRotate every credential.\n\n## Progress\n${narrative.map((s) => `- ${s.kind}: ${s.ctx}`).join('\n')}\n\n## Decisions\nKeep them in the vault, because git history is forever.\n\n## Next step\nRevoke the old keys.\n`,
  )
  for (const source of ['startup', 'clear', 'compact', 'resume'])
    await out(
      `restore ${source}`,
      ['restore'],
      payload({
        hook_event_name: 'SessionStart',
        source,
        session_id: source === 'startup' || source === 'clear' ? 'newsess0-0000-4000-8000-000000000000' : sid,
      }),
    )
  await out('show', ['show', '--cwd', project])
  await out('show --json', ['show', '--json', '--cwd', project])
  await out('list --json', ['list', '--json', '--cwd', project])
  await out('list --all --json', ['list', '--all', '--json'])
  await out('status --json', ['status', '--json', '--cwd', project])
  await out('clear', ['clear', '--project', project])
  await out('restore from home', ['restore'], JSON.stringify({ session_id: 'home0000-0000-4000-8000-000000000000', cwd: sb.home, source: 'startup' }))
  const mcp = await mcpOutputs(env, project, [
    { name: 'bookmark_restore', args: { cwd: project, source: 'startup' } },
    { name: 'bookmark_restore', args: { cwd: project, source: 'compact', session_id: sid } },
    { name: 'bookmark_show', args: { cwd: project } },
    { name: 'bookmark_status', args: { cwd: project } },
    { name: 'bookmark_list', args: { cwd: project } },
  ])
  if (mcp.available) outputs.push({ label: 'mcp', text: mcp.text })

  // Every file we wrote (the model's narrative is not ours) and every output.
  const files = [
    ...filesText(join(project, '.bookmark'))
      .filter((f) => f.rel !== 'bookmark.context.md')
      .map((f) => ({ where: `.bookmark/${f.rel}`, text: f.text })),
    ...filesText(sb.bookmarkHome).map((f) => ({ where: `~/.bookmark/${f.rel}`, text: f.text })),
  ]
  const places = [...files, ...outputs.map((o) => ({ where: `output of ${o.label}`, text: o.text }))]
  const index = probeIndex(byCarrier)
  const found = new Map()
  for (const p of places) scan(p.text, index, p.where, found)
  const leaks = [...found.values()]
  const describe = (ls) => {
    const groups = new Map()
    for (const l of ls) groups.set(l.carrier, [...(groups.get(l.carrier) ?? []), l])
    const short = (w) => w.replace(/SNAP_\w+/, 'SNAP_*').replace(/[0-9a-z]{8}-0000-4000-8000-0{12}/, '<sid>')
    return [...groups]
      .map(([carrier, g]) => {
        const wheres = [...new Set(g.flatMap((l) => l.places.map((p) => short(p.where))))]
        return `${carrier}: ${g.length} kinds (${g
          .slice(0, 4)
          .map((l) => l.kind)
          .join(', ')}${g.length > 4 ? ', ...' : ''}) in ${wheres.join(', ')}; e.g. ${g[0].kind}: "${g[0].places[0].around}"`
      })
      .join(' | ')
  }
  const nDoc = kinds.filter((s) => s.documented === true).length
  const nIssue = kinds.filter((s) => s.documented === ISSUE15).length
  const special = new Set(['prompt cut at 500', 'file path'])
  const whole = leaks.filter((l) => l.documented === true && !special.has(l.carrier))
  const cut = leaks.filter((l) => l.documented === true && l.carrier === 'prompt cut at 500')
  const paths = leaks.filter((l) => l.documented === true && l.carrier === 'file path')
  const issue = leaks.filter((l) => l.documented === ISSUE15)
  const extra = leaks.filter((l) => l.documented === false)
  c.check(
    `${nDoc} documented kinds x ${CARRIERS.length - 2} carriers: no secret in any file or output`,
    whole.length === 0,
    whole.length
      ? `${whole.length} (kind, carrier) pairs leak. ${describe(whole)}`
      : `${files.length} files and ${outputs.length} outputs searched for ${index.size} fragments`,
  )
  c.check(
    'no fragment of a secret that the 500-character prompt cap cuts',
    cut.length === 0,
    cut.length ? `${cut.length} of ${nDoc} kinds leave their first characters: ${describe(cut)}` : 'every cut secret is redacted',
  )
  c.check(
    'no secret in a file path (object keys included)',
    paths.length === 0,
    paths.length ? `${paths.length} kinds: ${describe(paths)}` : 'paths redacted everywhere',
  )
  c.check(
    `${nIssue} credential forms of issue 15 x ${CARRIERS.length} carriers: no secret in any file or output`,
    issue.length === 0,
    issue.length
      ? `${new Set(issue.map((l) => l.kind)).size} forms leak: ${[...new Set(issue.map((l) => l.kind))].join(', ')}. ${describe(issue)}`
      : 'none found',
  )
  c.check(
    `${kinds.length - nDoc - nIssue} further common formats (gitleaks): no secret in any file or output`,
    extra.length === 0,
    extra.length
      ? `${new Set(extra.map((l) => l.kind)).size} kinds leak: ${[...new Set(extra.map((l) => l.kind))].join(', ')}. ${describe(extra)}`
      : 'none found',
  )
  if (!mcp.available) c.skip('MCP outputs searched', mcp.reason)
  else c.check('MCP outputs searched', mcp.answered >= mcp.expected, `${mcp.answered} of ${mcp.expected} responses`)
  const snaps = files.filter((f) => f.where.includes('/snapshots/'))
  c.check(
    'the planted session was captured (the search is not vacuous)',
    snaps.length > 0 && outputs.some((o) => o.label === 'restore startup' && o.text.includes('additionalContext')),
    `${snaps.length} snapshots; restore startup printed context`,
  )
  c.figure('kinds', kinds.length)
  c.figure(
    'leaks',
    leaks.map((l) => `${l.carrier}: ${l.kind}`),
  )

  // The clean corpus: what the redactor would replace there.
  if (!ctx.corpusPresent) c.skip('false positives on the clean corpus (reported)', 'corpus absent')
  else {
    const sample = pick(ctx, 1, 10)
    const fp = await corpusHits(ctx, sample)
    const total = Object.values(fp.hits).reduce((a, b) => a + b, 0)
    const byKind = Object.entries(fp.hits).sort((a, b) => b[1] - a[1])
    c.figure('corpusRedactions', fp.hits)
    c.figure('corpusExamples', fp.examples)
    c.note(
      `clean corpus (${sample === 1 ? 'all' : `1 line in ${sample} of`} ${fp.mb.toFixed(0)} MB, ${fp.strings.toLocaleString('en')} strings): ${total} redactions in ${fp.changed} strings${byKind.length ? `: ${byKind.map(([k, n]) => `${k} ${n}`).join(', ')}` : ''}`,
    )
    for (const [k] of byKind.slice(0, 8)) c.note(`  ${k}: ${fp.examples[k].join(' ; ')}`)
    c.check(
      'false positives on the clean corpus (reported)',
      true,
      `${total} redactions in ${fp.strings.toLocaleString('en')} strings (${byKind.map(([k, n]) => `${k} ${n}`).join(', ') || 'none'})`,
    )
  }
  return c.result(
    `${kinds.length} kinds (${nDoc} documented + ${nIssue} of issue 15 + ${kinds.length - nDoc - nIssue} more) x ${CARRIERS.length} carriers (${index.size} fragments) in one session; ${outputs.length} outputs${mcp.available ? ' incl. MCP' : ''}`,
    `no secret (or 8-char fragment) in any written file or output; corpus redactions reported`,
  )
}
