/**
 * A capture's search events: the capture hands each entry it parsed of the new byte range to `eventsOf` here
 * (no second read of the transcript, no second parser), and at its end the events and the transcript's checkpoint
 * are appended with one try at the memory lock; the index is left to the next search, which reads the log on.
 * capture/save.ts loads this only when the memory store exists.
 *
 * The capture's read and the transcript's checkpoint are two cursors over the same lines: events are made from
 * the lines past the checkpoint, with its carry. When they do not line up (the checkpoint is behind the capture's
 * cursor, or of another file), when the read restarted, ran in the worker or is long (TAP_BYTES), or when the lock
 * is busy, nothing is appended and a hint names the transcript: the next catch-up reads it from its checkpoint.
 */
import type { Stats } from 'node:fs'
import type { HostId } from '../hosts/host.js'
import { LockTimeoutError } from '../shared/errors.js'
import { statOrNone } from '../shared/fsp.js'
import type { ReadStats, TranscriptCursor } from '../transcript/read.js'
import type { TranscriptEntry } from '../transcript/types.js'
import { type EventCarry, type EventSource, type SearchEvent, eventsOf, newCarry } from './events.js'
import { type Checkpoint, type MemoryLayout, appendEvents, memoryLayout, readLogState, withMemoryLock } from './log.js'
import { readCheckpoint, sameStart, writeHint } from './checkpoints.js'

/** What the capture's scan gives the tap (capture/scan.ts). */
export interface EntryTap {
  entry(e: TranscriptEntry): void
  /** The read started again from byte 0 (the file was rewritten). */
  restart(): void
  /** The read ran where the tap cannot follow (the worker of a large read). */
  lost(): void
}

export type TapOutcome = 'appended' | 'nothing' | 'left'

/** New bytes past the checkpoint above which a capture leaves the events to the catch-up. */
export const TAP_BYTES = 4 * 1024 * 1024

export class MemoryTap implements EntryTap {
  readonly events: SearchEvent[] = []
  private off = false
  private readonly source: EventSource
  private readonly carry: EventCarry
  /** Lines up to this one are in the log already. */
  private readonly skip: number

  constructor(
    private readonly m: MemoryLayout,
    source: EventSource,
    private readonly before: Checkpoint | undefined,
    /** The line the capture's read starts after. */
    private readonly from: number,
    off: boolean,
  ) {
    this.source = before ? { ...source, session: before.session } : source
    this.carry = before ? structuredClone(before.carry) : newCarry()
    this.skip = Math.max(before?.lines ?? 0, before?.forgot ?? 0)
    this.off = off
  }

  entry(e: TranscriptEntry): void {
    if (this.off || e.line <= this.skip) return
    for (const ev of eventsOf(e, this.source, this.carry)) this.events.push(ev)
  }

  restart(): void {
    this.off = true
  }

  lost(): void {
    this.off = true
  }

  /**
   * Appends the events with the checkpoint the capture's read ends at (`after`: the transcript's stat right after
   * the read). Never waits for the lock; never throws for a busy lock.
   */
  async finish(stats: ReadStats, after: Stats | undefined): Promise<TapOutcome> {
    const { m, before } = this
    const hint = (): Promise<TapOutcome> =>
      writeHint(m, { path: this.source.transcript, host: this.source.host, session: this.source.session }).then(() => 'left')
    if (this.off || (before && before.head !== stats.cursor.head)) return hint()
    if (stats.cursor.lines <= this.skip) return 'nothing' // a catch-up read further already
    const cp: Checkpoint = {
      ...stats.cursor,
      host: this.source.host,
      session: this.source.session,
      // The stat when the read reached the file's end; else one no stat matches, so a catch-up looks.
      size: after && after.size === stats.cursor.offset ? after.size : -1,
      mtime: after ? after.mtimeMs : 0,
      carry: this.carry,
      events: (before?.events ?? 0) + this.events.length,
      unreadable: (before?.unreadable ?? 0) + (this.from === this.skip ? stats.skipped : 0),
      ...(before?.forgot ? { forgot: before.forgot } : {}),
    }
    let outcome: TapOutcome
    try {
      outcome = await withMemoryLock(
        m,
        async () => {
          const state = await readLogState(m)
          const now = await readCheckpoint(m, state, this.source.transcript)
          if (!sameStart(now, before)) return now && now.head === cp.head && now.lines >= cp.lines ? 'nothing' : 'left'
          await appendEvents(m, state, this.events, { [this.source.transcript]: cp })
          return 'appended'
        },
        { timeoutMs: 0 },
      )
    } catch (e) {
      if (!(e instanceof LockTimeoutError)) throw e
      outcome = 'left' // busy: never waited for
    }
    // A transcript new to the log is named for the catch-up too: it may lie outside the host stores.
    return outcome === 'left' || (outcome === 'appended' && !before) ? hint().then(() => outcome) : outcome
  }
}

/**
 * The tap for a capture of `transcript` that reads on from `from` (the capture's cursor; undefined: from the
 * start). Hosts whose transcripts search does not read (Gemini) get none.
 */
export async function memoryTap(
  bookmarkHome: string,
  host: HostId,
  transcript: string,
  session: string,
  from: TranscriptCursor | undefined,
): Promise<MemoryTap | undefined> {
  if (host !== 'claude' && host !== 'codex') return undefined
  const m = memoryLayout(bookmarkHome)
  const before = await readCheckpoint(m, await readLogState(m), transcript)
  const start = from?.lines ?? 0
  // Lines between the checkpoint and where the read starts would be missed, or the checkpoint is of another file.
  let off = before ? start > before.lines || (from !== undefined && from.offset > 0 && from.head !== before.head) : start > 0
  // A long read (a first capture of a long session) is the catch-up's: a hook makes the events of a turn or a few.
  const size = (await statOrNone(transcript))?.size ?? 0
  if (size - Math.max(from?.offset ?? 0, before?.offset ?? 0) > TAP_BYTES) off = true
  return new MemoryTap(m, { host, session, transcript }, before, start, off)
}
