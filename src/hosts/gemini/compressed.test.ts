import { existsSync, readFileSync } from 'node:fs'
import { appendFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CORPUS } from '../../../test/helpers/corpus.js'
import { tempDir } from '../../../test/helpers/tmp.js'
import { isCompressionCheckpoint, scanChat } from './compressed.js'
import { headlessArgs } from './headless.js'

const SAMPLE = join(CORPUS, 'host-samples', 'gemini-0.61-session-2026-12-02T01-29-8c941e15.jsonl')
const HOOK_LOG = join(CORPUS, 'host-samples', 'gemini-0.61-hook-log.jsonl')
let lines: string[] = []
try {
  lines = readFileSync(SAMPLE, 'utf8').split('\n')
} catch {
  // corpus absent: skipped below
}

describe.skipIf(lines.length === 0)('a Gemini compression in the chat file (0.61 interactive, two turns)', () => {
  const checkpoints = lines.filter((l) => l.startsWith('{"$set":{"messages"'))

  it('is the checkpoint that starts again from <state_snapshot>, not the first one (session context only)', () => {
    expect(checkpoints).toHaveLength(2)
    expect(checkpoints.map(isCompressionCheckpoint)).toEqual([false, true])
  })

  it('a resume that writes the whole history again (the old summary, then later turns) is not one', () => {
    const rec = JSON.parse(checkpoints[1]!) as { $set: { messages: object[] } }
    const later = lines.filter((l) => l.includes('"say hi"') || l.includes('"content":"ok"')).map((l) => JSON.parse(l) as object)
    expect(later).toHaveLength(2)
    const resumed = JSON.stringify({ $set: { messages: [...rec.$set.messages, ...later] } })
    expect(isCompressionCheckpoint(resumed)).toBe(false)
  })

  it('scanChat reads whole lines past its mark and says whether a compression is among them', async () => {
    const dir = tempDir('bm-gem-')
    const file = join(dir, 'chat.jsonl')
    const cut = lines.findIndex((l) => l.startsWith('{"$set":{"sessionId"'))
    const head = lines.slice(0, cut).join('\n') + '\n'
    await writeFile(file, head)
    const first = await scanChat(file, 0)
    expect(first).toEqual({ bytes: Buffer.byteLength(head), compressed: false })
    // Half a line written: not read yet.
    await appendFile(file, lines[cut]!)
    expect(await scanChat(file, first.bytes)).toEqual({ bytes: first.bytes, compressed: false })
    await appendFile(file, '\n' + lines.slice(cut + 1).join('\n'))
    const second = await scanChat(file, first.bytes)
    expect(second.compressed).toBe(true)
    expect((await scanChat(file, second.bytes)).compressed).toBe(false)
  })
})

describe('headless Gemini by its command line', () => {
  it.skipIf(!existsSync(HOOK_LOG))('the command lines of the 0.61 hook log: -p runs are headless, the interactive one is not', () => {
    const log = readFileSync(HOOK_LOG, 'utf8')
    const seen = new Map<string, boolean>()
    for (const l of log.split('\n').filter(Boolean)) {
      const argv = (JSON.parse(l) as { parentCmd?: string[] }).parentCmd ?? []
      if (argv.length > 0) seen.set(argv.slice(3).join(' '), headlessArgs(argv))
    }
    expect(seen.get('-p create hello.txt --approval-mode yolo --output-format json')).toBe(true)
    expect(seen.get('-p say hi again --resume 03ebebae-2ded-4129-b9a8-befeccce18ad --output-format json')).toBe(true)
    expect(seen.get('--approval-mode yolo')).toBe(false)
  })

  it('--prompt= is headless; -i (--prompt-interactive) is not', () => {
    expect(headlessArgs(['node', 'gemini', '--prompt=go'])).toBe(true)
    expect(headlessArgs(['node', 'gemini', '-i', 'go'])).toBe(false)
    expect(headlessArgs(['node', 'gemini', '--prompt-interactive', 'go'])).toBe(false)
  })
})
