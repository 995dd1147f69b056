import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../test/helpers/tmp.js'
import { memoryLayout } from './paths.js'
import { lookAtStores } from './sources.js'
import { LOOK_EVERY_MS, type Stamp, logStamp, readStamp, stampVerdict, statOf, writeStamp } from './stamp.js'

/** A bookmark home with a log and one Claude Code transcript, and the stamp a catch-up at `now` would write. */
function world(now: number) {
  const root = tempDir('bm-stamp-')
  const m = memoryLayout(join(root, 'bm'))
  mkdirSync(m.index, { recursive: true })
  writeFileSync(m.state, '{}\n')
  const env = { CLAUDE_CONFIG_DIR: join(root, 'claude'), CODEX_HOME: join(root, 'codex') }
  const folder = join(env.CLAUDE_CONFIG_DIR, 'projects', '-w')
  mkdirSync(folder, { recursive: true })
  const transcript = join(folder, 's1.jsonl')
  writeFileSync(transcript, '{"a":1}\n')
  const stamp: Stamp = { version: 2, log: logStamp(m)!, pending: statOf(m.pending), ...lookAtStores(env), lookedAt: now }
  writeStamp(m, stamp)
  return { m, env, folder, transcript, stamp: readStamp(m)! }
}

describe('the caught-up stamp (what a search looks at before answering)', () => {
  const now = Date.UTC(2026, 11, 2, 12)

  it('is fresh while nothing changed, and trusts the folders alone for LOOK_EVERY_MS', async () => {
    const w = world(now)
    expect(w.stamp.folders).toContain(w.folder)
    expect(stampVerdict(w.stamp, w.m, now + LOOK_EVERY_MS - 1)).toBe('fresh')
    // A transcript that only grew is left to the full look: every transcript is stat'ed at most LOOK_EVERY_MS apart.
    writeFileSync(w.transcript, '{"a":1}\n{"b":2}\n')
    expect(stampVerdict(w.stamp, w.m, now + 1)).toBe('fresh')
    expect(stampVerdict(w.stamp, w.m, now + LOOK_EVERY_MS)).toBe('look')
    expect(lookAtStores(w.env).digest).not.toBe(w.stamp.digest)
    // A clock set back does not stretch the window.
    expect(stampVerdict(w.stamp, w.m, now - 1)).toBe('look')
  })

  it('looks at every transcript at once when a folder changed: a transcript added, removed or renamed', async () => {
    const w = world(now)
    writeFileSync(join(w.folder, 's2.jsonl'), '{"a":1}\n')
    utimesSync(w.folder, new Date(now + 5_000), new Date(now + 5_000)) // a coarse clock could leave the mtime as it was
    expect(stampVerdict(w.stamp, w.m, now + 1)).toBe('look')
    expect(lookAtStores(w.env).digest).not.toBe(w.stamp.digest)
  })

  it('catches up at once when the log or the hints changed (a capture appended or left a hint)', async () => {
    const w = world(now)
    writeFileSync(w.m.state, '{"segment":0}\n')
    expect(stampVerdict(w.stamp, w.m, now + 1)).toBe('catch-up')
    const v = world(now)
    mkdirSync(v.m.pending)
    expect(stampVerdict(v.stamp, v.m, now + 1)).toBe('catch-up')
    expect(stampVerdict(undefined, v.m, now + 1)).toBe('catch-up')
  })

  it('reads a version 1 stamp as none (the full catch-up writes version 2)', async () => {
    const w = world(now)
    writeFileSync(join(w.m.index, 'caught-up.json'), '{"version":1,"log":"1:2:3","transcripts":"1:a:b"}\n')
    expect(readStamp(w.m)).toBeUndefined()
  })
})
