import { appendFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { jsonl, prompt } from '../../test/helpers/jsonl.js'
import { tempDir } from '../../test/helpers/tmp.js'
import { parseLine } from '../hosts/claude/lines.js'
import { decodeLine, readTranscript } from './read.js'
import type { TranscriptEntry } from './types.js'

let dir: string
beforeEach(() => {
  dir = tempDir('bm-read-')
})

async function readAll(path: string, cursor?: Parameters<typeof readTranscript>[1], maxLineBytes?: number) {
  const entries: TranscriptEntry[] = []
  const stats = await readTranscript(path, cursor, parseLine, (e) => entries.push(e), maxLineBytes ? { maxLineBytes } : {})
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

describe('readTranscript: splitting lines out of the chunks it reads', () => {
  const CAP = 800
  /** Every shape of line the splitter must cut right, with one over the cap and a complete last line without a newline. */
  function awkwardFile(): Buffer {
    const bad = Buffer.from(JSON.stringify(prompt('broken é')))
    return Buffer.concat([
      Buffer.from(`${JSON.stringify(prompt('multi-byte: é € 😀 at every offset'))}\n`),
      Buffer.from(`${JSON.stringify(prompt('crlf'))}\r\n`),
      Buffer.from('\n\r\n   \n'), // an empty line, a lone CR, only spaces
      Buffer.from('not json\n'),
      Buffer.concat([bad.subarray(0, bad.indexOf(' é')), Buffer.from([0xff, 0xe2, 0x82]), bad.subarray(bad.indexOf(' é')), Buffer.from('\n')]),
      Buffer.from(`${JSON.stringify(prompt('€'.repeat(100)))}\n`), // ~630 bytes: longer than the small chunks, under the cap
      Buffer.from(`${JSON.stringify(prompt('x'.repeat(CAP)))}\n`), // over the cap
      Buffer.from(`${JSON.stringify(prompt('after the big one'))}\n`),
      Buffer.from(JSON.stringify(prompt('last, no newline 😀'))),
    ])
  }

  it('gives the same entries, counts and cursor for every chunk size', async () => {
    const p = join(dir, 'awkward.jsonl')
    const bytes = awkwardFile()
    await writeFile(p, bytes)
    const whole = await readTranscript(p, undefined, parseLine, () => undefined, { maxLineBytes: CAP })
    const seen: string[] = []
    const reference = await readTranscript(p, undefined, parseLine, (e) => seen.push(e.kind === 'prompt' ? e.text : e.kind), { maxLineBytes: CAP })
    expect(seen).toEqual(['multi-byte: é € 😀 at every offset', 'crlf', 'broken\uFFFD\uFFFD é', '€'.repeat(100), 'after the big one', 'last, no newline 😀'])
    expect(reference).toMatchObject({ lines: 11, skipped: 2, oversized: 1, partialTail: false, entries: 6 })
    expect(reference.cursor.offset).toBe(bytes.length)
    for (const chunkBytes of [1, 2, 3, 4, 5, 7, 16, 64, 100, 799, 800, 801, 4096]) {
      for (const backgroundBytes of [undefined, 0]) {
        const got: string[] = []
        const stats = await readTranscript(p, undefined, parseLine, (e) => got.push(e.kind === 'prompt' ? e.text : e.kind), {
          maxLineBytes: CAP,
          chunkBytes,
          backgroundBytes,
        })
        expect({ chunkBytes, backgroundBytes, got, stats }).toEqual({ chunkBytes, backgroundBytes, got: seen, stats: whole })
      }
    }
  })

  it('resumes from a cursor cut anywhere, whatever the chunk size', async () => {
    const p = join(dir, 'resume.jsonl')
    const bytes = awkwardFile()
    const all: string[] = []
    await writeFile(p, bytes)
    await readTranscript(p, undefined, parseLine, (e) => all.push(e.kind), { maxLineBytes: CAP })
    for (const cut of [1, 37, 38, 100, 200, 333, 900, 1500, bytes.length - 5]) {
      for (const [chunkBytes, backgroundBytes] of [
        [3, undefined],
        [64, undefined],
        [64, 0],
      ] as const) {
        await writeFile(p, bytes.subarray(0, cut))
        const got: string[] = []
        const first = await readTranscript(p, undefined, parseLine, (e) => got.push(e.kind), { maxLineBytes: CAP, chunkBytes, backgroundBytes })
        await writeFile(p, bytes)
        const second = await readTranscript(p, first.cursor, parseLine, (e) => got.push(e.kind), { maxLineBytes: CAP, chunkBytes, backgroundBytes })
        expect({ cut, chunkBytes, backgroundBytes, got }).toEqual({ cut, chunkBytes, backgroundBytes, got: all })
        expect(second.cursor.offset).toBe(bytes.length)
        expect(second.restarted).toBe(false)
      }
    }
  })

  it('leaves an unterminated last line over the cap for the next read', async () => {
    const p = join(dir, 'bigtail.jsonl')
    const head = `${JSON.stringify(prompt('kept'))}\n`
    await writeFile(p, `${head}${JSON.stringify(prompt('y'.repeat(2_000)))}`)
    for (const chunkBytes of [7, 64, 4096]) {
      const { entries, stats } = await (async () => {
        const entries: TranscriptEntry[] = []
        const stats = await readTranscript(p, undefined, parseLine, (e) => entries.push(e), { maxLineBytes: 1_000, chunkBytes })
        return { entries, stats }
      })()
      expect(texts(entries)).toEqual(['kept'])
      expect(stats).toMatchObject({ lines: 1, partialTail: true, oversized: 0 })
      expect(stats.cursor.offset).toBe(Buffer.byteLength(head))
    }
  })

  it('reads a line many chunks long on its own, then goes on with the short ones', async () => {
    const p = join(dir, 'grow.jsonl')
    const lines = [prompt('a'), prompt('é'.repeat(5_000)), ...Array.from({ length: 50 }, (_, i) => prompt(`short ${i}`))]
    await writeFile(p, jsonl(lines))
    const got: TranscriptEntry[] = []
    const stats = await readTranscript(p, undefined, parseLine, (e) => got.push(e), { chunkBytes: 64 })
    expect(texts(got)).toEqual(['a', 'é'.repeat(5_000), ...Array.from({ length: 50 }, (_, i) => `short ${i}`)])
    expect(stats).toMatchObject({ lines: 52, skipped: 0, partialTail: false })
  })
})

describe('readTranscript: a callback that throws', () => {
  it.each([undefined, 0])('passes the error on after the read in flight has settled (background from %s bytes)', async (backgroundBytes) => {
    const p = join(dir, 'throws.jsonl')
    await writeFile(p, jsonl(Array.from({ length: 200 }, (_, i) => prompt(`line ${i}`))))
    const boom = new Error('boom')
    await expect(
      readTranscript(
        p,
        undefined,
        parseLine,
        () => {
          throw boom
        },
        { chunkBytes: 512, backgroundBytes },
      ),
    ).rejects.toBe(boom)
  })
})

describe('decodeLine', () => {
  const pad = 'x'.repeat(2000) // past the length from which the bulk conversion is used
  const cases: [string, Buffer][] = [
    ['a Read result with arrows', Buffer.from(`{"content":"${'     1→const a = 1\\n'.repeat(200)}"}`)],
    ['astral characters (surrogate pairs)', Buffer.from(`{"t":"${pad}😀𝄞"}`)],
    ['a byte order mark first', Buffer.from(`\uFEFF{"t":"${pad}é"}`)],
    ['line and paragraph separators, NBSP at both ends', Buffer.from(`\u00A0{"t":"${pad}\u2028\u2029"}\u00A0`)],
    ['ASCII only', Buffer.from(`{"t":"${pad}"}`)],
    ['a short line', Buffer.from('{"t":"→"}')],
    [
      'malformed UTF-8 (a cut sequence, a lone continuation byte)',
      Buffer.concat([Buffer.from(`{"t":"${pad}`), Buffer.from([0xe2, 0x86, 0x41, 0x80]), Buffer.from('"}')]),
    ],
    [
      'an overlong encoding and an encoded surrogate',
      Buffer.concat([Buffer.from(`{"t":"${pad}`), Buffer.from([0xc0, 0xaf, 0xed, 0xa0, 0x80]), Buffer.from('"}')]),
    ],
  ]
  it.each(cases)('gives what toString("utf8") gives: %s', (_, bytes) => {
    const framed = Buffer.concat([Buffer.from('ab'), bytes, Buffer.from('cd')])
    expect(decodeLine(framed, 2, 2 + bytes.length)).toBe(framed.toString('utf8', 2, 2 + bytes.length))
  })
})
