/**
 * `bookmark index` and `bookmark get`: what each does and the text it prints.
 */
import type { Deps } from '../shared/deps.js'
import { InputError } from '../shared/errors.js'
import { open } from '../shared/fsp.js'
import type { SearchEvent } from './events.js'
import type { IngestStats } from './ingest.js'
import { listCheckpoints } from './checkpoints.js'
import { readManifest } from './index-read.js'
import { ensureMemory, readLogState, withMemoryLock } from './log.js'
import { type MemoryLayout, memoryLayout, segmentPath } from './paths.js'
import { allSources } from './sources.js'

export interface IndexOptions {
  backfill?: boolean
  rebuild?: boolean
  status?: boolean
  progress?: (line: string) => void
}

export interface IndexStatus {
  events: number
  segments: number
  transcripts: number
  unreadable: number
  logBytes: number
  pending: boolean
}

export async function indexStatus(m: MemoryLayout): Promise<IndexStatus> {
  const state = await readLogState(m)
  const manifest = await readManifest(m)
  const sources = Object.values(await listCheckpoints(m, state))
  let logBytes = 0
  for (let s = 0; s <= state.segment; s++) {
    try {
      const fh = await open(segmentPath(m, s), 'r')
      logBytes += (await fh.stat()).size
      await fh.close()
    } catch {
      // not written yet
    }
  }
  return {
    events: manifest.segments.reduce((n, s) => n + s.docs, 0),
    segments: manifest.segments.length,
    transcripts: sources.length,
    unreadable: sources.reduce((n, s) => n + s.unreadable, 0),
    logBytes,
    pending: manifest.upTo.segment !== state.segment || manifest.upTo.offset !== state.committed,
  }
}

export function statusText(s: IndexStatus): string {
  return `Index: ${s.events} events in ${s.segments} segments from ${s.transcripts} transcripts (${s.unreadable} unreadable lines; log ${s.logBytes} bytes)${s.pending ? '; new events not indexed yet (`bookmark index`)' : ''}.`
}

export interface IndexResult {
  ingest?: IngestStats
  added: number
  torn: number
  status: IndexStatus
}

/** `bookmark index`: with --backfill, every transcript of every host first; then the index catches up with the log. */
export async function runIndex(opts: IndexOptions, deps: Deps): Promise<IndexResult> {
  if (opts.status) return { added: 0, torn: 0, status: await indexStatus(memoryLayout(deps.bookmarkHome)) }
  const m = await ensureMemory(deps.bookmarkHome)
  let ingested: IngestStats | undefined
  if (opts.backfill) {
    const sources = await allSources(deps.env)
    const { ingest } = await import('./ingest.js')
    ingested = await ingest(m, sources, {
      backfill: true,
      ...(opts.progress ? { onProgress: (done: number, total: number) => opts.progress!(`reading transcripts: ${done}/${total}`) } : {}),
    })
  }
  const { catchUpIndex } = await import('./indexer.js')
  const run = await withMemoryLock(m, () => catchUpIndex(m, opts.rebuild === true))
  return { ...(ingested ? { ingest: ingested } : {}), added: run.added, torn: run.torn, status: await indexStatus(m) }
}

export function indexText(r: IndexResult): string {
  const parts: string[] = []
  if (r.ingest) {
    const i = r.ingest
    parts.push(
      `Backfill: ${i.files} transcripts, ${i.read} read, ${i.events} new events, ${i.unreadable} unreadable lines${i.failed > 0 ? `, ${i.failed} files could not be read` : ''}.`,
    )
  }
  parts.push(`Indexed ${r.added} new events${r.torn > 0 ? ` (${r.torn} damaged log lines skipped)` : ''}. ${statusText(r.status)}`)
  return parts.join('\n')
}

/** `bookmark get ID`: the event whose id it is, read from the log. */
export async function getEvent(id: string, deps: Deps): Promise<SearchEvent> {
  if (!/^[0-9a-f]{12}$/.test(id)) throw new InputError(`not an event id: "${id}" (12 hex digits, as \`bookmark search\` prints them)`)
  const m = memoryLayout(deps.bookmarkHome)
  const state = await readLogState(m)
  const needle = Buffer.from(`{"id":"${id}"`)
  for (let s = state.segment; s >= 0; s--) {
    let data: Buffer
    try {
      const fh = await open(segmentPath(m, s), 'r')
      try {
        const size = s === state.segment ? state.committed : (await fh.stat()).size
        data = Buffer.alloc(size)
        await fh.read(data, 0, size, 0)
      } finally {
        await fh.close()
      }
    } catch {
      continue
    }
    const at = data.lastIndexOf(needle)
    if (at === -1) continue
    const end = data.indexOf(0x0a, at)
    try {
      return JSON.parse(data.toString('utf8', at, end === -1 ? data.length : end)) as SearchEvent
    } catch {
      continue
    }
  }
  throw new InputError(`no event ${id} in the index (\`bookmark search\` prints the ids)`)
}

export function eventText(e: SearchEvent): string {
  const lines = [
    `Event ${e.id}: ${e.kind}${e.tool ? ` (${e.tool})` : ''}${e.sub ? ', by a subagent' : ''}`,
    `When: ${e.ts ?? 'unknown'}`,
    `Project: ${e.project || '(unknown)'}`,
    `Session: ${e.session} (${e.host})`,
  ]
  if (e.paths && e.paths.length > 0) lines.push(`Paths: ${e.paths.join(', ')}`)
  lines.push('', e.text, '', `Read more: ${e.transcript}:${e.line} (the transcript line, e.g. sed -n '${e.line}p' '${e.transcript}')`)
  return lines.join('\n')
}
