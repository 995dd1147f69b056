import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CORPUS_PRESENT, claudeFiles, claudePath, firstCwd } from '../../test/helpers/corpus.js'
import { type Scan, type ScanInput, scan, scanHere, scanInWorker } from './scan.js'

// The worker runs the built dist/cli/scan-worker.cjs (`npm test` builds first).
const WORKER = new URL('../../dist/cli/scan-worker.cjs', import.meta.url)

/** A scan as plain data: what a capture goes on to store and decide from. */
function plain(s: Scan): unknown {
  return { state: JSON.parse(JSON.stringify(s.state)) as unknown, delta: { ...s.delta, touched: [...s.delta.touched] }, stats: s.stats }
}

async function inWorker(input: ScanInput): Promise<Scan> {
  const s = await scanInWorker(input)
  if (s === undefined) throw new Error('the scan worker did not run')
  return s
}

describe.skipIf(!existsSync(WORKER))('scan in a worker thread', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'bookmark-scan-'))
  afterAll(() => rmSync(tmp, { recursive: true, force: true }))

  it.skipIf(!CORPUS_PRESENT)('gives the state, delta and stats of a scan on this thread, for every corpus transcript', async () => {
    const files = claudeFiles()
    expect(files.length).toBeGreaterThan(20)
    for (const name of files) {
      const path = claudePath(name)
      const input: ScanInput = { transcript: path, cursor: undefined, state: undefined, ctx: { projectRoot: (await firstCwd(path)) ?? '/' } }
      expect(plain(await inWorker(input)), name).toEqual(plain(await scanHere(input)))
    }
  })

  it.skipIf(!CORPUS_PRESENT)('continues a state from a cursor as this thread does, and starts again when the cursor does not fit', async () => {
    const path = claudePath('cc-2.1.17-long-compact2-askuser-f4237e82.jsonl')
    const ctx = { projectRoot: (await firstCwd(path)) ?? '/' }
    const first = await scanHere({ transcript: path, cursor: undefined, state: undefined, ctx })
    // Half the file as a transcript of its own, then the whole file read on from its cursor.
    const half = join(tmp, 'half.jsonl')
    const text = readFileSync(path, 'utf8')
    writeFileSync(half, text.slice(0, text.indexOf('\n', text.length / 2) + 1))
    const head = await scanHere({ transcript: half, cursor: undefined, state: undefined, ctx })
    const whole = join(tmp, 'whole.jsonl')
    writeFileSync(whole, text)
    const fresh = () => JSON.parse(JSON.stringify(head.state)) as Scan['state']
    const resumed = await inWorker({ transcript: whole, cursor: head.stats.cursor, state: fresh(), ctx })
    expect(plain(resumed)).toEqual(plain(await scanHere({ transcript: whole, cursor: head.stats.cursor, state: fresh(), ctx })))
    expect(resumed.stats.restarted).toBe(false)
    expect(JSON.stringify(resumed.state)).toBe(JSON.stringify(first.state))
    // A cursor past the end: read again from the start, in both.
    const past = { ...head.stats.cursor, offset: text.length * 2 }
    const restarted = await inWorker({ transcript: half, cursor: past, state: fresh(), ctx })
    expect(restarted.stats.restarted).toBe(true)
    expect(plain(restarted)).toEqual(plain(await scanHere({ transcript: half, cursor: past, state: fresh(), ctx })))
  })

  it('gives back its dictionaries without a prototype, as a scan on this thread does', async () => {
    const path = join(tmp, 'proto.jsonl')
    const line = (o: unknown): string => `${JSON.stringify(o)}\n`
    writeFileSync(
      path,
      line({ type: 'assistant', uuid: 'a', timestamp: '2026-01-01T00:00:00Z', message: { id: 'm', model: 'constructor', content: [{ type: 'tool_use', id: 't', name: 'toString', input: {} }] } }),
    )
    const s = await inWorker({ transcript: path, cursor: undefined, state: undefined, ctx: { projectRoot: '/p' } })
    expect(Object.getPrototypeOf(s.state.models)).toBeNull()
    expect(Object.getPrototypeOf(s.state.tools)).toBeNull()
    expect(s.state.models.constructor).toBe(1)
    expect(s.state.tools.toString).toBe(1)
  })

  it('rejects with the error of a missing transcript, as this thread does', async () => {
    const input: ScanInput = { transcript: join(tmp, 'missing.jsonl'), cursor: undefined, state: undefined, ctx: { projectRoot: '/p' } }
    await expect(scanHere(input)).rejects.toMatchObject({ code: 'ENOENT' })
    await expect(scanInWorker(input)).rejects.toMatchObject({ code: 'ENOENT', message: expect.stringContaining('missing.jsonl') })
  })

  it('gives the same scan whichever side of the threshold a read falls', async () => {
    const path = join(tmp, 'small.jsonl')
    writeFileSync(path, `${JSON.stringify({ type: 'user', uuid: 'u', message: { role: 'user', content: 'hello' } })}\n`)
    const input: ScanInput = { transcript: path, cursor: undefined, state: undefined, ctx: { projectRoot: '/p' } }
    expect(plain(await scan(input, 0))).toEqual(plain(await scan(input)))
  })
})
