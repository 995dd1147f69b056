/**
 * A real session replayed turn by turn through the Stop hook, as Claude Code would run it: after each
 * assistant turn the transcript is cut there and a Stop payload is sent. In total each byte of the
 * transcript is read once, and the end state equals one capture of the whole file.
 */
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli, sandbox } from './helpers/cli.js'
import { CORPUS_PRESENT, claudePath, firstCwd } from './helpers/corpus.js'
import { stateDir } from './helpers/narrative.js'

const NAME = 'cc-2.1.36-pr-link-compact1-53ea1606.jsonl'

/** Cut points: after each main-thread assistant line that ends in text (the end of a turn). */
function turns(raw: string): { chunk: string; last: string }[] {
  const lines = raw.split(/(?<=\n)/)
  const out: { chunk: string; last: string }[] = []
  let chunk = ''
  for (const line of lines) {
    chunk += line
    try {
      const o = JSON.parse(line)
      const content = o.type === 'assistant' && !o.isSidechain ? o.message?.content : undefined
      const block = Array.isArray(content) ? content[content.length - 1] : undefined
      if (block?.type === 'text' && typeof block.text === 'string') {
        out.push({ chunk, last: block.text })
        chunk = ''
      }
    } catch {
      // not a line of interest
    }
  }
  if (chunk) out.push({ chunk, last: '' })
  return out
}

describe.skipIf(!CORPUS_PRESENT)('turn-by-turn replay through the Stop hook', () => {
  it(`${NAME}: each byte read once, same extraction as one capture`, async () => {
    const sb = await sandbox()
    const root = (await firstCwd(claudePath(NAME)))!
    const esc = (s: string) => JSON.stringify(s).slice(1, -1)
    const a = join(sb.dir, 'replayed')
    const b = join(sb.dir, 'whole')
    for (const d of [a, b]) await mkdir(join(d, '.git'), { recursive: true })
    const raw = await readFile(claudePath(NAME), 'utf8')
    const tA = join(sb.dir, 'replayed.jsonl')
    const tB = join(sb.dir, 'whole.jsonl')
    await writeFile(tA, '')
    await writeFile(tB, raw.split(esc(root)).join(esc(b)))

    const pieces = turns(raw.split(esc(root)).join(esc(a)))
    expect(pieces.length).toBeGreaterThan(30)
    for (const { chunk, last } of pieces) {
      await appendFile(tA, chunk)
      const r = await runCli(['stop'], {
        env: sb.env,
        cwd: a,
        input: JSON.stringify({ session_id: 'S', transcript_path: tA, cwd: a, hook_event_name: 'Stop', stop_hook_active: true, last_assistant_message: last }),
      })
      expect(r.code).toBe(0)
      expect(r.stdout).toBe('')
    }
    const whole = await runCli(['snapshot', '--transcript', tB, '--session-id', 'S', '--cwd', b, '--trigger', 'stop'], { env: sb.env })
    expect(whole.code, whole.stderr).toBe(0)

    const cursorA = JSON.parse(await readFile(join(await stateDir(sb.env.BOOKMARK_HOME!, a), 'cursors', 'S.json'), 'utf8'))
    const cursorB = JSON.parse(await readFile(join(await stateDir(sb.env.BOOKMARK_HOME!, b), 'cursors', 'S.json'), 'utf8'))
    expect(cursorA.captures).toBe(pieces.length)
    expect(cursorA.bytesReadTotal).toBe(Buffer.byteLength(raw.split(esc(root)).join(esc(a))))
    const stateA = JSON.parse(await readFile(join(await stateDir(sb.env.BOOKMARK_HOME!, a), 'cursors', 'S.state.json'), 'utf8')).state
    const stateB = JSON.parse(await readFile(join(await stateDir(sb.env.BOOKMARK_HOME!, b), 'cursors', 'S.state.json'), 'utf8')).state
    expect(JSON.stringify(stateA).split(a).join('<root>')).toBe(JSON.stringify(stateB).split(b).join('<root>'))
    // The heads agree too: the work times the narrative rules read without the state.
    expect(cursorA.work).toEqual(cursorB.work)
    expect(cursorA.lastAssistantText).toBe(cursorB.lastAssistantText)
  })
})
