import { describe, expect, it } from 'vitest'
import { ByteWriter, encodePostings } from './codec.js'
import { addPostings } from './query.js'
import { type ColumnName, MODULE, type Source, makeKernel } from './score-wasm.js'
import { moduleBytes } from './score-wasm-asm.js'

/** A kernel's source over `file` (bytes as a segment file would hold them) and columns held in arrays. */
function source(file: Uint8Array, columns: Partial<Record<ColumnName, ArrayBufferView>> = {}): Source {
  return {
    readInto: (at, length, into, offset) => into.set(file.subarray(at, at + length), offset),
    columnInto: (name, into) => {
      const v = columns[name]!
      into.set(new Uint8Array(v.buffer, v.byteOffset, Math.min(v.byteLength, into.length)))
    },
  }
}

function random(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

/** A posting list over `docs` documents: each held with chance `p`, counts mostly 1, some large (two-byte varints). */
function list(rnd: () => number, docs: number, p: number): { df: number; length: number; bytes: Uint8Array } {
  const ds: number[] = []
  const tfs: number[] = []
  for (let d = 0; d < docs; d++) {
    if (rnd() >= p) continue
    ds.push(d)
    const r = rnd()
    tfs.push(r < 0.7 ? 1 : r < 0.95 ? 2 + Math.floor(rnd() * 5) : 100 + Math.floor(rnd() * 900))
  }
  const w = new ByteWriter()
  encodePostings(w, ds, tfs)
  const bytes = w.view().slice()
  return { df: ds.length, length: bytes.length, bytes }
}

describe('the WebAssembly scoring loop', () => {
  it('sums exactly as the JavaScript loop does, in every mode', () => {
    const rnd = random(7)
    for (const docs of [1, 37, 5000, 40_000]) {
      const lists = [0.002, 0.05, 0.3, 0.9].map((p) => list(rnd, docs, p))
      const lengths = Uint16Array.from({ length: docs }, () => Math.floor(rnd() ** 2 * 3000))
      for (const recent of [false, true]) {
        const kernel = makeKernel(docs + 3, Math.max(...lists.map((l) => l.length)), recent)
        expect(kernel).toBeDefined()
        const acc = new Float64Array(docs + 3)
        const touched = new Int32Array(docs + 3)
        const matched = recent ? new Uint8Array(docs + 3) : undefined
        kernel!.acc.fill(0)
        kernel!.matched?.fill(0)
        kernel!.loadLengths(source(new Uint8Array(0), { lengths }))
        let nt = 0
        let nk = 0
        let upTo = -1
        lists.forEach((l, i) => {
          const only = i >= 2
          if (only && upTo < 0) upTo = Math.floor(docs * 0.8) - 1
          const weight = 1 + rnd() * 9
          nt = addPostings(l, weight, lengths, 0.3, 0.9 / 321.7, acc, touched, nt, i !== 1 ? matched : undefined, only, upTo)
          nk = kernel!.add(source(l.bytes), 0, l.length, l.df, weight, 0.3, 0.9 / 321.7, nk, i !== 1, only, upTo, docs)
          expect(nk).toBe(nt)
        })
        expect(Array.from(kernel!.touched.subarray(0, nk))).toEqual(Array.from(touched.subarray(0, nt)))
        expect(Array.from(kernel!.acc.subarray(0, docs))).toEqual(Array.from(acc.subarray(0, docs)))
        if (matched) expect(Array.from(kernel!.matched!.subarray(0, docs))).toEqual(Array.from(matched.subarray(0, docs)))
        // What it touched, cleared: the next segment starts from zero.
        kernel!.clear(nk)
        expect(kernel!.acc.every((x) => x === 0)).toBe(true)
        if (matched) expect(kernel!.matched!.every((x) => x === 0)).toBe(true)
      }
    }
  })

  it('answers -1 for a damaged list, as the JavaScript loop does', () => {
    const rnd = random(9)
    const l = list(rnd, 3000, 0.2)
    const kernel = makeKernel(3000, l.length, false)!
    const lengths = new Uint16Array(3000).fill(10)
    kernel.loadLengths(source(new Uint8Array(0), { lengths }))
    const js = (df: number, bytes: Uint8Array): number =>
      addPostings({ df, bytes }, 1, lengths, 0.3, 0.01, new Float64Array(3000), new Int32Array(3000), 0, undefined, false, -1)
    for (const [df, bytes] of [
      [l.df - 1, l.bytes],
      [l.df, l.bytes.subarray(0, l.length - 1)],
    ] as const) {
      expect(js(df, bytes)).toBe(-1)
      kernel.acc.fill(0)
      expect(kernel.add(source(bytes), 0, bytes.length, df, 1, 0.3, 0.01, 0, false, false, -1, 3000)).toBe(-1)
    }
    // A document past the segment's end, and a varint longer than five bytes.
    kernel.acc.fill(0)
    const bad = (b: Uint8Array): number => kernel.add(source(b), 0, b.length, 1, 1, 0.3, 0.01, 0, false, false, -1, 3000)
    expect(bad(Uint8Array.of(0xfe, 0x7f))).toBe(-1)
    expect(bad(Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x80, 0x01))).toBe(-1)
  })
})

describe('the WebAssembly filter', () => {
  it('passes the documents collectRelevant passes, cuts at a floor k of them reach', () => {
    const rnd = random(11)
    const docs = 20_000
    const kernel = makeKernel(docs, 16, false)!
    const cols = {
      kinds: Uint8Array.from({ length: docs }, () => Math.floor(rnd() * 11) | (Math.floor(rnd() * 3) << 4)),
      projects: Uint16Array.from({ length: docs }, () => Math.floor(rnd() * 40)),
      ts: Float64Array.from({ length: docs }, (_, d) => (d % 97 === 0 ? NaN : 1000 + Math.floor(rnd() * 1e6))),
    }
    const seg = source(new Uint8Array(0), cols)
    const kindMask = Uint8Array.from({ length: 16 }, () => (rnd() < 0.7 ? 1 : 0))
    const okProject = Uint8Array.from({ length: 39 }, () => (rnd() < 0.6 ? 1 : 0)) // project 39 has no byte: not ok
    const most = 12.5
    kernel.acc.fill(0)
    let nt = 0
    for (let d = 0; d < docs; d++) {
      if (rnd() < 0.5) continue
      kernel.touched[nt++] = d
      kernel.acc[d] = rnd() ** 3 * most
    }
    const since = 200_000
    const before = 900_000
    const want = Array.from(kernel.touched.subarray(0, nt)).filter((d) => {
      const t = cols.ts[d]!
      return kindMask[cols.kinds[d]! & 0x0f] === 1 && okProject[cols.projects[d]!] === 1 && !(t < since || t >= before)
    })
    const scale = 255 / most
    const m = kernel.filter(seg, nt, kindMask, okProject, since, before, scale)
    expect(Array.from(kernel.out.subarray(0, m))).toEqual(want)
    const sums = want.map((d) => kernel.acc[d]!).sort((a, b) => b - a)
    for (const k of [1, 56, 1000, want.length, want.length + 1]) {
      // edge() clears the histogram: filter again for each k.
      kernel.filter(seg, nt, kindMask, okProject, since, before, scale)
      const edge = kernel.edge(k, scale)
      if (k > want.length) expect(edge).toBe(-Infinity)
      else {
        expect(sums.filter((s) => s >= edge).length).toBeGreaterThanOrEqual(k)
        // Within two buckets of the k-th sum (the lowest bucket gives no edge).
        if (sums[k - 1]! >= (2 * most) / 255) expect(edge).toBeGreaterThan(sums[k - 1]! - (2 * most) / 255)
      }
    }
    // No filter: every touched document passes, whatever columns were copied in before.
    const all = kernel.filter(
      seg,
      nt,
      new Uint8Array(16).fill(1),
      Uint8Array.from({ length: 41 }, (_, p) => (p < 40 ? 1 : 0)),
      -Infinity,
      Infinity,
      scale,
    )
    expect(all).toBe(nt)
    // Its histogram is the filter's over them all (a time bound that passes every one takes the filter's way), and
    // the cut takes them from `touched`.
    const allKinds = new Uint8Array(16).fill(1)
    const allProjects = Uint8Array.from({ length: 41 }, (_, p) => (p < 40 ? 1 : 0))
    for (const k of [1, 56, 1000, nt]) {
      kernel.filter(seg, nt, allKinds, allProjects, -Infinity, Infinity, scale)
      const fast = kernel.edge(k, scale)
      expect(kernel.filter(seg, nt, allKinds, allProjects, -1e300, Infinity, scale)).toBe(nt)
      expect(kernel.edge(k, scale)).toBe(fast)
    }
    kernel.filter(seg, nt, allKinds, allProjects, -Infinity, Infinity, scale)
    kernel.edge(1, scale)
    const n = kernel.cut(nt, -Infinity, seg, 0, 1, new Float64Array(64).fill(1.25))
    expect(Array.from(kernel.out.subarray(0, n))).toEqual(Array.from(kernel.touched.subarray(0, nt)))
    // And the filters again after that.
    expect(kernel.filter(seg, nt, kindMask, okProject, since, before, scale)).toBe(m)
    expect(Array.from(kernel.out.subarray(0, m))).toEqual(want)
    kernel.edge(1, scale)
    expect(Array.from(kernel.tsOf(seg).subarray(0, docs))).toEqual(Array.from(cols.ts))
    const flat = new Float64Array(64).fill(1.25)
    const day = 86_400_000
    const bounds = Float64Array.from({ length: 64 }, (_, i) => 1 + 0.25 * Math.exp(-(i * 4) / 14))
    for (const floor of [-Infinity, 0.5, 3, 11]) {
      kernel.filter(seg, nt, kindMask, okProject, since, before, scale)
      kernel.edge(1, scale)
      const n = kernel.cut(m, floor, seg, 2e6, 1 / (4 * day), flat)
      expect(Array.from(kernel.out.subarray(0, n))).toEqual(want.filter((d) => !(kernel.acc[d]! * 1.25 < floor)))
      // By age: in the future, days, weeks and years old, and no time (NaN) at all.
      for (const now of [0, 3 * day, 30 * day, 900 * day]) {
        kernel.filter(seg, nt, kindMask, okProject, since, before, scale)
        kernel.edge(1, scale)
        const cut = Array.from(kernel.out.subarray(0, kernel.cut(m, floor, seg, now, 1 / (4 * day), bounds)))
        const step = (t: number): number => (t > 0 ? ((now - t) / (4 * day) >= 0 ? Math.min(63, Math.trunc((now - t) / (4 * day))) : 0) : 63)
        expect(cut).toEqual(want.filter((d) => !(kernel.acc[d]! * bounds[step(cols.ts[d]!)]! < floor)))
      }
    }
  })
})

describe('the module bytes', () => {
  it('are those score-wasm-asm.ts assembles', () => {
    const made = Buffer.from(moduleBytes()).toString('base64')
    if (made !== MODULE) console.log(`score-wasm.ts MODULE should be:\n${made}`)
    expect(made).toBe(MODULE)
  })
})
