import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { gitProject, runCli, sandbox } from '../../test/helpers/cli.js'
import { CORPUS_PRESENT, claudeFiles, claudePath, firstCwd } from '../../test/helpers/corpus.js'
import { call, jsonl, prompt } from '../../test/helpers/jsonl.js'
import { type Scan, type ScanInput, WORKER_BYTES, scan, scanHere, scanInWorker } from './scan.js'

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
      const input: ScanInput = { host: 'claude', transcript: path, cursor: undefined, state: undefined, ctx: { projectRoot: (await firstCwd(path)) ?? '/' } }
      expect(plain(await inWorker(input)), name).toEqual(plain(await scanHere(input)))
    }
  })

  it.skipIf(!CORPUS_PRESENT)('continues a state from a cursor as this thread does, and starts again when the cursor does not fit', async () => {
    const path = claudePath('cc-2.1.17-long-compact2-askuser-f4237e82.jsonl')
    const ctx = { projectRoot: (await firstCwd(path)) ?? '/' }
    const first = await scanHere({ host: 'claude', transcript: path, cursor: undefined, state: undefined, ctx })
    // Half the file as a transcript of its own, then the whole file read on from its cursor.
    const half = join(tmp, 'half.jsonl')
    const text = readFileSync(path, 'utf8')
    writeFileSync(half, text.slice(0, text.indexOf('\n', text.length / 2) + 1))
    const head = await scanHere({ host: 'claude', transcript: half, cursor: undefined, state: undefined, ctx })
    const whole = join(tmp, 'whole.jsonl')
    writeFileSync(whole, text)
    const fresh = () => JSON.parse(JSON.stringify(head.state)) as Scan['state']
    const resumed = await inWorker({ host: 'claude', transcript: whole, cursor: head.stats.cursor, state: fresh(), ctx })
    expect(plain(resumed)).toEqual(plain(await scanHere({ host: 'claude', transcript: whole, cursor: head.stats.cursor, state: fresh(), ctx })))
    expect(resumed.stats.restarted).toBe(false)
    expect(JSON.stringify(resumed.state)).toBe(JSON.stringify(first.state))
    // A cursor past the end: read again from the start, in both.
    const past = { ...head.stats.cursor, offset: text.length * 2 }
    const restarted = await inWorker({ host: 'claude', transcript: half, cursor: past, state: fresh(), ctx })
    expect(restarted.stats.restarted).toBe(true)
    expect(plain(restarted)).toEqual(plain(await scanHere({ host: 'claude', transcript: half, cursor: past, state: fresh(), ctx })))
  })

  it('gives back its dictionaries without a prototype, as a scan on this thread does', async () => {
    const path = join(tmp, 'proto.jsonl')
    const line = (o: unknown): string => `${JSON.stringify(o)}\n`
    writeFileSync(
      path,
      line({
        type: 'assistant',
        uuid: 'a',
        timestamp: '2026-01-01T00:00:00Z',
        message: { id: 'm', model: 'constructor', content: [{ type: 'tool_use', id: 't', name: 'toString', input: {} }] },
      }),
    )
    const s = await inWorker({ host: 'claude', transcript: path, cursor: undefined, state: undefined, ctx: { projectRoot: '/p' } })
    expect(Object.getPrototypeOf(s.state.models)).toBeNull()
    expect(Object.getPrototypeOf(s.state.tools)).toBeNull()
    expect(s.state.models.constructor).toBe(1)
    expect(s.state.tools.toString).toBe(1)
  })

  it('rejects with the error of a missing transcript, as this thread does', async () => {
    const input: ScanInput = { host: 'claude', transcript: join(tmp, 'missing.jsonl'), cursor: undefined, state: undefined, ctx: { projectRoot: '/p' } }
    await expect(scanHere(input)).rejects.toMatchObject({ code: 'ENOENT' })
    await expect(scanInWorker(input)).rejects.toMatchObject({ code: 'ENOENT', message: expect.stringContaining('missing.jsonl') })
  })

  it('gives the same scan whichever side of the threshold a read falls', async () => {
    const path = join(tmp, 'small.jsonl')
    writeFileSync(path, `${JSON.stringify({ type: 'user', uuid: 'u', message: { role: 'user', content: 'hello' } })}\n`)
    const input: ScanInput = { host: 'claude', transcript: path, cursor: undefined, state: undefined, ctx: { projectRoot: '/p' } }
    expect(plain(await scan(input, 0))).toEqual(plain(await scan(input)))
  })
})

describe.skipIf(!existsSync(WORKER))('a hook capturing a transcript too large for its own thread', () => {
  it('reads it through the worker (a hook bundle has no import()) and records what it holds', async () => {
    const sb = await sandbox()
    try {
      const project = await gitProject(sb)
      // Requests, each with a Write in the project and a long Read result of non-ASCII text, past the threshold.
      const page = `${'     1→déjà vu ✓\n'.repeat(40_000)}`
      const turns: string[] = []
      let bytes = 0
      for (let i = 0; bytes <= WORKER_BYTES; i++) {
        const turn = jsonl([
          prompt(`step ${i}`, { cwd: project }),
          call(
            `w${i}`,
            'Write',
            { file_path: join(project, `f${i}.ts`), content: `export const v${i} = ${i}\n` },
            { type: 'create', filePath: join(project, `f${i}.ts`) },
            { cwd: project },
          ),
          call(`r${i}`, 'Read', { file_path: join(project, `f${i}.ts`) }, { type: 'text', file: { content: page } }, { cwd: project }),
        ])
        turns.push(turn)
        bytes += Buffer.byteLength(turn) + 1
      }
      const transcript = join(sb.dir, 'big.jsonl')
      const text = `${turns.join('\n')}\n`
      writeFileSync(transcript, text)
      const payload = { session_id: 'big', transcript_path: transcript, cwd: project, hook_event_name: 'Stop', stop_hook_active: false }
      const run = await runCli(['stop'], {
        env: { ...sb.env, CLAUDE_PROJECT_DIR: project, BOOKMARK_MAX_NARRATIVE_BLOCKS: '0' },
        cwd: project,
        input: JSON.stringify(payload),
      })
      expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' })
      expect(existsSync(join(project, '.bookmark', 'errors.log'))).toBe(false)
      const index = JSON.parse(readFileSync(join(project, '.bookmark', 'index.json'), 'utf8')) as { snapshots: { id: string }[] }
      const snapshot = JSON.parse(readFileSync(join(project, '.bookmark', 'snapshots', `${index.snapshots[0]!.id}.json`), 'utf8')) as Record<string, any>
      expect(snapshot.capture).toMatchObject({ bytesRead: bytes, lines: text.split('\n').length - 1, skipped: 0 })
      expect(JSON.stringify(snapshot)).toContain(`step ${turns.length - 1}`)
      expect(JSON.stringify(snapshot)).toContain(`f${turns.length - 1}.ts`)
    } finally {
      rmSync(sb.dir, { recursive: true, force: true })
    }
  })
})
