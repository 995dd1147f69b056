/**
 * The full catch-up of a search (stamp.ts says when it is needed): the transcripts that changed since their
 * checkpoint are read into the log, the index reads the log on, and the stamp is written again when nothing is
 * left behind. Loaded only when needed: it brings the transcript readers and the index writers.
 */
import type { Deps } from '../shared/deps.js'
import { LockTimeoutError } from '../shared/errors.js'
import { atomicWrite } from '../store/atomic.js'
import { statOrNone } from '../shared/fsp.js'
import { readHints, readSeen, removeHints } from './checkpoints.js'
import { ingest } from './ingest.js'
import { readManifest } from './index-read.js'
import { catchUpIndex } from './indexer.js'
import { type MemoryLayout, comparePosition, readLogState, withMemoryLock } from './log.js'
import { type TranscriptSource, findTranscripts, sourcesOf } from './sources.js'
import { type Stamp, logStamp, stampPath, statOf } from './stamp.js'

export async function fullCatchUp(m: MemoryLayout, deps: Deps): Promise<void> {
  // Taken before anything is read, as the transcripts' stats are: a hint or a byte added meanwhile differs next time.
  const pending = statOf(m.pending)
  const lookedAt = deps.now().getTime()
  const state = await readLogState(m)
  const seen = await readSeen(m, state)
  const known = seen.sources
  const hints = await readHints(m)
  // Nothing seen and never backfilled: no transcript to read, but captures may have appended events to index.
  const found = findTranscripts(deps.env)
  // Only what changed since it was seen is read (the stats were taken before reading, so that a transcript
  // growing meanwhile differs from the stamp next time). Never backfilled: only the transcripts already seen
  // (captures append them) and those captures named in hints, not the rest of the host stores.
  const changedFound = found.transcripts.filter((t) => {
    const cp = known[t.path]
    if (cp === undefined) return seen.backfilled === true
    return cp.size !== t.size || cp.mtime !== t.mtime
  })
  const changed: TranscriptSource[] = await sourcesOf(changedFound, (path) => known[path]?.session)
  const listed = new Set(changed.map((c) => c.path))
  for (const h of hints) if (!listed.has(h.source.path)) changed.push(h.source)
  const lock = { timeoutMs: 2_000 }
  try {
    const read = changed.length > 0 ? await ingest(m, changed, { lock }) : undefined
    // A hinted transcript is in seen.json now, found there by the next catch-up; one that is gone needs nothing.
    if (hints.length > 0) {
      const now = (await readSeen(m)).sources
      const done: string[] = []
      for (const h of hints) if (now[h.source.path] || !(await statOrNone(h.source.path))) done.push(h.name)
      await removeHints(m, done)
    }
    const manifest = await readManifest(m)
    const now = changed.length > 0 ? await readLogState(m) : state
    if (manifest.version !== 2 || comparePosition(manifest.upTo, { segment: now.segment, offset: now.committed }) < 0)
      await withMemoryLock(m, () => catchUpIndex(m), lock)
    if (read !== undefined && read.failed > 0) return // a transcript could not be read: try again next time
    await withMemoryLock(
      m,
      async () => {
        // Under the lock no event is appended: the log's stat and its end belong together.
        const log = logStamp(m)
        const end = await readLogState(m)
        const index = await readManifest(m)
        if (log === undefined || comparePosition(index.upTo, { segment: end.segment, offset: end.committed }) !== 0) return
        const { digest, folders, foldersDigest } = found
        const stamp: Stamp = { version: 2, log, pending, digest, folders, foldersDigest, lookedAt }
        await atomicWrite(stampPath(m), `${JSON.stringify(stamp)}\n`, { mode: 0o600, durable: false })
      },
      lock,
    )
  } catch (e) {
    // A backfill holds the lock: answer from what is indexed.
    if (!(e instanceof LockTimeoutError)) throw e
    deps.log('the index is being written by another bookmark process: answering from what it holds now')
  }
}
