/**
 * An index written in format 1 (before format 2) is read as it is, converted in memory, and written again in
 * format 2 by the next catch-up: a search never fails on it.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../test/helpers/tmp.js'
import { EVENT_KINDS, type EventKind, type SearchEvent } from './events.js'
import { openIndex, readManifest } from './index-read.js'
import { catchUpIndex } from './indexer.js'
import { type LogPosition, type LoggedEvent, appendEvents, ensureMemory, readEvents, readLogState } from './log.js'
import { search } from './query.js'
import { MAGIC, MAGIC_V1 } from './segment.js'
import { termsOf } from './tokens.js'

const align8 = (n: number): number => (n + 7) & ~7

/** The format 1 writer as it was (src/memory/segment.ts before format 2), for files such a version left. */
function buildV1(events: LoggedEvent[], from: LogPosition, to: LogPosition): Buffer {
  const HOSTS = ['claude', 'codex', 'gemini']
  const n = events.length
  const postings = new Map<number, number[]>()
  const projectIds = new Map<string, number>()
  const ts = new Float64Array(n)
  const logSegment = new Uint32Array(n)
  const logOffset = new Float64Array(n)
  const logLength = new Uint32Array(n)
  const lengths = new Uint16Array(n)
  const kinds = new Uint8Array(n)
  const projects = new Uint16Array(n)
  const hosts = new Uint8Array(n)
  let sumLength = 0
  let total = 0
  for (let d = 0; d < n; d++) {
    const { event, segment, offset, length } = events[d]!
    const { tf, length: dl } = termsOf(event.text, event.paths ?? [])
    for (const [h, c] of tf) {
      let list = postings.get(h)
      if (list === undefined) postings.set(h, (list = []))
      list.push(d, Math.min(c, 0xffff))
      total++
    }
    ts[d] = event.ts ? Date.parse(event.ts) : 0
    logSegment[d] = segment
    logOffset[d] = offset
    logLength[d] = length
    lengths[d] = Math.min(dl, 0xffff)
    sumLength += lengths[d]!
    kinds[d] = Math.max(0, EVENT_KINDS.indexOf(event.kind as EventKind))
    let p = projectIds.get(event.project)
    if (p === undefined) projectIds.set(event.project, (p = projectIds.size))
    projects[d] = p
    hosts[d] = Math.max(0, HOSTS.indexOf(event.host))
  }
  const hashes = Float64Array.from(postings.keys()).sort()
  const starts = new Uint32Array(hashes.length + 1)
  const docIds = new Uint32Array(total)
  const tfs = new Uint16Array(total)
  let at = 0
  for (let i = 0; i < hashes.length; i++) {
    starts[i] = at
    const list = postings.get(hashes[i]!)!
    for (let j = 0; j < list.length; j += 2) {
      docIds[at] = list[j]!
      tfs[at] = list[j + 1]!
      at++
    }
  }
  starts[hashes.length] = at
  const header = { docs: n, terms: hashes.length, postings: total, sumLength, projects: [...projectIds.keys()], from, to }
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8')
  const parts: ArrayBufferView[] = [hashes, starts, docIds, tfs, ts, logSegment, logOffset, logLength, lengths, kinds, projects, hosts]
  const out = Buffer.alloc(align8(8 + headerBytes.length) + parts.reduce((s, p) => s + align8(p.byteLength), 0))
  out.writeUInt32LE(MAGIC_V1, 0)
  out.writeUInt32LE(headerBytes.length, 4)
  headerBytes.copy(out, 8)
  let pos = align8(8 + headerBytes.length)
  for (const p of parts) {
    out.set(new Uint8Array(p.buffer, p.byteOffset, p.byteLength), pos)
    pos += align8(p.byteLength)
  }
  return out
}

const event = (i: number, text: string, kind: EventKind = 'request', host: SearchEvent['host'] = 'claude'): SearchEvent => ({
  id: `0000000000${i.toString(16).padStart(2, '0')}`,
  kind,
  ts: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
  project: i % 2 ? '/w/app' : '/w/lib',
  session: 's1',
  host,
  text,
  transcript: '/t.jsonl',
  line: i + 1,
})

describe('format 1 index segments', () => {
  it('are searched as they are, then converted to format 2 by the next catch-up', async () => {
    const m = await ensureMemory(tempDir('bm-legacy-'))
    const texts = ['fix the resume.go parser', 'deploy the staging cluster', 'the parser fails on resume', 'parseLine in src/cmd/resume.go']
    await appendEvents(
      m,
      await readLogState(m),
      texts.map((t, i) => event(i, t, i === 1 ? 'commit' : 'request', i === 2 ? 'codex' : 'claude')),
      {},
    )
    const state = await readLogState(m)
    const end = { segment: state.segment, offset: state.committed }
    const logged: LoggedEvent[] = []
    await readEvents(m, state, { segment: 0, offset: 0 }, 1_000, async (events) => {
      logged.push(...events)
    })
    writeFileSync(join(m.index, 'seg-old.bin'), buildV1(logged, { segment: 0, offset: 0 }, end))
    const v1 = { version: 1, segments: [{ file: 'seg-old.bin', docs: 4, from: { segment: 0, offset: 0 }, to: end }], upTo: end }
    writeFileSync(join(m.index, 'manifest.json'), JSON.stringify(v1))

    const ask = async (query: string): Promise<string[]> => {
      const index = await openIndex(m)
      try {
        const hits = await search(m, index, { query, limit: 10, now: Date.UTC(2026, 0, 2) })
        return hits.map((h) => `${h.id} ${h.kind} ${h.host} ${h.line}`)
      } finally {
        for (const s of index.segments) s.close()
      }
    }
    const before = await ask('resume.go parser')
    expect(before).toEqual(['000000000000 request claude 1', '000000000003 request claude 4', '000000000002 request codex 3'])
    expect(await ask('staging')).toEqual(['000000000001 commit claude 2'])

    const run = await catchUpIndex(m)
    expect(run).toMatchObject({ converted: 1, added: 0 })
    const manifest = await readManifest(m)
    expect(manifest.version).toBe(2)
    const files = readdirSync(m.index).filter((f) => f.endsWith('.bin'))
    expect(files).toEqual([manifest.segments[0]!.file]) // the format 1 file is gone
    expect(readFileSync(join(m.index, files[0]!)).readUInt32LE(0)).toBe(MAGIC)
    expect(await ask('resume.go parser')).toEqual(before)
  })

  it('are built again from the log when one cannot be read', async () => {
    const m = await ensureMemory(tempDir('bm-legacy-'))
    await appendEvents(m, await readLogState(m), [event(0, 'alpha beta'), event(1, 'gamma alpha')], {})
    const state = await readLogState(m)
    const end = { segment: state.segment, offset: state.committed }
    writeFileSync(
      join(m.index, 'manifest.json'),
      JSON.stringify({ version: 1, segments: [{ file: 'gone.bin', docs: 2, from: { segment: 0, offset: 0 }, to: end }], upTo: end }),
    )
    const run = await catchUpIndex(m)
    expect(run).toMatchObject({ converted: 0, added: 2 })
    const index = await openIndex(m)
    expect((await search(m, index, { query: 'alpha', limit: 10, now: 0 })).map((h) => h.line).sort()).toEqual([1, 2])
    for (const s of index.segments) s.close()
  })
})
