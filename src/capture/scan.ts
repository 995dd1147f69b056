/**
 * The read half of a capture: the transcript from the cursor, folded into the session's state.
 *
 * A large read (the first capture of a long session) runs in a worker thread (scan-worker.ts, built alone as
 * dist/cli/scan-worker.cjs) with a small heap: parsing hundreds of MB grows V8's default young generation and
 * lets the old one fill with dead lines before it is collected, past the memory goal; in the worker it stays
 * within it (docs/BENCHMARKS.md). V8 flags would do
 * the same, but cannot be put on the user's command line, and set at run time they do not resize a heap that
 * exists. The worker only reads: it hands back the state, the delta and the read's stats, and this thread
 * writes. When it cannot run (an unbuilt checkout running its sources) or dies (its heap limit), the read is
 * done again here, so a worker problem costs time, never a capture.
 *
 * A smaller read (every Stop after the first capture, a first capture of a shorter session) stays on this
 * thread: a worker costs time and memory to start, and below WORKER_BYTES the default heap stays small anyway.
 */
import { applyEntry, createDelta, createState } from '../extract/extract.js'
import type { ExtractContext } from '../extract/extract.js'
import { type ExtractState, type RunDelta, reviveState } from '../extract/model.js'
import { workerThreads } from '../shared/builtin.js'
import { stat } from '../shared/fsp.js'
import { loadHost } from '../hosts/load.js'
import type { HostId } from '../hosts/host.js'
import { type ReadStats, type TranscriptCursor, readTranscript } from '../transcript/read.js'
import type { TranscriptEntry } from '../transcript/types.js'
import type { EntryTap } from '../memory/capture.js'

export interface Scan {
  state: ExtractState
  /** What this read added (a restart begins both again). */
  delta: RunDelta
  stats: ReadStats
}

export interface ScanInput {
  /** Whose transcript it is: how its lines read. An id, not the host, so that it crosses to the worker. */
  host: HostId
  transcript: string
  cursor: TranscriptCursor | undefined
  /** The state to continue; undefined for a fresh one. */
  state: ExtractState | undefined
  ctx: ExtractContext
}

/** Bytes to read above which the scan runs in a worker (50 MB read here peak at about 70 MB of RSS, 130 MB at 80). */
export const WORKER_BYTES = 64 * 1024 * 1024

/** Reads and folds on this thread; `tap` is handed each entry too (search memory: memory/capture.ts). */
export async function scanHere(input: ScanInput, tap?: EntryTap): Promise<Scan> {
  let state = input.state ?? createState()
  let delta = createDelta()
  const host = await loadHost(input.host)
  const onEntry = tap
    ? (entry: TranscriptEntry): void => {
        tap.entry(entry) // first: it only reads the entry
        applyEntry(state, entry, input.ctx, delta)
      }
    : (entry: TranscriptEntry): void => applyEntry(state, entry, input.ctx, delta)
  const onRestart = (): void => {
    state = createState()
    delta = createDelta()
    tap?.restart()
  }
  if (host.read) {
    const { seen, ...stats } = await host.read(input.transcript, input.cursor, state.seen, onEntry, { onRestart })
    state.seen = seen
    return { state, delta, stats }
  }
  const stats = await readTranscript(input.transcript, input.cursor, host.parseLine, onEntry, { onRestart })
  return { state, delta, stats }
}

/** Reads the transcript from the cursor and folds it into the state: in a worker when the read is large. */
export async function scan(input: ScanInput, workerBytes = WORKER_BYTES, tap?: EntryTap): Promise<Scan> {
  const size = await stat(input.transcript).then(
    (s) => s.size,
    () => 0, // scanHere reports the missing file as readTranscript does
  )
  const offset = input.cursor !== undefined && input.cursor.offset <= size ? input.cursor.offset : 0
  if (size - offset <= workerBytes) return scanHere(input, tap)
  const done = await scanInWorker(input)
  if (done === undefined) return scanHere(input, tap)
  tap?.lost() // the worker's entries never come back to this thread
  return done
}

/**
 * The worker's heap, in MB. Young: semi-spaces of a third each (2 MB; the default grows to 16), room for a few
 * lines' garbage. Old: a limit makes V8 collect it sooner (without one a long read peaks higher); a
 * state is capped far below it, and a line at the 64 MB line cap fits with its parse. Over it, the worker dies
 * and the read runs again on this thread.
 */
const WORKER_HEAP = { maxYoungGenerationSizeMb: 6, maxOldGenerationSizeMb: 1024 }

export type ScanReply =
  { ok: true; scan: Scan } | { ok: false; error: { name: string; message: string; code?: string; errno?: number; syscall?: string; path?: string } }

/** The scan done by a worker; undefined when the worker could not run (an unbuilt checkout runs its sources). */
export async function scanInWorker(input: ScanInput): Promise<Scan | undefined> {
  const { Worker } = workerThreads()
  let worker: InstanceType<typeof Worker>
  try {
    // dist/cli/ in the built CLI as from src/capture/ in a checkout: the built worker either way.
    worker = new Worker(new URL('../../dist/cli/scan-worker.cjs', import.meta.url), { workerData: input, resourceLimits: WORKER_HEAP })
  } catch {
    return undefined
  }
  const reply = await new Promise<ScanReply | undefined>((resolve) => {
    worker.once('message', (m: ScanReply) => resolve(m))
    worker.once('error', () => resolve(undefined))
    worker.once('exit', () => resolve(undefined))
  })
  worker.removeAllListeners().on('error', () => undefined)
  await worker.terminate() // its heap goes before this thread builds the snapshot
  if (reply === undefined) return undefined
  if (!reply.ok) throw Object.assign(new Error(reply.error.message), reply.error)
  // Structured cloning gives the dictionaries a prototype again.
  return { ...reply.scan, state: reviveState(reply.scan.state) }
}
