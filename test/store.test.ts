import { appendFile, mkdir, readFile, readdir, stat, utimes, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { capture } from '../src/capture/capture.js'
import { runDemo } from '../src/commands/demo.js'
import { status } from '../src/commands/query.js'
import { withLock } from '../src/store/lock.js'
import { ProjectStore, SWEEP_EVERY, headFor, storedHead } from '../src/store/store.js'
import { redact, redactDeep } from '../src/redact/secrets.js'
import { createState } from '../src/extract/model.js'
import { fingerprint } from '../src/transcript/fingerprint.js'
import { testDeps } from './helpers/deps.js'
import { track } from './helpers/tmp.js'
import { call, jsonl, prompt } from './helpers/jsonl.js'
import { stateDir } from './helpers/narrative.js'

async function walk(dir: string): Promise<string[]> {
  const out: string[] = []
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) out.push(p, ...(await walk(p)))
    else out.push(p)
  }
  return out
}

async function project(dir: string): Promise<string> {
  const root = join(dir, 'proj')
  await mkdir(join(root, '.git'), { recursive: true })
  return root
}

describe('store', () => {
  it('caps the index and deletes the snapshot files that fall off it', async () => {
    const deps = await testDeps({ indexCap: 3 })
    const root = await project(deps.dir)
    const t = join(deps.dir, 's.jsonl')
    await writeFile(t, jsonl([prompt('a request that matters', { cwd: root })]))
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push((await capture({ cwd: root, transcript: t, trigger: 'manual' }, deps)).snapshot!.id)
    const index = JSON.parse(await readFile(join(root, '.bookmark', 'index.json'), 'utf8'))
    expect(index.snapshots.map((e: { id: string }) => e.id)).toEqual(ids.slice(2).reverse())
    expect((await readdir(join(root, '.bookmark', 'snapshots'))).sort()).toEqual(ids.slice(2).map((id) => `${id}.json`))
  })

  it('drops the pruned snapshots of a project whose path holds a secret from the registry', async () => {
    const deps = await testDeps({ indexCap: 2 })
    const secret = 'ghp_' + 'Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2'
    await mkdir(join(deps.dir, secret), { recursive: true })
    const root = await project(join(deps.dir, secret))
    const t = join(deps.dir, 's.jsonl')
    await writeFile(t, jsonl([prompt('a request that matters', { cwd: root })]))
    const ids: string[] = []
    for (let i = 0; i < 4; i++) ids.push((await capture({ cwd: root, transcript: t, trigger: 'manual' }, deps)).snapshot!.id)
    const text = await readFile(join(deps.bookmarkHome, 'registry.json'), 'utf8')
    expect(text).not.toContain(secret)
    // Only what the index still holds: the two pruned snapshots left the registry with their files.
    expect(JSON.parse(text).entries.map((e: { snapshotId: string }) => e.snapshotId)).toEqual(ids.slice(2).reverse())
    // `bookmark status` counts them as this project's.
    expect((await status(root, deps)).registryEntries).toBe(2)
  })

  it('keeps files private: folders 0700, files 0600, in the project store and the bookmark home', async () => {
    const deps = await testDeps()
    const root = await project(deps.dir)
    const t = join(deps.dir, 's.jsonl')
    await writeFile(t, jsonl([prompt('a request that matters', { cwd: root })]))
    await capture({ cwd: root, transcript: t, trigger: 'manual' }, deps)
    const paths = [join(root, '.bookmark'), ...(await walk(join(root, '.bookmark'))), deps.bookmarkHome, ...(await walk(deps.bookmarkHome))]
    for (const p of paths) {
      const s = await stat(p)
      expect((s.mode & 0o777).toString(8), p).toBe(s.isDirectory() ? '700' : '600')
    }
  })

  it('redacts secrets in every file it writes', async () => {
    const deps = await testDeps()
    const root = await project(deps.dir)
    const t = join(deps.dir, 's.jsonl')
    const secret = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'
    await writeFile(
      t,
      jsonl([
        prompt(`use token ${secret} to push`, { cwd: root }),
        call('b1', 'Bash', { command: `echo ${secret} > token.txt` }, { stdout: secret, stderr: '' }, { cwd: root }),
      ]),
    )
    await capture({ cwd: root, transcript: t, trigger: 'manual' }, deps)
    const files = [...(await walk(join(root, '.bookmark'))), ...(await walk(deps.bookmarkHome))]
    let checked = 0
    for (const f of files) {
      if ((await stat(f)).isDirectory()) continue
      expect(await readFile(f, 'utf8'), f).not.toContain(secret)
      checked++
    }
    expect(checked).toBeGreaterThanOrEqual(6)
    expect(await readFile(join(root, '.bookmark', 'LATEST.md'), 'utf8')).toContain('[REDACTED:')
  })

  it('stores the cursor head with the names the payload gave redacted, and fingerprints of the transcript, not its bytes', async () => {
    const deps = await testDeps()
    const root = await project(deps.dir)
    const secret = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'
    const t = join(deps.dir, `run-${secret}`, 's.jsonl')
    await mkdir(join(deps.dir, `run-${secret}`))
    // The last line is a message the user queued while the model worked: its last bytes are what they typed.
    const queued = {
      type: 'queue-operation',
      operation: 'enqueue',
      timestamp: '2026-11-30T04:00:00.000Z',
      sessionId: 'S1',
      content: `and push it with ${secret}`,
    }
    await writeFile(t, `${jsonl([prompt('a request that matters', { cwd: root })])}${JSON.stringify(queued)}\n`)
    const r = await capture({ cwd: root, transcript: t, sessionId: 'S1', trigger: 'stop', lastAssistantMessage: `pushed with ${secret}` }, deps)
    expect(r.written).toBe(true)
    const text = await readFile(join(await stateDir(deps.bookmarkHome, root), 'cursors', 'S1.json'), 'utf8')
    expect(text).not.toContain(secret)
    expect(text).not.toContain(Buffer.from(secret.slice(-12)).toString('hex'))
    const head = JSON.parse(text)
    expect(head.transcript).toBe(join(deps.dir, 'run-[REDACTED:github-token]', 's.jsonl'))
    expect(head.lastHookMessage).toBe('pushed with [REDACTED:github-token]')
    const bytes = await readFile(t)
    expect(head.cursor.head).toBe(fingerprint(bytes.subarray(0, 64)))
    expect(head.cursor.tail).toBe(fingerprint(bytes.subarray(bytes.length - 64)))
  })

  it('continues a cursor an older version wrote, with hex of the bytes, and writes fingerprints from then on', async () => {
    const deps = await testDeps()
    const root = await project(deps.dir)
    const t = join(deps.dir, 's.jsonl')
    await writeFile(t, jsonl([prompt('a request that matters', { cwd: root })]))
    await capture({ cwd: root, transcript: t, sessionId: 'S1', trigger: 'stop' }, deps)
    const headPath = join(await stateDir(deps.bookmarkHome, root), 'cursors', 'S1.json')
    const head = JSON.parse(await readFile(headPath, 'utf8'))
    const bytes = await readFile(t)
    await writeFile(
      headPath,
      JSON.stringify({
        ...head,
        transcriptStamp: undefined,
        cursor: { ...head.cursor, head: bytes.subarray(0, 64).toString('hex'), tail: bytes.subarray(bytes.length - 64).toString('hex') },
      }),
    )
    const more = jsonl([prompt('and another one', { cwd: root })])
    await appendFile(t, more)
    const r = await capture({ cwd: root, transcript: t, sessionId: 'S1', trigger: 'stop' }, deps)
    expect(r.stats).toMatchObject({ restarted: false, bytesRead: Buffer.byteLength(more) })
    expect(JSON.parse(await readFile(headPath, 'utf8')).cursor.tail).toMatch(/^64:[0-9a-f]{16}$/)
    // Hex that no longer fits the file (rewritten): read again from the start.
    const now = JSON.parse(await readFile(headPath, 'utf8'))
    await writeFile(
      headPath,
      JSON.stringify({ ...now, transcriptStamp: undefined, cursor: { ...now.cursor, head: Buffer.from('{"not":"this file"}').toString('hex') } }),
    )
    await appendFile(t, jsonl([prompt('a third', { cwd: root })]))
    expect((await capture({ cwd: root, transcript: t, sessionId: 'S1', trigger: 'stop' }, deps)).stats.restarted).toBe(true)
  })

  it('storedHead redacts what the head did not take from its redacted state, and agrees with redacting it whole', () => {
    const secret = 'sk-ant-api03-' + 'x7Yq2Lp9Zr4Vt8Wm3Kd6Hs1Jf5Gb0Nc'
    const state = redactDeep({ ...createState(), branch: `fix/${secret}`, lastAssistant: { text: `done with ${secret}` } })
    const head = headFor(
      state,
      {
        sessionId: `S/${secret}`,
        transcript: `/t/${secret}.jsonl`,
        cursor: { offset: 10, lines: 1, head: '7b22', tail: '7d0a' },
        updatedAt: '2026-11-30T00:00:00.000Z',
        lastHookMessage: `bye ${secret}`,
      },
      'id-1',
    )
    const stored = storedHead(head, state, redact, redactDeep)
    expect(JSON.stringify(stored)).not.toContain(secret)
    expect(stored).toEqual(redactDeep(head))
    expect(stored.lastAssistantText).toBe(state.lastAssistant!.text) // taken from the state as it is
    const foreign = storedHead({ ...head, branch: `other/${secret}` }, state, redact, redactDeep)
    expect(foreign.branch).toBe('other/[REDACTED:anthropic-key]')
  })

  it('takes over a lock left by a dead process, and waits for a live one', async () => {
    const deps = await testDeps()
    const lock = join(deps.dir, 'x.lock')
    await writeFile(lock, JSON.stringify({ pid: 2 ** 22 + 12345, host: (await import('node:os')).hostname(), nonce: 'dead', at: 0 }))
    await expect(withLock(lock, async () => 'ran')).resolves.toBe('ran')
    await expect(stat(lock)).rejects.toThrow() // released

    const order: string[] = []
    await Promise.all([
      withLock(lock, async () => {
        order.push('a-start')
        await new Promise((r) => setTimeout(r, 50))
        order.push('a-end')
      }),
      new Promise((r) => setTimeout(r, 10)).then(() => withLock(lock, async () => order.push('b'))),
    ])
    expect(order).toEqual(['a-start', 'a-end', 'b'])
  })

  it("sweeps what killed writes left on a session's first capture, on forced ones and on every SWEEP_EVERY-th, not on each Stop", async () => {
    const deps = await testDeps()
    const root = await project(deps.dir)
    const t = join(deps.dir, 's.jsonl')
    await writeFile(t, jsonl([prompt('request number 0 that matters', { cwd: root })]))
    const turn = async (i: number, trigger: 'stop' | 'manual' = 'stop') => {
      await appendFile(t, jsonl([prompt(`request number ${i} that matters`, { cwd: root })]))
      expect((await capture({ cwd: root, transcript: t, trigger }, deps)).written).toBe(true)
    }
    const old = new Date(Date.now() - 11 * 60_000)
    const plant = async () => {
      const paths = [
        join(root, '.bookmark', 'index.json.1111111111'),
        join(root, '.bookmark', 'snapshots', 'SNAP_20261128_100000_000_abcd.json.1234.0123abcd.tmp'),
        join(deps.bookmarkHome, 'registry.json.2222222222'),
      ]
      for (const p of paths) {
        await writeFile(p, '{"version":1,"sn')
        await utimes(p, old, old)
      }
      return paths
    }
    await turn(1) // the first capture of the session: sweeps (nothing there yet)
    let planted = await plant()
    for (let i = 2; i < SWEEP_EVERY; i++) await turn(i)
    expect(planted.filter((p) => existsSync(p))).toEqual(planted) // captures 2 .. SWEEP_EVERY - 1 leave them
    await turn(SWEEP_EVERY)
    expect(planted.filter((p) => existsSync(p))).toEqual([])
    planted = await plant()
    // An unlisted snapshot file without this user's seal is not an orphan of ours (it came with the project): kept.
    const foreign = join(root, '.bookmark', 'snapshots', 'SNAP_20261128_100000_000_abcd.json')
    await writeFile(foreign, '{"version":1,"sn')
    await utimes(foreign, old, old)
    await turn(SWEEP_EVERY + 1, 'manual')
    expect(planted.filter((p) => existsSync(p))).toEqual([])
    expect(existsSync(foreign)).toBe(true)
  })

  it('writes snapshot files on one line, sealed; one without this user’s seal (an earlier version’s, a clone’s) is never read', async () => {
    const deps = await testDeps()
    const root = await project(deps.dir)
    const t = join(deps.dir, 's.jsonl')
    await writeFile(t, jsonl([prompt('a request that matters', { cwd: root })]))
    const first = (await capture({ cwd: root, transcript: t, trigger: 'manual' }, deps)).snapshotFile!
    const text = await readFile(first, 'utf8')
    expect(text.trimEnd()).not.toContain('\n')
    expect(text).toMatch(/^\{"mac":"[0-9a-f]{64}","version":/)
    const { mac: _, ...unsealed } = JSON.parse(text)
    await writeFile(join(root, '.bookmark', 'index.json'), 'garbage') // rebuilt from this user's files
    await appendFile(t, jsonl([prompt('a second request that matters', { cwd: root })]))
    const second = await capture({ cwd: root, transcript: t, trigger: 'manual' }, deps)
    const store = new ProjectStore(root, { bookmarkHome: deps.bookmarkHome })
    expect((await store.readIndex()).index.snapshots.map((e) => e.id)).toEqual([second.snapshot!.id, JSON.parse(text).id])
    expect((await store.readSnapshot(JSON.parse(text).id))?.task).toBe('a request that matters')
    await writeFile(first, `${JSON.stringify(unsealed, null, 2)}\n`) // as version 0.1 wrote it: no seal
    await writeFile(join(root, '.bookmark', 'index.json'), 'garbage')
    await appendFile(t, jsonl([prompt('a third request that matters', { cwd: root })]))
    const third = await capture({ cwd: root, transcript: t, trigger: 'manual' }, deps)
    expect((await store.readIndex()).index.snapshots.map((e) => e.id)).toEqual([third.snapshot!.id, second.snapshot!.id])
    expect(await store.readSnapshot(JSON.parse(text).id)).toBeUndefined()
    expect(existsSync(first)).toBe(true) // not ours to delete
  })

  it('recovers from a broken cursor, index and registry without losing the next capture', async () => {
    const deps = await testDeps()
    const root = await project(deps.dir)
    const t = join(deps.dir, 's.jsonl')
    await writeFile(t, jsonl([prompt('a request that matters', { cwd: root })]))
    await capture({ cwd: root, transcript: t, trigger: 'manual' }, deps)
    await writeFile(join(await stateDir(deps.bookmarkHome, root), 'cursors', 's.json'), '{"version":1,"curs')
    await writeFile(join(root, '.bookmark', 'index.json'), 'garbage')
    await writeFile(join(deps.bookmarkHome, 'registry.json'), '[')
    const r = await capture({ cwd: root, transcript: t, trigger: 'manual' }, deps)
    expect(r.written).toBe(true)
    expect(r.notes.join('\n')).toContain('cursor for session s was unreadable')
    const index = JSON.parse(await readFile(join(root, '.bookmark', 'index.json'), 'utf8'))
    // The first snapshot's file is still on disk, so the rebuilt index lists both.
    expect(index.snapshots.length).toBe(2)
    JSON.parse(await readFile(join(deps.bookmarkHome, 'registry.json'), 'utf8'))
  })
})

describe('bookmark demo', () => {
  it('captures the bundled session in a temporary folder with its own bookmark home', async () => {
    const deps = await testDeps()
    const d = await runDemo(deps)
    track(d.folder) // the demo keeps its folder for the user to look at
    expect(d.folder).toMatch(/bookmark-demo-/)
    expect(d.projectRoot.startsWith(d.folder)).toBe(true)
    expect(d.bookmarkHome.startsWith(d.folder)).toBe(true)
    const s = d.result.snapshot!
    expect(s.files.map((f) => [f.path, f.op])).toEqual([
      ['src/export.ts', 'created'],
      ['test/export.test.ts', 'created'],
      ['src/cli.ts', 'modified'],
    ])
    expect(s.tasks.items.map((t) => [t.id, t.status])).toEqual([
      ['1', 'completed'],
      ['2', 'completed'],
      ['3', 'in_progress'],
    ])
    expect(s.git.map((g) => g.event)).toEqual([expect.objectContaining({ kind: 'commit', hash: '3f9c2a1', message: 'Add CSV export to notes CLI' })])
    expect(s.errors).toEqual([expect.objectContaining({ tool: 'Bash', target: 'npm test', resolved: true })])
    expect(s.task).toContain('also handle newlines inside note bodies')
    expect(d.latest).toContain('[REDACTED:')
    expect(d.latest).not.toContain('s3cretPass')
    // What the next session receives: the request, the open task, the commit, within the budget.
    expect(d.nextSession).toContain('also handle newlines inside note bodies')
    expect(d.nextSession).toContain('#3 Add tests for CSV quoting')
    expect(d.nextSession).toContain('`3f9c2a1`')
    expect(d.nextSession).not.toContain('s3cretPass')
    expect(d.nextSession!.length).toBeLessThanOrEqual(6_000)
    // The handoff the Stop hook asks for, written as the model would with the sealed header: the next session gets it.
    expect(d.handoffAsked).toMatch(/^session-bookmark: before you stop, write the handoff/)
    expect(await readFile(d.handoffPath, 'utf8')).toMatch(/^<!-- BOOKMARK_IDENTITY\n[\s\S]*seal: [0-9a-f]{32}\n-->/)
    expect(d.nextSession).toContain('Quote every field that holds a comma, a quote or a newline')
    expect(d.nextSession).toContain('Make `quoteField` quote fields containing')
    // Nothing in the real (here: the test's) bookmark home.
    await expect(stat(deps.bookmarkHome)).rejects.toThrow()
    expect(JSON.parse(await readFile(join(d.bookmarkHome, 'registry.json'), 'utf8')).entries.length).toBe(1)
  })
})
