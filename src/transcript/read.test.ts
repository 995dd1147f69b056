import { appendFile, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { jsonl, prompt } from '../../test/helpers/jsonl.js'
import { readTranscript } from './read.js'
import type { TranscriptEntry } from './types.js'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bm-read-'))
})

async function readAll(path: string, cursor?: Parameters<typeof readTranscript>[1], maxLineBytes?: number) {
  const entries: TranscriptEntry[] = []
  const stats = await readTranscript(path, cursor, (e) => entries.push(e), maxLineBytes ? { maxLineBytes } : {})
  return { entries, stats }
}

const texts = (entries: TranscriptEntry[]) => entries.map((e) => (e.kind === 'prompt' ? e.text : e.kind))

describe('readTranscript', () => {
  it('reads every line and counts what it skipped', async () => {
    const p = join(dir, 't.jsonl')
    await writeFile(p, `${JSON.stringify(prompt('one'))}\nnot json\n\n${JSON.stringify(prompt('two'))}\n`)
    const { entries, stats } = await readAll(p)
    expect(texts(entries)).toEqual(['one', 'two'])
    expect(stats).toMatchObject({ lines: 4, skipped: 1, restarted: false, partialTail: false })
    expect(stats.cursor.offset).toBe(stats.bytesRead)
    expect(stats.cursor.lines).toBe(4)
  })

  it('handles CRLF line endings', async () => {
    const p = join(dir, 'crlf.jsonl')
    await writeFile(p, `${JSON.stringify(prompt('a'))}\r\n${JSON.stringify(prompt('b'))}\r\n`)
    const { entries, stats } = await readAll(p)
    expect(texts(entries)).toEqual(['a', 'b'])
    expect(stats.skipped).toBe(0)
  })

  it('leaves a truncated last line for the next read, then reads only what was appended', async () => {
    const p = join(dir, 'grow.jsonl')
    const first = JSON.stringify(prompt('first'))
    const second = JSON.stringify(prompt('second'))
    await writeFile(p, `${first}\n${second.slice(0, 20)}`)
    const a = await readAll(p)
    expect(texts(a.entries)).toEqual(['first'])
    expect(a.stats.partialTail).toBe(true)
    expect(a.stats.cursor.offset).toBe(Buffer.byteLength(first) + 1)

    await appendFile(p, `${second.slice(20)}\n${JSON.stringify(prompt('third'))}\n`)
    const b = await readAll(p, a.stats.cursor)
    expect(texts(b.entries)).toEqual(['second', 'third'])
    expect(b.stats.bytesRead).toBe(Buffer.byteLength(`${second}\n${JSON.stringify(prompt('third'))}\n`))
    expect(b.entries[0]!.line).toBe(2)
    expect(b.stats.restarted).toBe(false)
  })

  it('consumes a complete last line without a newline', async () => {
    const p = join(dir, 'nonl.jsonl')
    await writeFile(p, JSON.stringify(prompt('only')))
    const { entries, stats } = await readAll(p)
    expect(texts(entries)).toEqual(['only'])
    expect(stats.partialTail).toBe(false)
  })

  it('starts again when the file shrank or was rewritten', async () => {
    const p = join(dir, 'rw.jsonl')
    await writeFile(p, jsonl([prompt('old one'), prompt('old two')]))
    const a = await readAll(p)
    await writeFile(p, jsonl([prompt('new')]))
    const b = await readAll(p, a.stats.cursor)
    expect(b.stats.restarted).toBe(true)
    expect(texts(b.entries)).toEqual(['new'])

    // Same size or larger but different first bytes: also a rewrite.
    const c0 = await readAll(p)
    await writeFile(p, jsonl([prompt('XYZ'), prompt('more'), prompt('and more')]))
    const c = await readAll(p, c0.stats.cursor)
    expect(c.stats.restarted).toBe(true)
    expect(texts(c.entries)).toEqual(['XYZ', 'more', 'and more'])
  })

  it('skips a line over the size cap without decoding it, and goes on', async () => {
    const p = join(dir, 'big.jsonl')
    const huge = JSON.stringify(prompt('x'.repeat(200_000)))
    await writeFile(p, `${JSON.stringify(prompt('before'))}\n${huge}\n${JSON.stringify(prompt('after'))}\n`)
    const { entries, stats } = await readAll(p, undefined, 100_000)
    expect(texts(entries)).toEqual(['before', 'after'])
    expect(stats.oversized).toBe(1)
    expect(stats.skipped).toBe(1)
  })

  it('reads lines that span many chunks', async () => {
    const p = join(dir, 'span.jsonl')
    const long = 'y'.repeat(3 * 1024 * 1024)
    await writeFile(p, jsonl([prompt(long), prompt('tail')]))
    const { entries } = await readAll(p)
    expect(entries.length).toBe(2)
    expect(entries[0]!.kind === 'prompt' && entries[0]!.text.length).toBe(long.length)
  })

  it('replaces invalid UTF-8 instead of failing', async () => {
    const p = join(dir, 'bad.jsonl')
    const line = Buffer.from(JSON.stringify(prompt('café')))
    const broken = Buffer.concat([line.subarray(0, 60), Buffer.from([0xff, 0xfe]), line.subarray(60), Buffer.from('\n')])
    await writeFile(p, Buffer.concat([broken, Buffer.from(`${JSON.stringify(prompt('ok'))}\n`)]))
    const { entries } = await readAll(p)
    expect(texts(entries)).toContain('ok')
  })
})
