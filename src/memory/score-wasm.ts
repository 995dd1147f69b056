/**
 * The scoring's inner loops as WebAssembly: query.ts `addPostings` (`add`) and the filter and floor checks of
 * `collectRelevant` (`filter`, `cut`). Why: a search is a fresh process, and a broad query (`go test failed` on
 * 200,000 events) sums about 85,000 postings and filters about 40,000 documents before V8 has optimised the
 * JavaScript loops: they ran in the baseline tiers (a keyed-load IC per typed-array access) and TurboFan then
 * compiled them on helper threads, together about 180 million instructions of a 337 million search.
 * WebAssembly is compiled at once to machine code (Liftoff) and needs no warming.
 *
 * Same arithmetic as the JavaScript, in the same order, on IEEE doubles: the sums are bit for bit the same
 * (score-wasm.test.ts compares them; query.test.ts compares the hits with the plain JavaScript way). The arrays live
 * in the module's memory, which the caller sees through typed arrays (`Kernel`). Without WebAssembly (`--jitless`),
 * or should anything here fail, `makeKernel` returns undefined and the JavaScript loops do the work.
 * The module's readable source is score-wasm-asm.ts; the bytes are kept here (assembling them at each search cost
 * more than compiling them).
 */

declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> }
  Memory: new (d: { initial: number }) => { buffer: ArrayBuffer }
}

/** score-wasm-asm.ts's `moduleBytes()`, base64. */
export const MODULE =
  'AGFzbQEAAAABTAZgDn9/f3x8fH9/f39/f39/AX9gDX9/f39/f39/fHx/f3wBf2AJf39/f3x/fHx/AX9gBn9/fHx8fwF/YAR/f39/AX9gBX9/f398AX8CCgEBbQNtZW0CAAADBwYAAQIDBAUHMQYDYWRkAAAGZmlsdGVyAAEDY3V0AAIEZmluZAADBWNsZWFyAAQJaGlzdG9ncmFtAAUKyQsG1wMDBn8CfAF/IAAhDkF/IQ9BACEQAkADQCAQIAJODQEgDiABTwRAQX8PCyAOLQAAIREgDkEBaiEOIBFB/wBxIRJBByETAkADQCARQYABSQ0BIA4gAU8EQEF/DwsgE0EcSwRAQX8PCyAOLQAAIREgDkEBaiEOIBIgEUH/AHEgE3RyIRIgE0EHaiETDAALCyAPQQFqIBJBAXZqIQ8gDyANTwRAQX8PC0QAAAAAAADwPyEUIBJBAXEEQCAOIAFPBEBBfw8LIA4tAAAhESAOQQFqIQ4gEUH/AHEhEkEHIRMCQANAIBFBgAFJDQEgDiABTwRAQX8PCyATQRxLBEBBfw8LIA4tAAAhESAOQQFqIQ4gEiARQf8AcSATdHIhEiATQQdqIRMMAAsLIBK4RAAAAAAAAABAoCEUCyAGIA9BA3RqIRYgFisDACEVIBVEAAAAAAAAAABhBEAgC0UEQCAHIAlBAnRqIA82AgAgCUEBaiEJBSAPIAxKBEAgCQ8LIBBBAWohEAwCCwsgFiAVIAMgFKIgFCAEoCAFIAggD0EBdGovAQC4oqCjoDkDACAKBEAgCiAPaiAKIA9qLQAAQQFqOgAACyAQQQFqIRAMAAsLIA4gAUYEfyAJBUF/Cwu2AQMDfwF8AX8CQANAIA0gAU4NASAAIA1BAnRqKAIAIQ8gDUEBaiENIAYgAyAPai0AAEEPcWotAABBAUcNACAHIAQgD0EBdGovAQBqLQAAQQFHDQAgBSAPQQN0aisDACEQIBAgCGMNACAQIAlmDQAgCiAOQQJ0aiAPNgIAIA5BAWohDiALIAIgD0EDdGorAwAgDKJEAAAAAADgb0Ckq0ECdGohESARIBEoAgBBAWo2AgAMAAsLIA4LpwECBH8BfAJAA0AgCSACTg0BIAAgCUECdGooAgAhCyAJQQFqIQlBPyEMIAUgC0EDdGorAwAhDSANRAAAAAAAAAAAZARAIAYgDaEgB6IhDUEAIQwgDUQAAAAAAAAAAGYEQCANRAAAAAAAgE9ApKshDAsLIAMgC0EDdGorAwAgCCAMQQN0aisDAKIgBGMNACABIApBAnRqIAs2AgAgCkEBaiEKDAALCyAKC+cDAgF/BHwCQANAIAAgAU8NASAAIAFPBEBBfw8LIAAtAAAhBiAAQQFqIQAgBkH/AHG4IQdEAAAAAAAAYEAhCAJAA0AgBkGAAUkNASAAIAFPBEBBfw8LIAhEAAAAAAAAAENkBEBBfw8LIAAtAAAhBiAAQQFqIQAgByAGQf8AcbggCKKgIQcgCEQAAAAAAABgQKIhCAwACwsgAiAHoCECIAAgAU8EQEF/DwsgAC0AACEGIABBAWohACAGQf8AcbghB0QAAAAAAABgQCEIAkADQCAGQYABSQ0BIAAgAU8EQEF/DwsgCEQAAAAAAAAAQ2QEQEF/DwsgAC0AACEGIABBAWohACAHIAZB/wBxuCAIoqAhByAIRAAAAAAAAGBAoiEIDAALCyAHIQkgACABTwRAQX8PCyAALQAAIQYgAEEBaiEAIAZB/wBxuCEHRAAAAAAAAGBAIQgCQANAIAZBgAFJDQEgACABTwRAQX8PCyAIRAAAAAAAAABDZARAQX8PCyAALQAAIQYgAEEBaiEAIAcgBkH/AHG4IAiioCEHIAhEAAAAAAAAYECiIQgMAAsLIAchCiACIANhBEAgBSAJOQMAIAUgCjkDCCAFIAQ5AxBBAQ8LIAIgA2QEQEEADwsgBCAKoCEEDAALC0EAC0wBAn8CQANAIAQgAU4NASAAIARBAnRqKAIAIQUgBEEBaiEEIAIgBUEDdGpEAAAAAAAAAAA5AwAgAwRAIAMgBWpBADoAAAsMAAsLIAELVwEDfwJAA0AgBSABTg0BIAAgBUECdGooAgAhBiAFQQFqIQUgAyACIAZBA3RqKwMAIASiRAAAAAAA4G9ApKtBAnRqIQcgByAHKAIAQQFqNgIADAALCyABCw=='

/** A kernel reads lists and columns straight into its memory (segment.ts): no array made and copied per read. */
export interface Source {
  /** `length` bytes of the segment file from `at`, into `into` from `offset`. */
  readInto(at: number, length: number, into: Uint8Array, offset: number): void
  /** The bytes of a per-document column, into `into` (at most its length). */
  columnInto(name: ColumnName, into: Uint8Array): void
}

export type ColumnName = 'ts' | 'lengths' | 'projects' | 'kinds'

/** A term's place in a segment's postings, as segment.ts `findTerm` gives it. */
export interface TermPlace {
  df: number
  length: number
  /** The offset of its postings in the file. */
  at: number
}

export interface Kernel {
  /** Sums by document, touched documents, term counts (when asked for): views of the module's memory. */
  acc: Float64Array
  touched: Int32Array
  matched: Uint8Array | undefined
  /** Reads a segment's lengths in (again only for another segment). */
  loadLengths(seg: Source): void
  /** A segment's times (read in once per segment): the offers' recency boost. */
  tsOf(seg: Source): Float64Array
  /** The longest list `add` takes. */
  maxList: number
  /**
   * query.ts `addPostings` over the list of `length` bytes at `at` in `seg` (read into the module's memory), on the
   * module's arrays (`count`: a term `matched` counts).
   */
  add(
    seg: Source,
    at: number,
    length: number,
    df: number,
    weight: number,
    norm0: number,
    normPer: number,
    nt: number,
    count: boolean,
    only: boolean,
    upTo: number,
    docs: number,
  ): number
  /**
   * segment.ts `findTerm`'s scan of the dictionary block of `length` bytes at `at` (first hash `first`, first postings
   * offset `postAt`) for `hash`: its place (`at` from `postAt` on), null when absent, undefined when the block is too
   * long for the module's room or its bytes are damaged (the JavaScript then reads it, and says what is wrong).
   */
  find(seg: Source, at: number, length: number, first: number, hash: number, postAt: number): TermPlace | null | undefined
  /** query.ts `clear`: zeroes the sums (and counts) of `touched[0 .. nt)`. */
  clear(nt: number): void
  /** The documents `filter` and `cut` leave, and `filter`'s histogram of scores. */
  out: Int32Array
  hist: Int32Array
  /**
   * Of `touched[0 .. nt)`, those that pass the filters, into `out` (a segment's columns read in); returns their count.
   * With no filter at all, `out` is left as it is and `cut` takes them from `touched`.
   */
  filter(seg: Source, nt: number, kindMask: Uint8Array, okProject: Uint8Array, since: number, before: number, scale: number): number
  /**
   * A sum at least k of the documents `filter` passed reach (from its histogram, which this clears); -Infinity when
   * fewer than k passed. The bucket below the k-th's: `acc * scale` rounds, so a bucket's lower edge may be a hair off.
   */
  edge(k: number, scale: number): number
  /**
   * Keeps in `out[0 .. m)` those whose sum times a bound of their boost reaches `floor`; returns their count. The
   * bound by age (`seg`'s times, read in): `bounds[i]` for `i` steps (`perStep` steps a ms, 63 at most, and for a
   * document without a time), `bounds[0]` for one in the future.
   */
  cut(m: number, floor: number, seg: Source, now: number, perStep: number, bounds: Float64Array): number
}

/** Bytes a dictionary block takes at most (64 terms of three varints: 8, 4 and 5 bytes), room to spare. */
const DICT_ROOM = 4096

/**
 * A kernel for segments of at most `most` documents and lists of at most `maxList` bytes; undefined when
 * WebAssembly cannot be had (the caller then runs the JavaScript loop).
 */
export function makeKernel(most: number, maxList: number, withMatched: boolean): Kernel | undefined {
  if (typeof WebAssembly !== 'object' || most >= 2 ** 26 || maxList >= 2 ** 30) return undefined
  // A long-running process (the MCP server) searches again and again: the last kernel serves while it is big enough.
  // Its arrays are left zeroed by each search (query.ts clears what it touched; one that throws drops the kernel).
  if (kept && kept.most >= most && kept.maxList >= maxList && kept.withMatched === withMatched) return kept.kernel
  const kernel = freshKernel(most, maxList, withMatched)
  kept = kernel && { kernel, most, maxList, withMatched }
  return kernel
}

let kept: { kernel: Kernel; most: number; maxList: number; withMatched: boolean } | undefined

/** Drops the kept kernel: a search that threw may have left sums in it. */
export function dropKernel(): void {
  kept = undefined
}

function freshKernel(most: number, maxList: number, withMatched: boolean): Kernel | undefined {
  const n = (Math.max(1, most) + 7) & ~7 // every array 8-byte aligned
  const acc = 0
  const touched = acc + n * 8
  const matched = touched + n * 4
  const lengths = matched + (withMatched ? n : 0)
  const ts = lengths + n * 2
  const out = ts + n * 8
  const projects = out + n * 4
  const kinds = projects + n * 2
  const mask = kinds + n
  const ok = mask + 16 // a project number is a uint16: every one has its byte
  const hist = ok + 65536
  const boundsAt = hist + 256 * 4
  const result = boundsAt + 64 * 8
  const dict = result + 3 * 8
  const list = dict + DICT_ROOM
  const pages = Math.ceil((list + maxList + 16) / 65536)
  try {
    const mem = new WebAssembly.Memory({ initial: pages })
    const instance = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(MODULE, 'base64')), { m: { mem } })
    const add = instance.exports.add as (...args: number[]) => number
    const filter = instance.exports.filter as (...args: number[]) => number
    const cut = instance.exports.cut as (...args: number[]) => number
    const find = instance.exports.find as (...args: number[]) => number
    const clear = instance.exports.clear as (...args: number[]) => number
    const histogram = instance.exports.histogram as (...args: number[]) => number
    // Where `cut` takes the documents `filter` passed from: `out`, or `touched` when it passed them all.
    let passed = out
    const bytes = new Uint8Array(mem.buffer)
    const okView = new Uint8Array(mem.buffer, ok, 65536)
    const tsView = new Float64Array(mem.buffer, ts, n)
    const resultView = new Float64Array(mem.buffer, result, 3)
    const boundsView = new Float64Array(mem.buffer, boundsAt, 64)
    let boundsOf: Float64Array | undefined
    const into = { kinds: bytes.subarray(kinds, kinds + n), projects: bytes.subarray(projects, projects + n * 2), ts: bytes.subarray(ts, ts + n * 8) }
    let okUsed = 0
    // The segment whose column each area holds: read in again only for another one.
    const holds: Partial<Record<ColumnName, Source>> = {}
    const load = (seg: Source, name: ColumnName, area: Uint8Array): void => {
      if (holds[name] === seg) return
      holds[name] = undefined // a read that throws leaves the area unknown
      seg.columnInto(name, area)
      holds[name] = seg
    }
    const lengthsArea = bytes.subarray(lengths, lengths + n * 2)
    const histView = new Int32Array(mem.buffer, hist, 256)
    return {
      out: new Int32Array(mem.buffer, out, n),
      hist: histView,
      filter: (seg, nt, kindMask, okProject, since, before, scale) => {
        // A column is read in only when a filter reads it (a check that passes every document passes whatever
        // the bytes hold), and again only for another segment: copying a segment's columns at each call cost more
        // than a small search in a warm process.
        let allKinds = true
        for (let i = 0; i < 16; i++) if (kindMask[i] !== 1) allKinds = false
        let allProjects = true
        for (let p = 0; p + 1 < okProject.length; p++) if (okProject[p] !== 1) allProjects = false
        const anyTime = since > -Infinity || before < Infinity
        // No filter (a search of every project, kind and time): the histogram alone, no copy of `touched` into `out`.
        passed = allKinds && allProjects && !anyTime ? touched : out
        if (passed === touched) return histogram(touched, nt, acc, hist, scale)
        if (!allKinds) load(seg, 'kinds', into.kinds)
        if (!allProjects) load(seg, 'projects', into.projects)
        if (anyTime) load(seg, 'ts', into.ts)
        bytes.set(kindMask.subarray(0, 16), mask)
        if (allProjects) {
          // Every project number passes (a segment holds no other).
          if (okUsed !== -1) okView.fill(1)
          okUsed = -1
        } else {
          okView.fill(0, 0, okUsed === -1 ? 65536 : okUsed)
          okUsed = Math.min(okProject.length, 65536)
          okView.set(okProject.subarray(0, okUsed))
        }
        return filter(touched, nt, acc, kinds, projects, ts, mask, ok, since, before, out, hist, scale)
      },
      edge: (k, scale) => {
        let edge = -Infinity
        for (let b = 255, seen = 0; b >= 1; b--) {
          seen += histView[b]!
          if (seen >= k) {
            edge = (b - 1) / scale
            break
          }
        }
        histView.fill(0)
        return edge
      },
      cut: (m, floor, seg, now, perStep, bounds) => {
        load(seg, 'ts', into.ts)
        if (bounds !== boundsOf) boundsView.set(bounds.subarray(0, 64))
        boundsOf = bounds
        return cut(passed, out, m, acc, floor, ts, now, perStep, boundsAt)
      },
      acc: new Float64Array(mem.buffer, acc, n),
      touched: new Int32Array(mem.buffer, touched, n),
      matched: withMatched ? new Uint8Array(mem.buffer, matched, n) : undefined,
      loadLengths: (seg) => load(seg, 'lengths', lengthsArea),
      tsOf: (seg) => {
        load(seg, 'ts', into.ts)
        return tsView
      },
      maxList,
      add: (seg, at, length, df, weight, norm0, normPer, nt, count, only, upTo, docs) => {
        if (length > maxList || docs > n) return -1
        seg.readInto(at, length, bytes, list)
        const m = withMatched && count ? matched : 0
        return add(list, list + length, df, weight, norm0, normPer, acc, touched, lengths, nt, m, only ? 1 : 0, upTo, docs)
      },
      find: (seg, at, length, first, hash, postAt) => {
        if (!(length >= 0 && length <= DICT_ROOM)) return undefined
        seg.readInto(at, length, bytes, dict)
        const r = find(dict, dict + length, first, hash, postAt, result)
        if (r < 0) return undefined
        return r === 0 ? null : { df: resultView[0]!, length: resultView[1]!, at: resultView[2]! }
      },
      clear: (nt) => {
        clear(touched, nt, acc, withMatched ? matched : 0)
      },
    }
  } catch {
    return undefined
  }
}
