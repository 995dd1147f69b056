import { execFileSync } from 'node:child_process'
import { closeSync, constants, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readStdin } from './stdin.js'

const dir = mkdtempSync(join(tmpdir(), 'bm-stdin-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** readStdin on a regular file opened as `fd`, as `bookmark stop < payload.json` gives it. */
async function fromFile(content: string | Buffer, maxBytes?: number) {
  const path = join(dir, `p${Math.random().toString(16).slice(2)}`)
  writeFileSync(path, content)
  const fd = openSync(path, 'r')
  try {
    return await readStdin(fd, maxBytes === undefined ? {} : { maxBytes })
  } finally {
    closeSync(fd)
  }
}

describe('readStdin from a regular file', () => {
  it('reads the whole payload, multi-byte characters included', async () => {
    const payload = JSON.stringify({ session_id: 's', prompt: 'Grüße, 東京 ✓'.repeat(5_000) })
    expect(await fromFile(payload)).toEqual({ text: payload, truncated: false, timedOut: false })
    expect(await fromFile('')).toEqual({ text: '', truncated: false, timedOut: false })
  })

  it('keeps only the first maxBytes of a larger file and says so', async () => {
    const r = await fromFile('x'.repeat(100_000), 70_000)
    expect(r.truncated).toBe(true)
    expect(r.text).toBe('x'.repeat(70_000))
  })

  it('decodes invalid UTF-8 the way Buffer does', async () => {
    const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x22, 0xe2, 0x82, 0x7d])
    expect((await fromFile(bytes)).text).toBe(bytes.toString('utf8'))
  })
})

describe('readStdin from a pipe', () => {
  /** A named pipe's read end, opened blocking as a shell's `|` gives it, and a write end. */
  function fifo(): { r: number; w: number } {
    const path = join(dir, `f${Math.random().toString(16).slice(2)}`)
    execFileSync('mkfifo', [path])
    const w = openSync(path, constants.O_RDWR) // a FIFO opened read-write never waits for a reader
    return { r: openSync(path, 'r'), w }
  }

  it('reads what was written up to end of file, without a warning on stderr', async () => {
    const warnings: string[] = []
    const onWarning = (w: Error): number => warnings.push(w.name)
    process.on('warning', onWarning)
    const { r, w } = fifo()
    const payload = JSON.stringify({ session_id: 's', prompt: 'Grüße' })
    writeSync(w, payload)
    closeSync(w)
    try {
      expect(await readStdin(r)).toEqual({ text: payload, truncated: false, timedOut: false })
    } finally {
      closeSync(r)
    }
    await new Promise((resolve) => setImmediate(resolve)) // a warning is emitted on the next tick
    process.off('warning', onWarning)
    expect(warnings).toEqual([])
  })

  it('gives up at the deadline on a pipe that stays open, keeping what came', async () => {
    const { r, w } = fifo()
    writeSync(w, '{"session_id":')
    const started = Date.now()
    try {
      expect(await readStdin(r, { timeoutMs: 100 })).toEqual({ text: '{"session_id":', truncated: false, timedOut: true })
    } finally {
      closeSync(r)
      closeSync(w)
    }
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('stops at maxBytes on a pipe', async () => {
    const { r, w } = fifo()
    writeSync(w, 'x'.repeat(60_000))
    closeSync(w)
    try {
      expect(await readStdin(r, { maxBytes: 50_000 })).toEqual({ text: 'x'.repeat(50_000), truncated: true, timedOut: false })
    } finally {
      closeSync(r)
    }
  })
})
