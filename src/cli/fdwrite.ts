/** Output straight to a file descriptor: no stream object to build (Node's stdout costs a fresh process more than a search). */
import { writeSync } from 'node:fs'

/** Writes all of `text` to `fd`, waiting out a full non-blocking pipe; gives up quietly if the reader is gone. */
export function writeAll(fd: number, text: string): void {
  const buf = Buffer.from(text)
  let off = 0
  let spins = 0
  while (off < buf.length) {
    try {
      off += writeSync(fd, buf, off)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN' || ++spins > 100_000) return
    }
  }
}
