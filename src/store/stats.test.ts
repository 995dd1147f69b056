import { execFileSync } from 'node:child_process'
import { closeSync, constants, openSync, readFileSync, readSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../test/helpers/tmp.js'
import { figuresOf, foldStats, keepStatsSmall, noteHandoff, noteRestore, readStats, restoresOf } from './stats.js'

const T = Date.parse('2026-03-02T10:00:00Z')

describe('continuity figures (stats.jsonl)', () => {
  it('notes restores and handoffs a line each, and reads them back as numbers', async () => {
    const path = join(tempDir('bm-stats-'), 'stats.jsonl')
    noteRestore(path, 4_210, 'startup', T)
    noteRestore(path, 1_800, 'compact', T + 60_000)
    noteRestore(path, 900, 'something-else', T + 120_000) // a source not in the list counts as a start
    noteHandoff(path, T - 5_000, true, T + 1)
    noteHandoff(path, T - 5_000, false, T + 2) // two hooks found the same handoff: one
    noteHandoff(path, T + 30_000, false, T + 3)
    expect(readFileSync(path, 'utf8').split('\n')[0]).toBe(`{"k":"r","c":4210,"s":"startup","t":${T}}`)
    const f = await readStats(path)
    expect(f).toEqual({
      restores: 3,
      restoreChars: 6_910,
      largestRestore: 4_210,
      lastRestore: { chars: 900, at: T + 120_000, source: 'startup' },
      handoffsWritten: 2,
      handoffsAnswered: 1,
      lastHandoffAt: T + 30_000,
      ignored: 0,
    })
    expect(restoresOf(f)).toEqual({ count: 3, average: 2_303, largest: 4_210, last: { chars: 900, at: '2026-03-02T10:02:00.000Z', source: 'startup' } })
  })

  it('takes nothing but numbers: other lines are left out and counted', () => {
    const lines = [
      '<img src=x onerror=alert(1)>',
      '{"k":"r","c":"<b>5000</b>","s":"startup","t":1}',
      '{"k":"r","c":-1,"s":"startup","t":1}',
      '{"k":"r","c":1.5,"s":"startup","t":1}',
      '{"k":"r","c":10,"s":"<script>alert(1)</script>","t":1}',
      '{"k":"h","w":1e300,"a":1,"t":1}',
      '{"k":"h","w":5,"a":"yes","t":1}',
      '{"k":"f","r":1,"c":1,"m":1,"h":1,"a":1,"w":1}',
      'null',
      '{"k":"r","c":120,"s":"resume","t":7}',
    ]
    const f = figuresOf(lines.join('\n'))
    expect(f).toMatchObject({ restores: 1, restoreChars: 120, handoffsWritten: 0, lastHandoffAt: null, ignored: 9 })
  })

  it('never fails a hook: no folder, or a symbolic link where the file goes, and nothing is written', () => {
    const dir = tempDir('bm-stats-')
    expect(() => noteRestore(join(dir, 'missing', 'stats.jsonl'), 10, 'startup', T)).not.toThrow()
    const target = join(dir, 'elsewhere.txt')
    writeFileSync(target, 'untouched\n')
    symlinkSync(target, join(dir, 'stats.jsonl'))
    expect(() => noteRestore(join(dir, 'stats.jsonl'), 10, 'startup', T)).not.toThrow()
    expect(readFileSync(target, 'utf8')).toBe('untouched\n')
  })

  it('never waits on a FIFO planted where the file goes, with or without a reader, and writes nothing to it', () => {
    const dir = tempDir('bm-stats-')
    const fifo = join(dir, 'stats.jsonl')
    execFileSync('mkfifo', [fifo])
    expect(() => noteRestore(fifo, 10, 'startup', T)).not.toThrow() // no reader: the open fails at once
    // With a reader holding it open the open succeeds: the append sees a FIFO and writes nothing to it.
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK)
    try {
      noteRestore(fifo, 10, 'startup', T)
      const got = (() => {
        try {
          return readSync(reader, Buffer.alloc(64))
        } catch {
          return 0 // EAGAIN: nothing there
        }
      })()
      expect(got).toBe(0)
    } finally {
      closeSync(reader)
    }
  })

  it('folds the oldest lines into one when past the cap, keeping every total', async () => {
    const path = join(tempDir('bm-stats-'), 'stats.jsonl')
    for (let i = 0; i < 400; i++) {
      noteRestore(path, 1_000 + i, i % 2 ? 'startup' : 'compact', T + i * 1_000)
      if (i % 50 === 0) noteHandoff(path, T + i * 1_000 - 1, i % 100 === 0, T + i * 1_000)
    }
    const before = await readStats(path)
    const text = readFileSync(path, 'utf8')
    expect(foldStats(text, text.length, T)).toBeUndefined()
    const cap = 4_096
    const folded = foldStats(text, cap, T + 1e6)!
    expect(folded.length).toBeLessThanOrEqual(cap)
    expect(folded.split('\n')[0]).toMatch(/^\{"k":"f","r":\d+,/)
    expect(figuresOf(folded)).toEqual(before)
    // Folded again (a fold into a fold), the same; a handoff noted again after its fold is not counted twice.
    expect(figuresOf(foldStats(folded, cap / 2, T + 2e6)!)).toEqual(before)
    expect(figuresOf(`${folded}${JSON.stringify({ k: 'h', w: T - 1, a: 0, t: T + 3e6 })}\n`).handoffsWritten).toBe(before.handoffsWritten)
    // On disk: within the cap after a capture, with the same figures.
    await keepStatsSmall(path, T + 1e6, undefined, cap)
    expect(readFileSync(path, 'utf8').length).toBeLessThanOrEqual(cap)
    expect(await readStats(path)).toEqual(before)
  })
})
