/**
 * Where the memory lives in the bookmark home (log.ts says what each file is). Apart from log.ts so that a search,
 * which only reads, loads none of the writers.
 */
import { join } from 'node:path'

export interface MemoryLayout {
  dir: string
  state: string
  events: string
  index: string
  lock: string
  /** One checkpoint file per transcript (checkpoints.ts). */
  sources: string
  /** Which transcripts the catch-up has seen. */
  seen: string
  /** Notes a capturing Stop leaves for the next search's catch-up when it could not append. */
  pending: string
}

export function memoryLayout(bookmarkHome: string): MemoryLayout {
  const dir = join(bookmarkHome, 'memory')
  return {
    dir,
    state: join(dir, 'log.json'),
    events: join(dir, 'events'),
    index: join(dir, 'index'),
    lock: join(dir, 'memory.lock'),
    sources: join(dir, 'sources'),
    seen: join(dir, 'seen.json'),
    pending: join(dir, 'pending'),
  }
}

export const segmentPath = (m: MemoryLayout, n: number): string => join(m.events, `${String(n).padStart(6, '0')}.jsonl`)
