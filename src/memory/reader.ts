/**
 * Reading the events a search returns from the log: each log segment opened once per search, each event read
 * with one positional read and cut at its newline (the index knows where an event starts and where the next
 * one does; a torn line between them is never part of the event).
 */
import { closeSync, openSync, readSync } from 'node:fs'
import type { SearchEvent } from './events.js'
import { type MemoryLayout, segmentPath } from './paths.js'

export class EventReader {
  private fds = new Map<number, number | undefined>()

  constructor(private readonly m: MemoryLayout) {}

  /** The event at `offset` of log segment `segment`, at most `length` bytes; undefined when it cannot be read. */
  read(place: { segment: number; offset: number; length: number }): SearchEvent | undefined {
    let fd = this.fds.get(place.segment)
    if (!this.fds.has(place.segment)) {
      try {
        fd = openSync(segmentPath(this.m, place.segment), 'r')
      } catch {
        fd = undefined
      }
      this.fds.set(place.segment, fd)
    }
    if (fd === undefined || place.length <= 0) return undefined
    try {
      const buf = Buffer.allocUnsafe(place.length)
      const n = readSync(fd, buf, 0, place.length, place.offset)
      let end = buf.indexOf(0x0a)
      if (end === -1 || end > n) end = n
      const e = JSON.parse(buf.toString('utf8', 0, end)) as SearchEvent
      return e && typeof e.id === 'string' ? e : undefined
    } catch {
      return undefined
    }
  }

  close(): void {
    for (const fd of this.fds.values()) if (fd !== undefined) closeSync(fd)
    this.fds.clear()
  }
}
