/**
 * The inverted index over the events log: segment files in <home>/memory/index/ and manifest.json, which lists
 * them with the log range each covers and how far the index has read. New events become a new small segment
 * (in pieces of PIECE events, so that memory stays bounded); when small segments pile up, the newest of them
 * are built again as one from their log range. The whole index is rewritten only by --rebuild.
 * Every step runs under the memory lock and ends with an atomic manifest: a build killed midway leaves the
 * manifest of the last finished piece, and the next run reads the log on from there.
 */
import { join } from 'node:path'
import { readdir, readRegularFile, unlink } from '../shared/fsp.js'
import { randomHex } from '../shared/random.js'
import { writeJson } from '../store/files.js'
import { type LogPosition, type LogState, type MemoryLayout, comparePosition, readEvents, readLogState } from './log.js'
import { type Segment, buildSegment, openSegment, writeSegment } from './segment.js'

export interface SegmentEntry {
  file: string
  docs: number
  from: LogPosition
  to: LogPosition
}

export interface Manifest {
  version: 1
  segments: SegmentEntry[]
  upTo: LogPosition
}

/** Events per index piece: about 4 s and a few hundred MB at most to build one. */
export const PIECE = 50_000
/** More segments than this: the newest small ones are merged. */
const MAX_SEGMENTS = 8
const SMALL = 20_000

const manifestPath = (m: MemoryLayout): string => join(m.index, 'manifest.json')
const emptyManifest = (): Manifest => ({ version: 1, segments: [], upTo: { segment: 0, offset: 0 } })

export async function readManifest(m: MemoryLayout): Promise<Manifest> {
  try {
    const v = JSON.parse(await readRegularFile(manifestPath(m))) as Partial<Manifest>
    if (v && v.version === 1 && Array.isArray(v.segments) && v.upTo) return v as Manifest
  } catch {
    // missing or damaged: built again from the log
  }
  return emptyManifest()
}

async function saveManifest(m: MemoryLayout, manifest: Manifest): Promise<void> {
  await writeJson(manifestPath(m), manifest, { redacted: true })
}

export interface IndexRun {
  added: number
  torn: number
  merged: number
}

async function buildRange(
  m: MemoryLayout,
  state: LogState,
  from: LogPosition,
  onPiece: (entry: SegmentEntry) => Promise<void>,
): Promise<{ added: number; torn: number }> {
  let added = 0
  let start = from
  const { torn } = await readEvents(m, state, from, PIECE, async (events, end) => {
    const file = `seg-${Date.now().toString(36)}-${randomHex(4)}.bin`
    await writeSegment(join(m.index, file), buildSegment(events, start, end))
    await onPiece({ file, docs: events.length, from: start, to: end })
    added += events.length
    start = end
  })
  return { added, torn }
}

/** Indexes what the log gained since the manifest's `upTo`. Call under the memory lock. */
export async function catchUpIndex(m: MemoryLayout, rebuild = false): Promise<IndexRun> {
  const state = await readLogState(m)
  let manifest = rebuild ? emptyManifest() : await readManifest(m)
  const end: LogPosition = { segment: state.segment, offset: state.committed }
  const run: IndexRun = { added: 0, torn: 0, merged: 0 }
  if (rebuild || comparePosition(manifest.upTo, end) < 0) {
    const r = await buildRange(m, state, manifest.upTo, async (entry) => {
      manifest = { version: 1, segments: [...manifest.segments, entry], upTo: entry.to }
      await saveManifest(m, manifest)
    })
    run.added = r.added
    run.torn = r.torn
    if (comparePosition(manifest.upTo, end) < 0) {
      manifest = { ...manifest, upTo: end } // only unreadable lines were left
      await saveManifest(m, manifest)
    }
  }
  if (manifest.segments.length > MAX_SEGMENTS) run.merged = await mergeSmall(m, state, manifest)
  if (rebuild || run.merged > 0) await removeStray(m, await readManifest(m))
  return run
}

/** Builds the newest run of small segments again as one (they cover one stretch of the log). */
async function mergeSmall(m: MemoryLayout, state: LogState, manifest: Manifest): Promise<number> {
  let first = manifest.segments.length
  let docs = 0
  while (first > 0 && manifest.segments[first - 1]!.docs < SMALL && docs + manifest.segments[first - 1]!.docs <= PIECE) {
    first--
    docs += manifest.segments[first]!.docs
  }
  if (manifest.segments.length - first < 2) return 0
  const merged = manifest.segments.slice(first)
  const pieces: SegmentEntry[] = []
  const bounded: LogState = { ...state, segment: merged[merged.length - 1]!.to.segment, committed: merged[merged.length - 1]!.to.offset }
  await buildRange(m, bounded, merged[0]!.from, async (entry) => {
    pieces.push(entry)
  })
  await saveManifest(m, { version: 1, segments: [...manifest.segments.slice(0, first), ...pieces], upTo: manifest.upTo })
  return merged.length
}

/** Segment files no manifest names (a build killed before its manifest, segments merged away). */
async function removeStray(m: MemoryLayout, manifest: Manifest): Promise<void> {
  const keep = new Set(manifest.segments.map((s) => s.file))
  for (const name of await readdir(m.index).catch(() => [] as string[])) {
    if (/^seg-.*\.bin$/.test(name) && !keep.has(name)) await unlink(join(m.index, name)).catch(() => undefined)
  }
}

export interface OpenIndex {
  manifest: Manifest
  segments: Segment[]
}

/** The index as the manifest lists it; a segment merged away meanwhile makes it read the manifest again. */
export async function openIndex(m: MemoryLayout): Promise<OpenIndex> {
  for (let attempt = 0; ; attempt++) {
    const manifest = await readManifest(m)
    try {
      return { manifest, segments: manifest.segments.map((s) => openSegment(join(m.index, s.file))) }
    } catch (e) {
      if (attempt >= 2) throw e
    }
  }
}

/**
 * Builds again from the log the segments that hold any of `at` (events `forget` blanked in the log), without
 * them; a segment left with no event goes. Call under the memory lock. Returns how many were built again.
 */
export async function rebuildCovering(m: MemoryLayout, at: LogPosition[]): Promise<number> {
  const state = await readLogState(m)
  const manifest = await readManifest(m)
  const holds = (s: SegmentEntry): boolean => at.some((p) => comparePosition(p, s.from) >= 0 && comparePosition(p, s.to) < 0)
  const segments: SegmentEntry[] = []
  let rebuilt = 0
  for (const s of manifest.segments) {
    if (!holds(s)) {
      segments.push(s)
      continue
    }
    rebuilt++
    await buildRange(m, { ...state, segment: s.to.segment, committed: s.to.offset }, s.from, async (entry) => {
      segments.push(entry)
    })
  }
  if (rebuilt === 0) return 0
  await saveManifest(m, { ...manifest, segments })
  await removeStray(m, await readManifest(m))
  return rebuilt
}
