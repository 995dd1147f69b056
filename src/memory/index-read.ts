/**
 * Reading the index (indexer.ts writes it): the manifest, and the segments it lists opened for lazy reads.
 * A search loads this and none of the writers.
 */
import { join } from 'node:path'
import { readRegularFile } from '../shared/fsp.js'
import type { LogPosition } from './log.js'
import type { MemoryLayout } from './paths.js'
import { LegacySegment, type Segment, openSegment, segmentFromBuffer } from './segment.js'

export interface SegmentEntry {
  file: string
  docs: number
  from: LogPosition
  to: LogPosition
}

export interface Manifest {
  /** 2; 1 when format 1 segments may be listed (indexer.ts converts them). */
  version: 1 | 2
  segments: SegmentEntry[]
  upTo: LogPosition
}

export const manifestPath = (m: MemoryLayout): string => join(m.index, 'manifest.json')
export const emptyManifest = (): Manifest => ({ version: 2, segments: [], upTo: { segment: 0, offset: 0 } })

export async function readManifest(m: MemoryLayout): Promise<Manifest> {
  try {
    const v = JSON.parse(await readRegularFile(manifestPath(m))) as Partial<Manifest>
    if (v && (v.version === 1 || v.version === 2) && Array.isArray(v.segments) && v.upTo) return v as Manifest
  } catch {
    // missing or damaged: built again from the log
  }
  return emptyManifest()
}

export interface OpenIndex {
  manifest: Manifest
  segments: Segment[]
}

/** A segment file, a format 1 one converted in memory (the converter is loaded only then). */
async function open(path: string): Promise<Segment> {
  try {
    return openSegment(path)
  } catch (e) {
    if (!(e instanceof LegacySegment)) throw e
    const { convertLegacy } = await import('./segment-legacy.js')
    return segmentFromBuffer(convertLegacy(e.file, path), path)
  }
}

/** The index as the manifest lists it; a segment merged away meanwhile makes it read the manifest again. */
export async function openIndex(m: MemoryLayout): Promise<OpenIndex> {
  for (let attempt = 0; ; attempt++) {
    const manifest = await readManifest(m)
    const segments: Segment[] = []
    try {
      for (const s of manifest.segments) segments.push(await open(join(m.index, s.file)))
      return { manifest, segments }
    } catch (e) {
      closeIndex({ manifest, segments })
      if (attempt >= 2) throw e
    }
  }
}

/** Closes the segment files an open index holds. */
export function closeIndex(index: OpenIndex): void {
  for (const s of index.segments) s.close()
}
