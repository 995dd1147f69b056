#!/usr/bin/env node
/**
 * npm run quality: what the restore and the compact resume state on every non-Windows corpus session, judged
 * against the session oracle (test/helpers/oracle-session.ts, which reads the raw transcript, not src/).
 *
 * - Startup restore: the transcript is relocated into a temp project, captured by `bookmark stop`, read back by
 *   `bookmark restore` (source startup). Size, error lines, and whether it states the goal, the latest request,
 *   the end state (the oracle's category), a next step, and the end of the last reply.
 * - Compact resume: for each compact_boundary line, the transcript up to that line is captured by the
 *   `precompact` hook and read back by `restore` with source "compact", in one store per session (the second
 *   compaction sees the first's state, as in a real session). Beside it, the size of Claude Code's own summary
 *   (the isCompactSummary record after the boundary).
 * Prints Markdown; `--update-doc` writes it into docs/QUALITY.md between the quality:results markers,
 * `--update-doc before` between the quality:before markers. Exit 2 when there is no corpus.
 */
import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'

const REPO_ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))
const BIN = join(REPO_ROOT, 'bin', 'bookmark.cjs')
const DOC = join(REPO_ROOT, 'docs', 'QUALITY.md')
const CORPUS = process.env.BOOKMARK_CORPUS ? resolve(process.env.BOOKMARK_CORPUS) : resolve(REPO_ROOT, '..', 'shared', 'corpus')

/**
 * The oracle and the relocate-stop-restore helper are TypeScript importing nothing but Node's modules:
 * transpiled on the fly, so that each stays one file for the tests and this bench.
 */
async function loadTs(tmp, name) {
  const src = readFileSync(join(REPO_ROOT, 'test', 'helpers', `${name}.ts`), 'utf8')
  const js = ts.transpileModule(src, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText
  const file = join(tmp, `${name}.mjs`)
  writeFileSync(file, js)
  return import(pathToFileURL(file).href)
}

const TITLES = [
  "The goal, in the user's words",
  "The task, in the user's words",
  'Latest request',
  'Last request',
  'Next step',
  "The user's decisions",
  'Open tasks',
  'Files changed',
  'Last commit',
  'Unresolved errors',
  'Last assistant message',
  'Handoff notes',
  'Earlier requests',
  'Latest plan',
]
const flat = (s) => s.replace(/^> ?/gm, '').replace(/\s+/g, ' ').trim()
function needle(s, max = 40) {
  const first = s.split('\n').find((l) => l.trim()) ?? ''
  return flat(first.replace(/^#+\s*/, ''))
    .split(/[<>`]/)[0]
    .slice(0, max)
    .trim()
}

/** The lines of the section whose title starts with `title` (fence lines dropped). */
function section(text, title) {
  const lines = text.split('\n')
  const start = lines.findIndex((l) => l.startsWith(`## ${title}`))
  if (start < 0) return []
  let fence
  const out = []
  for (const l of lines.slice(start + 1)) {
    if (fence !== undefined) {
      if (l === fence) fence = undefined
      else out.push(l)
      continue
    }
    if (/^`{3,}/.test(l)) fence = /^`+/.exec(l)[0]
    else if (l.startsWith('## ') && TITLES.some((t) => l.startsWith(`## ${t}`))) break
    else out.push(l)
  }
  return out
}
const sectionText = (text, ...titles) => flat(titles.map((t) => section(text, t).join('\n')).join('\n'))

/** A temp world for one session (test/helpers/restore-after.ts, World): its own home, project and ids. */
function world(tmp, name) {
  const dir = mkdtempSync(join(tmp, 'q-'))
  const home = join(dir, 'home')
  const project = join(dir, 'p')
  mkdirSync(home, { recursive: true })
  mkdirSync(join(project, '.git'), { recursive: true }) // its own project root, as restore-heldout.test.ts does
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    BOOKMARK_HOME: join(home, '.bookmark'),
    CLAUDE_PROJECT_DIR: project,
    TMPDIR: dir,
    NODE_OPTIONS: '',
  }
  return { bin: BIN, dir, project, env, transcript: join(dir, `${name}.jsonl`), sessionId: randomUUID() }
}

/** The run's output; a hook that failed stops the bench. */
function ok(run, what) {
  if (run.code !== 0) throw new Error(`bookmark ${what} exited ${run.code}: ${run.stderr}`)
  return run.stdout
}

const contextOf = (out) => (out.trim() === '' ? '' : (JSON.parse(out).hookSpecificOutput?.additionalContext ?? ''))

/** What one restore text states, judged against the oracle of the transcript it came from. */
function judge(text, o, { END_STATE_WORDS }) {
  const body = flat(text)
  const goalWhere = sectionText(text, "The goal, in the user's words", "The task, in the user's words", 'Latest request', 'Last request')
  const endLine = text.split('\n').find((l) => l.startsWith('How the last session ended: '))
  const nextStep = section(text, 'Next step').some((l) => l.trim()) || section(text, 'Open tasks').some((l) => l.includes('(in progress)'))
  const tail = o.lastAssistantTail ? flat(o.lastAssistantTail).split(/[<>`]/).at(-1).slice(-50).trim() : undefined
  return {
    size: text.length,
    errors: section(text, 'Unresolved errors').filter((l) => l.startsWith('- ') && !l.startsWith('- … ')).length,
    goal: o.goal === undefined ? 'n/a' : goalWhere.includes(needle(o.goal)) ? 'yes' : 'no',
    latest:
      o.latestRequest === undefined ? 'n/a' : goalWhere.includes(needle(o.latestRequest)) ? 'yes' : body.includes(needle(o.latestRequest)) ? 'elsewhere' : 'no',
    end: !endLine ? 'no' : endLine.slice('How the last session ended: '.length).startsWith(END_STATE_WORDS[o.endState]) ? 'yes' : 'wrong',
    next: nextStep ? 'yes' : 'no',
    tail: tail === undefined ? 'n/a' : body.includes(tail) ? 'yes' : 'no',
  }
}

function linesOf(raw) {
  return raw.split('\n')
}

function sessionRow(name, raw, oracle, after, tmp) {
  const o = oracle.sessionOracle(raw)
  const w = world(tmp, 'session')
  const { stop, restore } = after.restoreAfter(w, raw, o.root, randomUUID())
  ok(stop, 'stop')
  const text = contextOf(ok(restore, 'restore'))
  return { name, state: o.endState, ...judge(text, o, oracle) }
}

function compactRows(name, raw, oracle, after, tmp) {
  const lines = linesOf(raw)
  const rows = []
  const boundaries = []
  lines.forEach((l, i) => {
    if (!l.includes('"compact_boundary"')) return
    try {
      const r = JSON.parse(l)
      if (r.type === 'system' && r.subtype === 'compact_boundary') boundaries.push(i)
    } catch {
      // a torn line is no boundary
    }
  })
  if (boundaries.length === 0) return rows
  const root = oracle.sessionOracle(raw).root
  const w = world(tmp, 'compact')
  boundaries.forEach((b, k) => {
    const prefix = lines.slice(0, b).join('\n') + '\n'
    const o = oracle.sessionOracle(prefix)
    writeFileSync(w.transcript, after.relocate(prefix, root, w.project))
    const pre = after.hook(w, ['precompact'], {
      session_id: w.sessionId,
      transcript_path: w.transcript,
      cwd: w.project,
      hook_event_name: 'PreCompact',
      trigger: 'auto',
      custom_instructions: null,
    })
    ok(pre, 'precompact')
    const text = contextOf(ok(after.restore(w, 'compact'), 'restore'))
    let summary = 0
    for (const l of lines.slice(b + 1, b + 6)) {
      try {
        const r = JSON.parse(l)
        if (r.isCompactSummary) {
          const c = r.message?.content
          summary = (typeof c === 'string' ? c : Array.isArray(c) ? c.map((x) => x?.text ?? '').join('\n') : '').length
          break
        }
      } catch {
        // not a record
      }
    }
    const j = judge(text, o, oracle)
    rows.push({ name, n: k + 1, line: b + 1, summary, ...j })
  })
  return rows
}

const short = (name) => name.replace(/^cc-/, '').replace(/\.jsonl$/, '')
const count = (rows, key) => rows.filter((r) => r[key] === 'yes').length
const applicable = (rows, key) => rows.filter((r) => r[key] !== 'n/a').length
const median = (xs) => {
  const s = xs.slice().sort((a, b) => a - b)
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2] : Math.round((s[s.length / 2 - 1] + s[s.length / 2]) / 2)
}

function markdown(sessions, compacts, when) {
  const out = []
  out.push(`Measured ${when} on ${sessions.length} sessions and ${compacts.length} compactions.`, '')
  out.push('### Startup restore', '')
  out.push('| Session | Size | Error lines | Goal | Latest request | End state (oracle) | Next step | Last reply tail |')
  out.push('|---|---:|---:|---|---|---|---|---|')
  for (const r of sessions) out.push(`| ${short(r.name)} | ${r.size} | ${r.errors} | ${r.goal} | ${r.latest} | ${r.end} (${r.state}) | ${r.next} | ${r.tail} |`)
  out.push(
    `| **total** | median ${median(sessions.map((r) => r.size))} | ${sessions.reduce((a, r) => a + r.errors, 0)} | ${count(sessions, 'goal')}/${applicable(sessions, 'goal')} | ${count(sessions, 'latest')}/${applicable(sessions, 'latest')} | ${count(sessions, 'end')}/${sessions.length} | ${count(sessions, 'next')}/${sessions.length} | ${count(sessions, 'tail')}/${applicable(sessions, 'tail')} |`,
    '',
  )
  out.push('### Compact resume', '')
  out.push("| Session | # | Line | Claude's summary | Our resume | Error lines | Goal | Latest request | Next step | Last reply tail |")
  out.push('|---|---:|---:|---:|---:|---:|---|---|---|---|')
  for (const r of compacts)
    out.push(`| ${short(r.name)} | ${r.n} | ${r.line} | ${r.summary} | ${r.size} | ${r.errors} | ${r.goal} | ${r.latest} | ${r.next} | ${r.tail} |`)
  out.push(
    `| **total** | | | median ${median(compacts.map((r) => r.summary))} | median ${median(compacts.map((r) => r.size))} | ${compacts.reduce((a, r) => a + r.errors, 0)} | ${count(compacts, 'goal')}/${applicable(compacts, 'goal')} | ${count(compacts, 'latest')}/${applicable(compacts, 'latest')} | ${count(compacts, 'next')}/${compacts.length} | ${count(compacts, 'tail')}/${applicable(compacts, 'tail')} |`,
  )
  return out.join('\n')
}

function updateDoc(md, which) {
  const begin = `<!-- quality:${which}:begin -->`
  const end = `<!-- quality:${which}:end -->`
  const doc = readFileSync(DOC, 'utf8')
  const a = doc.indexOf(begin)
  const b = doc.indexOf(end)
  if (a < 0 || b < a) throw new Error(`${DOC} has no ${begin} … ${end} markers`)
  writeFileSync(DOC, `${doc.slice(0, a + begin.length)}\n${md}\n${doc.slice(b)}`)
}

async function main() {
  const dir = join(CORPUS, 'claude')
  if (!existsSync(dir)) {
    console.error(`no corpus at ${dir} (set BOOKMARK_CORPUS)`)
    process.exit(2)
  }
  const tmp = mkdtempSync(join(tmpdir(), 'bm-quality-'))
  try {
    const oracle = await loadTs(tmp, 'oracle-session')
    const after = await loadTs(tmp, 'restore-after')
    const names = readdirSync(dir)
      .filter((n) => n.endsWith('.jsonl') && !n.includes('windows'))
      .sort()
    const sessions = []
    const compacts = []
    for (const name of names) {
      const raw = readFileSync(join(dir, name), 'utf8')
      process.stderr.write(`${name}\n`)
      sessions.push(sessionRow(name, raw, oracle, after, tmp))
      compacts.push(...compactRows(name, raw, oracle, after, tmp))
    }
    const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).stdout.trim()
    const md = markdown(sessions, compacts, `at commit ${head || 'unknown'}`)
    console.log(md)
    const i = process.argv.indexOf('--update-doc')
    if (i >= 0) updateDoc(md, process.argv[i + 1] === 'before' ? 'before' : 'results')
  } finally {
    if (process.env.QUALITY_KEEP !== '1') rmSync(tmp, { recursive: true, force: true })
  }
}

await main()
