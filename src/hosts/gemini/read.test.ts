import { appendFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scanHere } from '../../capture/scan.js'
import type { TranscriptEntry } from '../../transcript/types.js'
import { tempDir } from '../../../test/helpers/tmp.js'
import { readGeminiChat } from './read.js'

const TS = '2026-12-02T01:29:04.359Z'
const line = (r: object) => JSON.stringify(r) + '\n'
const user = (id: string, text: string) => ({ id, timestamp: TS, type: 'user', content: [{ text }] })
const reply = (id: string, content: string, toolCalls?: object[]) => ({
  id,
  timestamp: TS,
  type: 'gemini',
  content,
  model: 'gemini-3.8-flash',
  ...(toolCalls ? { toolCalls } : {}),
})
const write = (id: string, path: string) => ({
  id,
  name: 'write_file',
  args: { file_path: path, content: 'x\n' },
  result: [{ functionResponse: { id, name: 'write_file', response: { output: 'ok' } } }],
  status: 'success',
  resultDisplay: { originalContent: '', newContent: 'x\n', isNewFile: true },
})
const META = { sessionId: '68de3b6c-482f-47ca-9ec1-7c7b75e900df', projectHash: 'ab', startTime: TS, lastUpdated: TS, kind: 'main' }

const prompts = (es: TranscriptEntry[]) => es.flatMap((e) => (e.kind === 'prompt' ? [e.text] : []))

describe('readGeminiChat', () => {
  it('continues a JSONL chat from its cursor, and a resume checkpoint of the whole history adds only the new turn', async () => {
    const path = join(tempDir('gemini-read-'), 'session-2026-12-02T01-29-68de3b6c.jsonl')
    const turn1 = [user('u1', 'create a.txt'), reply('g1', ''), reply('g1', '', [write('write_file__1', '/w/proj/a.txt')]), reply('g2', 'Done.')]
    writeFileSync(path, [META, ...turn1].map(line).join(''))
    const first: TranscriptEntry[] = []
    const r1 = await readGeminiChat(path, undefined, undefined, (e) => first.push(e))
    expect(prompts(first)).toEqual(['create a.txt'])
    // Kept as JSON between captures.
    const kept = JSON.parse(JSON.stringify(r1.seen)) as number[]
    appendFileSync(path, [{ $set: { messages: turn1.filter((m, i) => i !== 1) } }, user('u2', 'say hi again'), reply('g3', 'hi')].map(line).join(''))
    const second: TranscriptEntry[] = []
    const r2 = await readGeminiChat(path, r1.cursor, kept, (e) => second.push(e))
    expect(r2.restarted).toBe(false)
    expect(prompts(second)).toEqual(['say hi again'])
    expect(second.filter((e) => e.kind === 'tool_result')).toEqual([])
    expect(
      second
        .filter((e) => e.kind === 'assistant' && e.block.type === 'text')
        .map((e) => (e.kind === 'assistant' && e.block.type === 'text' ? e.block.text : '')),
    ).toEqual(['hi'])
  })

  it('reads an older .json session whole each time, and only its new messages', async () => {
    const path = join(tempDir('gemini-read-'), 'session-2026-01-10T20-00-fa4593e0.json')
    const session = (messages: object[]) => JSON.stringify({ sessionId: 'fa4593e0', projectHash: 'ab', startTime: TS, lastUpdated: TS, messages }, null, 2)
    writeFileSync(path, session([{ id: 'a', timestamp: TS, type: 'user', content: 'first' }]))
    const first: TranscriptEntry[] = []
    const r1 = await readGeminiChat(path, undefined, undefined, (e) => first.push(e))
    expect(prompts(first)).toEqual(['first'])
    writeFileSync(
      path,
      session([
        { id: 'a', timestamp: TS, type: 'user', content: 'first' },
        { id: 'b', timestamp: TS, type: 'user', content: 'second' },
      ]),
    )
    const second: TranscriptEntry[] = []
    const r2 = await readGeminiChat(path, r1.cursor, r1.seen, (e) => second.push(e))
    expect(prompts(second)).toEqual(['second'])
    expect(second[0]!.line).toBe(2)
    expect(r2.cursor.offset).toBe(statSync(path).size)
    // Caught mid-write: nothing read, the cursor stays.
    writeFileSync(path, session([]).slice(0, 40))
    const r3 = await readGeminiChat(path, r2.cursor, r2.seen, () => expect.unreachable())
    expect(r3).toMatchObject({ partialTail: true, cursor: r2.cursor })
  })

  it('keeps what it read in the state a capture saves, so that a second scan adds only the new turn', async () => {
    const dir = tempDir('gemini-scan-')
    const path = join(dir, 'session.jsonl')
    writeFileSync(path, [META, user('u1', 'create a.txt'), reply('g1', '', [write('write_file__1', join(dir, 'a.txt'))])].map(line).join(''))
    const ctx = { projectRoot: dir }
    const one = await scanHere({ host: 'gemini', transcript: path, cursor: undefined, state: undefined, ctx })
    expect(one.state.seen?.length).toBeGreaterThan(0)
    appendFileSync(path, [{ $set: { messages: [user('u1', 'create a.txt')] } }, user('u2', 'and b.txt')].map(line).join(''))
    const state = JSON.parse(JSON.stringify(one.state)) as typeof one.state
    const two = await scanHere({ host: 'gemini', transcript: path, cursor: one.stats.cursor, state, ctx })
    expect(two.delta.prompts).toBe(1)
    expect(two.state.counts.prompts).toBe(2)
    expect(Object.keys(two.state.files)).toEqual(['a.txt'])
  })
})
