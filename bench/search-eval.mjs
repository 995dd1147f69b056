#!/usr/bin/env node
/**
 * npm run eval:search: the ranking evaluation of `bookmark search` (docs/SEARCH.md, "Ranking evaluation").
 * Copies the corpus transcripts into a temp Claude Code store and CODEX_HOME, backfills a temp bookmark home
 * (never the real homes), runs every query of bench/search-eval.json through the built CLI and prints, for the
 * known items and the "latest" cases apart, the mean reciprocal rank (first relevant hit in the top 10) and
 * recall@5. Each answer is first checked against the corpus itself (the line holds the text the file names).
 * `--json` prints the figures as JSON; exit 1 when an answer no longer holds in the corpus, 2 without a corpus.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const REPO_ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))
const BIN = join(REPO_ROOT, 'bin', 'bookmark.cjs')
const CORPUS = process.env.BOOKMARK_CORPUS ? resolve(process.env.BOOKMARK_CORPUS) : resolve(REPO_ROOT, '..', 'shared', 'corpus')
const EVAL = JSON.parse(readFileSync(join(REPO_ROOT, 'bench', 'search-eval.json'), 'utf8'))
const asJson = process.argv.includes('--json')
const verbose = process.argv.includes('--verbose')

if (!existsSync(join(CORPUS, 'claude'))) {
  console.error(`no corpus at ${CORPUS} (set BOOKMARK_CORPUS)`)
  process.exit(2)
}

/** Every answer holds in the corpus: its line has the text, or the transcript names the changed file. */
function checkAnswers() {
  const lines = new Map()
  const read = (t) => {
    if (!lines.has(t)) lines.set(t, readFileSync(join(CORPUS, t), 'utf8').split('\n'))
    return lines.get(t)
  }
  const wrong = []
  for (const q of EVAL.queries) {
    for (const a of q.answers) {
      const all = read(a.transcript)
      if (a.line !== undefined && !(all[a.line - 1] ?? '').includes(a.contains ?? ''))
        wrong.push(`${q.id}: ${a.transcript}:${a.line} lacks ${JSON.stringify(a.contains)}`)
      if (a.changed !== undefined && !all.some((l) => l.includes(a.changed))) wrong.push(`${q.id}: ${a.transcript} never names ${a.changed}`)
    }
  }
  return wrong
}

function world() {
  const tmp = mkdtempSync(join(tmpdir(), 'bookmark-search-eval-'))
  const env = {
    ...process.env,
    HOME: join(tmp, 'home'),
    BOOKMARK_HOME: join(tmp, 'bookmark'),
    CLAUDE_CONFIG_DIR: join(tmp, 'claude'),
    CODEX_HOME: join(tmp, 'codex'),
  }
  for (const k of ['BOOKMARK_CAPTURE', 'XDG_CONFIG_HOME']) delete env[k]
  const claude = join(env.CLAUDE_CONFIG_DIR, 'projects', '-eval')
  const codex = join(env.CODEX_HOME, 'sessions', '2026', '01', '01')
  mkdirSync(env.HOME, { recursive: true })
  mkdirSync(claude, { recursive: true })
  mkdirSync(codex, { recursive: true })
  for (const [dir, to] of [
    ['claude', claude],
    ['codex', codex],
  ]) {
    if (!existsSync(join(CORPUS, dir))) continue
    for (const f of readdirSync(join(CORPUS, dir)).filter((n) => n.endsWith('.jsonl'))) copyFileSync(join(CORPUS, dir, f), join(to, f))
  }
  return { tmp, env }
}

function cli(env, args) {
  const r = spawnSync(process.execPath, [BIN, ...args], { env, cwd: env.HOME, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  if (r.status !== 0) throw new Error(`bookmark ${args.join(' ')} exited ${r.status}: ${r.stderr}`)
  return r.stdout
}

/** The rank (1-based) of the first relevant hit, or 0. A copy keeps its corpus file name. */
function firstRelevant(hits, answers) {
  for (const h of hits) {
    const name = basename(h.transcript)
    const ok = answers.some((a) => basename(a.transcript) === name && (a.line === undefined || a.line === h.line))
    if (ok) return h.rank
  }
  return 0
}

function summary(rows) {
  const n = rows.length
  return {
    queries: n,
    mrr: n === 0 ? 0 : rows.reduce((s, r) => s + (r.rank > 0 ? 1 / r.rank : 0), 0) / n,
    recallAt5: n === 0 ? 0 : rows.filter((r) => r.rank > 0 && r.rank <= 5).length / n,
    first: rows.filter((r) => r.rank === 1).length,
  }
}

const wrong = checkAnswers()
if (wrong.length > 0) {
  console.error(`answers that no longer hold in the corpus:\n${wrong.join('\n')}`)
  process.exit(1)
}
const { tmp, env } = world()
try {
  const started = Date.now()
  const backfill = cli(env, ['index', '--backfill']).trim()
  const rows = []
  for (const q of EVAL.queries) {
    const hits = JSON.parse(cli(env, ['search', ...q.args, '--limit', '10', '--json']))
    const rank = firstRelevant(hits, q.answers)
    rows.push({ id: q.id, type: q.type, category: q.category, rank, top: hits[0] ? `${basename(hits[0].transcript)}:${hits[0].line}` : null })
  }
  const result = {
    backfill,
    known: summary(rows.filter((r) => r.type === 'known')),
    latest: summary(rows.filter((r) => r.type === 'latest')),
    byCategory: Object.fromEntries(
      [...new Set(rows.map((r) => r.category))].map((c) => [c, summary(rows.filter((r) => r.category === c && r.type === 'known'))]),
    ),
    misses: rows.filter((r) => r.rank !== 1),
    seconds: Math.round((Date.now() - started) / 100) / 10,
  }
  if (asJson) console.log(JSON.stringify(verbose ? { ...result, rows } : result, null, 2))
  else {
    const f = (x) => x.toFixed(3)
    console.log(backfill)
    console.log(`\n| queries | n | MRR | recall@5 | rank 1 |\n|---|---|---|---|---|`)
    console.log(`| known items | ${result.known.queries} | ${f(result.known.mrr)} | ${f(result.known.recallAt5)} | ${result.known.first} |`)
    console.log(
      `| latest cases (--recent, --since) | ${result.latest.queries} | ${f(result.latest.mrr)} | ${f(result.latest.recallAt5)} | ${result.latest.first} |`,
    )
    for (const [c, s] of Object.entries(result.byCategory))
      if (s.queries > 0) console.log(`| known: ${c} | ${s.queries} | ${f(s.mrr)} | ${f(s.recallAt5)} | ${s.first} |`)
    if (result.misses.length > 0) {
      console.log('\nNot at rank 1:')
      for (const m of result.misses) console.log(`- ${m.id}: ${m.rank === 0 ? 'not in the top 10' : `rank ${m.rank}`} (top: ${m.top ?? 'no hit'})`)
    }
    console.log(`\n${EVAL.queries.length} queries in ${result.seconds} s.`)
  }
} finally {
  rmSync(tmp, { recursive: true, force: true })
}
