import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { tempDir } from '../../test/helpers/tmp.js'
import type { SearchEvent } from './events.js'
import { closeIndex, openIndex } from './index-read.js'
import { catchUpIndex } from './indexer.js'
import { appendEvents, ensureMemory, readLogState } from './log.js'
import { newest, search } from './query.js'

/** A small random generator, so that a failure can be run again. */
function random(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

/** Words of very different frequencies (a common few, a long tail), file names, and a rare marker here and there. */
function text(rnd: () => number, i: number): string {
  const out: string[] = []
  const n = 3 + Math.floor(rnd() * 30)
  for (let j = 0; j < n; j++) {
    const r = rnd()
    if (r < 0.3) out.push(['go', 'test', 'failed', 'build', 'file'][Math.floor(rnd() * 5)]!)
    else if (r < 0.35) out.push(`src/pkg${Math.floor(rnd() * 20)}/config${Math.floor(rnd() * 50)}.go`)
    else if (r < 0.36) out.push(`marker${i % 7}`)
    else out.push(`w${Math.floor(rnd() ** 3 * 3000)}`)
  }
  return out.join(' ')
}

describe('search passes over documents that cannot reach the top k (MaxScore), with the same hits', () => {
  it('ranks as scoring every document does, over several segments, filters and limits', async () => {
    const m = await ensureMemory(join(tempDir('bm-query-'), 'home'))
    const rnd = random(20261202)
    const t0 = Date.UTC(2026, 0, 1)
    let state = await readLogState(m)
    const logged: SearchEvent[] = []
    // Batches of different sizes: each catch-up writes a segment (a few merged once there are more than 8).
    for (const [b, size] of [3000, 2500, 200, 50, 900, 10, 1200, 30].entries()) {
      const events: SearchEvent[] = []
      for (let i = 0; i < size; i++) {
        const n = b * 10_000 + i
        events.push({
          id: n.toString(16).padStart(12, '0'),
          kind: (['request', 'reply', 'command', 'file', 'error'] as const)[n % 5]!,
          ts: new Date(t0 + n * 37_000).toISOString(),
          project: `/w/p${n % 3}`,
          session: `s${b}`,
          host: 'claude',
          text: text(rnd, n),
          transcript: `/t/${b}.jsonl`,
          line: i + 1,
        })
      }
      logged.push(...events)
      state = await appendEvents(m, state, events, {})
      await catchUpIndex(m)
    }
    const index = await openIndex(m)
    try {
      expect(index.segments.length).toBeGreaterThan(3)
      const queries = ['go', 'go test failed', 'config7.go', 'marker3 go', 'marker5 failed build', 'w1 w2 w3', 'src/pkg3/config12.go test', 'file']
      let passedOver = 0
      // Long after the events (every boost about 1), and among them (boosts from 1 to 1.25, some in the future).
      for (const now of [t0 + 400 * 86_400_000, t0 + 20 * 86_400_000])
        for (const query of queries)
          for (const extra of [
            {},
            { limit: 3 },
            { limit: 40 },
            { kinds: ['error' as const] },
            { project: { path: '/w/p1' } },
            { since: t0 + 200 * 86_400_000 },
            { recent: true },
            { recent: true, kinds: ['command' as const] },
          ]) {
            const q = { query, limit: 10, now, ...extra }
            const plain = await search(m, index, { ...q, exhaustive: true })
            const fast = await search(m, index, q)
            expect(fast, `${query} ${JSON.stringify(extra)} ${now}`).toEqual(plain)
            // Without WebAssembly the JavaScript loops skip the same documents.
            vi.stubGlobal('WebAssembly', undefined)
            const js = await search(m, index, q).finally(() => vi.unstubAllGlobals())
            expect(js, `${query} ${JSON.stringify(extra)} ${now}, no WebAssembly`).toEqual(plain)
            if (plain.length > 0) passedOver++
          }
      expect(passedOver).toBeGreaterThan(60)
      // Orientation reads each segment from its end: the newest of each kind, as sorting every event gives them.
      const groups = [
        { kinds: ['error' as const], limit: 5 },
        { kinds: ['request' as const, 'command' as const], limit: 7 },
      ]
      const lists = await newest(m, index, { project: { path: '/w/p1' }, groups })
      const all = logged.filter((e) => e.project === '/w/p1').sort((a, b) => Date.parse(b.ts!) - Date.parse(a.ts!))
      groups.forEach((g, i) => {
        const want = all.filter((e) => (g.kinds as string[]).includes(e.kind)).slice(0, g.limit)
        expect(lists[i]!.map((h) => h.id)).toEqual(want.map((e) => e.id))
      })
    } finally {
      closeIndex(index)
    }
  })
})
