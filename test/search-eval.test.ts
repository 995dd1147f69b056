/**
 * The ranking evaluation (bench/search-eval.mjs over bench/search-eval.json, docs/SEARCH.md): known-item MRR of at
 * least 0.9 over the real corpus, and every "latest" case answered first by --recent or --since.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CORPUS, CORPUS_PRESENT, REPO_ROOT } from './helpers/corpus.js'

interface Figures {
  queries: number
  mrr: number
  recallAt5: number
  first: number
}

describe.skipIf(!CORPUS_PRESENT)('search ranking evaluation', () => {
  it('ranks the known items with MRR >= 0.9 and answers every latest case first', () => {
    const data = JSON.parse(readFileSync(join(REPO_ROOT, 'bench', 'search-eval.json'), 'utf8')) as { queries: { type: string; category: string }[] }
    expect(data.queries.length).toBeGreaterThanOrEqual(40)
    expect(new Set(data.queries.map((q) => q.category))).toEqual(new Set(['commit', 'file', 'error', 'decision', 'request', 'command']))
    const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bench', 'search-eval.mjs'), '--json'], {
      env: { ...process.env, BOOKMARK_CORPUS: CORPUS },
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    })
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    const out = JSON.parse(r.stdout) as { known: Figures; latest: Figures }
    expect(out.known.queries).toBe(data.queries.filter((q) => q.type === 'known').length)
    expect(out.known.mrr).toBeGreaterThanOrEqual(0.9)
    expect(out.known.recallAt5).toBeGreaterThanOrEqual(0.9)
    expect(out.latest.queries).toBeGreaterThanOrEqual(10)
    expect(out.latest.first).toBe(out.latest.queries)
  }, 300_000)
})
