import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs'
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
