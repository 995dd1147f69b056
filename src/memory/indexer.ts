/**
 * The inverted index over the events log: segment files in <home>/memory/index/ and manifest.json, which lists
 * them with the log range each covers and how far the index has read. New events become a new small segment
 * (in pieces of PIECE events, so that memory stays bounded); when small segments pile up, the newest of them
 * are merged into one, file to file (no log read, no tokenizing). The whole index is rewritten only by --rebuild.
 * Every step runs under the memory lock and ends with an atomic manifest: a build killed midway leaves the
 * manifest of the last finished piece, and the next run reads the log on from there.
 * A manifest of version 1 lists format 1 segments: each is converted to format 2 (file to file) on the next
 * catch-up, and read converted in memory until then.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { readdir, unlink } from '../shared/fsp.js'
import { TEMP_SUFFIX, atomicWrite } from '../store/atomic.js'
import { randomHex } from '../shared/random.js'
import { writeJson } from '../store/files.js'
import { type LogPosition, type LogState, type MemoryLayout, comparePosition, readEvents, readLogState } from './log.js'
import { type Manifest, type SegmentEntry, emptyManifest, manifestPath, readManifest } from './index-read.js'
import { LegacySegment, MAGIC_V1, type Segment, openSegment, segmentFromBuffer } from './segment.js'
import { buildSegment, mergeSegments } from './segment-build.js'
import { convertLegacy } from './segment-legacy.js'

/** Events per index piece: about 4 s and a few hundred MB at most to build one. */
export const PIECE = 50_000
/** More segments than this: the newest small ones are merged. */
const MAX_SEGMENTS = 8
const SMALL = 20_000

async function saveManifest(m: MemoryLayout, manifest: Manifest): Promise<void> {
  await writeJson(manifestPath(m), manifest, { redacted: true })
}

export interface IndexRun {
  added: number
  torn: number
  merged: number
  /** Format 1 segments converted. */
  converted: number
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
    const file = newFile()
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
  const run: IndexRun = { added: 0, torn: 0, merged: 0, converted: 0 }
  if (manifest.version === 1) {
    run.converted = await convertAll(m, manifest)
    manifest = await readManifest(m)
  }
  if (rebuild || comparePosition(manifest.upTo, end) < 0) {
    const r = await buildRange(m, state, manifest.upTo, async (entry) => {
      manifest = { version: manifest.version, segments: [...manifest.segments, entry], upTo: entry.to }
      await saveManifest(m, manifest)
    })
    run.added = r.added
    run.torn = r.torn
    if (comparePosition(manifest.upTo, end) < 0) {
      manifest = { ...manifest, upTo: end } // only unreadable lines were left
      await saveManifest(m, manifest)
    }
  }
  if (manifest.segments.length > MAX_SEGMENTS) run.merged = await mergeSmall(m, manifest)
  // After any build: a build killed before its manifest named its piece left the file unlisted, or half written.
  if (rebuild || run.added > 0 || run.merged > 0 || run.converted > 0) await removeStray(m, await readManifest(m))
  return run
}

async function writeSegment(path: string, data: Buffer): Promise<void> {
  await atomicWrite(path, data, { mode: 0o600, durable: false })
}

/** A segment to merge (a format 1 one converted). */
function openWhole(path: string): Segment {
  try {
    return openSegment(path)
  } catch (e) {
    if (!(e instanceof LegacySegment)) throw e
    return segmentFromBuffer(convertLegacy(e.file, path), path)
  }
}

const newFile = (): string => `seg-${Date.now().toString(36)}-${randomHex(4)}.bin`

/** Every segment of a version 1 manifest written again in format 2, one at a time, each step committed. */
async function convertAll(m: MemoryLayout, manifest: Manifest): Promise<number> {
  const segments = [...manifest.segments]
  let converted = 0
  for (let i = 0; i < segments.length; i++) {
    const path = join(m.index, segments[i]!.file)
    let data: Buffer
    try {
      const file = readFileSync(path)
      if (file.length < 4 || file.readUInt32LE(0) !== MAGIC_V1) continue
      data = convertLegacy(file, path)
    } catch {
      // Unreadable: the whole index is built again from the log.
      await saveManifest(m, emptyManifest())
      return converted
    }
    const file = newFile()
    await writeSegment(join(m.index, file), data)
    segments[i] = { ...segments[i]!, file }
    await saveManifest(m, { version: 1, segments, upTo: manifest.upTo })
    converted++
  }
  await saveManifest(m, { version: 2, segments, upTo: manifest.upTo })
  return converted
}

/** Merges the newest run of small segments into one (they cover one stretch of the log). */
async function mergeSmall(m: MemoryLayout, manifest: Manifest): Promise<number> {
  let first = manifest.segments.length
  let docs = 0
  while (first > 0 && manifest.segments[first - 1]!.docs < SMALL && docs + manifest.segments[first - 1]!.docs <= PIECE) {
    first--
    docs += manifest.segments[first]!.docs
  }
  if (manifest.segments.length - first < 2) return 0
  const merged = manifest.segments.slice(first)
  const segs = merged.map((s) => openWhole(join(m.index, s.file)))
  let data: Buffer
  try {
    data = mergeSegments(segs)
  } finally {
    for (const s of segs) s.close()
  }
  const entry: SegmentEntry = { file: newFile(), docs, from: merged[0]!.from, to: merged[merged.length - 1]!.to }
  await writeSegment(join(m.index, entry.file), data)
  await saveManifest(m, { version: manifest.version, segments: [...manifest.segments.slice(0, first), entry], upTo: manifest.upTo })
  return merged.length
}

/**
 * Segment files no manifest names (a build killed before its manifest, segments merged away) and segment temp files
 * (a build killed while writing one). Called under the memory lock, which every build holds: none is being written.
 */
async function removeStray(m: MemoryLayout, manifest: Manifest): Promise<void> {
  const keep = new Set(manifest.segments.map((s) => s.file))
  for (const name of await readdir(m.index).catch(() => [] as string[])) {
    if (!name.startsWith('seg-')) continue
    const stray = name.endsWith('.bin') ? !keep.has(name) : TEMP_SUFFIX.test(name) && name.includes('.bin.')
    if (stray) await unlink(join(m.index, name)).catch(() => undefined)
  }
}

/**
 * Builds again from the log the segments that hold any of `at` (events `forget` blanked in the log), without
 * them; a segment left with no event goes. Call under the memory lock. Returns how many were built again.
 */
export async function rebuildCovering(m: MemoryLayout, at: LogPosition[]): Promise<number> {
  const state = await readLogState(m)
  let manifest = await readManifest(m)
  if (manifest.version === 1) {
    await convertAll(m, manifest) // segments of the first format are rebuilt in the second one first
    manifest = await readManifest(m)
  }
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
