import { lstatSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../test/helpers/tmp.js'
import { redactDeep, redactOver } from '../redact/secrets.js'
import { SNAPSHOT_FIELDS, toSnapshot } from '../snapshot/model.js'
import { CORPUS_PRESENT, claudeFiles, extractCorpus } from '../../test/helpers/corpus.js'
import { ensureDir, redactAround } from './files.js'

const TOKEN = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'

describe('redactAround', () => {
  it('redacts what a value adds around a redacted base, keeps the base objects as they are, and equals redactDeep', () => {
    const base = redactDeep({
      files: { [`notes/${TOKEN}.txt`]: { path: `notes/${TOKEN}.txt`, hints: [`+token ${TOKEN}`] } },
      prompts: [{ text: `push with ${TOKEN}` }],
      env: { GITHUB_TOKEN: 'plainvalue123' },
    })
    const value = {
      task: `use ${TOKEN}`,
      files: Object.values(base.files),
      requests: { all: base.prompts, apiKey: 'sk-live-not-a-real-one-but-a-key' },
      env: base.env,
      nested: [{ password: 'hunter2hunter2' }],
      added: { [`keys/${TOKEN}`]: 1 },
      ['__proto__']: { id: TOKEN },
    }
    const out = redactAround(value, base, ['task', 'requests', 'nested'])
    expect(out).toEqual(redactDeep(value))
    expect(JSON.stringify(out)).not.toContain(TOKEN)
    expect(JSON.stringify(out)).not.toContain('hunter2')
    expect(out.files[0]).toBe(Object.values(base.files)[0])
    expect(out.requests.all).toBe(base.prompts)
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
  })

  it('keeps the objects named clean (a base record with a mark) as they are, and still equals redactDeep', () => {
    const base = redactDeep({ files: { a: { path: `notes/${TOKEN}.txt`, op: 'modified' } } })
    const record = base.files.a
    const marked = { ...record, now: 'committed' }
    const value = { files: [marked], task: `use ${TOKEN}` }
    const out = redactAround(value, base, ['task'], [marked])
    expect(out.files[0]).toBe(marked)
    expect(out).toEqual(redactDeep(value))
    expect(JSON.stringify(out)).not.toContain(TOKEN)
    // Not named clean: the copy is walked again (same result, the cost the capture avoids).
    expect(redactAround(value, base, ['task']).files[0]).not.toBe(marked)
  })

  it.skipIf(!CORPUS_PRESENT)('gives what redactDeep gives for a snapshot of every corpus session built on its redacted state', async () => {
    for (const name of claudeFiles()) {
      const { state, root } = await extractCorpus(name)
      const stored = redactDeep(state)
      const snapshot = toSnapshot(stored, {
        id: 'SNAP_20261128_100000_000_abcd',
        createdAt: '2026-11-28T10:00:00.000Z',
        trigger: 'stop',
        projectRoot: root,
        projectName: 'proj',
        sessionId: 's',
        capture: { transcript: `/t/${TOKEN}.jsonl`, bytesRead: 0, lines: 0, skipped: 0, entries: 0, restarted: false, offset: 0 },
        lastAssistantMessage: `done; the key was ${TOKEN}`,
      })
      const out = redactAround(snapshot, stored, SNAPSHOT_FIELDS)
      expect(out, name).toEqual(redactDeep(snapshot))
      expect(JSON.stringify(out), name).not.toContain(TOKEN)
      // With the state's long strings (as a capture passes them): the same.
      const long = new Set<string>()
      const again = redactOver(state, JSON.parse(JSON.stringify(stored)), long)
      expect(JSON.stringify(again), name).toBe(JSON.stringify(stored))
      expect(JSON.stringify(redactAround(snapshot, stored, SNAPSHOT_FIELDS, [], long)), name).toBe(JSON.stringify(redactDeep(snapshot)))
    }
  })
})

describe('ensureDir', () => {
  it('makes a missing folder (and its parents) private, keeps one that is there, and refuses a link or a file', async () => {
    const dir = tempDir('bm-files-')
    const deep = join(dir, 'a', 'b')
    await ensureDir(deep)
    expect(lstatSync(deep).isDirectory()).toBe(true)
    expect(lstatSync(deep).mode & 0o777).toBe(0o700)
    writeFileSync(join(deep, 'kept'), 'x')
    await ensureDir(deep)
    expect(lstatSync(join(deep, 'kept')).isFile()).toBe(true)
    mkdirSync(join(dir, 'real'))
    symlinkSync(join(dir, 'real'), join(dir, 'link'))
    await expect(ensureDir(join(dir, 'link'))).rejects.toThrow(`${join(dir, 'link')} is a symbolic link`)
    writeFileSync(join(dir, 'file'), 'x')
    await expect(ensureDir(join(dir, 'file'))).rejects.toThrow(`${join(dir, 'file')} is not a folder`)
  })
})
