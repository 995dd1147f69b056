/**
 * Incremental capture: a real session captured piece by piece, as Stop hooks would, ends with exactly the
 * state of one capture of the whole file, and (cut at line ends) reads each byte once in total.
 */
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { capture } from '../src/capture/capture.js'
import { CORPUS_PRESENT, claudePath, firstCwd } from './helpers/corpus.js'
import { testDeps } from './helpers/deps.js'
import { stateDir } from './helpers/narrative.js'

async function cursorState(home: string, root: string, sid: string): Promise<unknown> {
  return JSON.parse(await readFile(join(await stateDir(home, root), 'cursors', `${sid}.state.json`), 'utf8')).state
}

async function run(name: string, cut: (text: string) => string[]) {
  const raw = await readFile(claudePath(name), 'utf8')
  const root = (await firstCwd(claudePath(name)))!
  const deps = await testDeps()
  const whole = join(deps.dir, 'whole')
  const parts = join(deps.dir, 'parts')
  for (const d of [whole, parts]) await mkdir(join(d, '.git'), { recursive: true })
  const rel = (text: string, to: string) => text.split(JSON.stringify(root).slice(1, -1)).join(to)

  const tWhole = join(deps.dir, 'whole.jsonl')
  await writeFile(tWhole, rel(raw, whole))
  await capture({ cwd: whole, transcript: tWhole, sessionId: 'S', trigger: 'stop' }, deps)

  const tParts = join(deps.dir, 'parts.jsonl')
  await writeFile(tParts, '')
  let bytes = 0
  let snapshots = 0
  for (const piece of cut(rel(raw, parts))) {
    await appendFile(tParts, piece)
    const r = await capture({ cwd: parts, transcript: tParts, sessionId: 'S', trigger: 'stop' }, deps)
    bytes += r.stats.bytesRead
    if (r.written) snapshots++
    expect(r.stats.restarted).toBe(false)
  }
  const size = Buffer.byteLength(rel(raw, parts))
  const a = JSON.stringify(await cursorState(deps.bookmarkHome, whole, 'S'))
    .split(whole)
    .join('<root>')
  const b = JSON.stringify(await cursorState(deps.bookmarkHome, parts, 'S'))
    .split(parts)
    .join('<root>')
  return { a, b, bytes, size, snapshots }
}

function byLines(text: string, pieces: number): string[] {
  const lines = text.split(/(?<=\n)/)
  const per = Math.ceil(lines.length / pieces)
  const out: string[] = []
  for (let i = 0; i < lines.length; i += per) out.push(lines.slice(i, i + per).join(''))
  return out
}

function byBytes(text: string, pieces: number): string[] {
  const per = Math.ceil(text.length / pieces)
  const out: string[] = []
  for (let i = 0; i < text.length; i += per) out.push(text.slice(i, i + per))
  return out
}

describe.skipIf(!CORPUS_PRESENT)('incremental capture of a real session', () => {
  it('cut at line ends: same final state as one capture, each byte read once', async () => {
    const r = await run('cc-2.1.20-taskcreate-local-command-mcp-b82405ba.jsonl', (t) => byLines(t, 40))
    expect(r.b).toBe(r.a)
    expect(r.bytes).toBe(r.size)
    expect(r.snapshots).toBeGreaterThan(5)
  })

  it('cut in the middle of lines: same final state (an unfinished line waits for the next capture)', async () => {
    const r = await run('cc-2.1.14-tool-errors-c64cc478.jsonl', (t) => byBytes(t, 17))
    expect(r.b).toBe(r.a)
  })
})
