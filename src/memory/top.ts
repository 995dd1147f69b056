/**
 * The best k candidates of a search, kept in a binary heap of typed arrays whose root is the worst of them: a
 * broad query offers tens of thousands of documents and keeps a few dozen, so most offers end at one comparison
 * with the root and no object is made per candidate.
 * Orders: by relevance, score then time (newest first), then log order; newest first (`recent`, orientation),
 * time then score, then the later in the log first.
 */
export interface Candidate {
  score: number
  ts: number
  seg: number
  doc: number
}

export class TopK {
  size = 0
  private readonly score: Float64Array
  private readonly ts: Float64Array
  private readonly seg: Int32Array
  private readonly doc: Int32Array

  constructor(
    readonly k: number,
    private readonly newestFirst: boolean,
  ) {
    const n = Math.max(1, k)
    this.score = new Float64Array(n)
    this.ts = new Float64Array(n)
    this.seg = new Int32Array(n)
    this.doc = new Int32Array(n)
  }

  /** Whether the candidate (score, ts, seg, doc) ranks before the one at `i`. */
  private before(score: number, ts: number, seg: number, doc: number, i: number): boolean {
    if (this.newestFirst) {
      if (ts !== this.ts[i]) return ts > this.ts[i]!
      if (score !== this.score[i]) return score > this.score[i]!
      return seg !== this.seg[i] ? seg > this.seg[i]! : doc > this.doc[i]!
    }
    if (score !== this.score[i]) return score > this.score[i]!
    if (ts !== this.ts[i]) return ts > this.ts[i]!
    return seg !== this.seg[i] ? seg < this.seg[i]! : doc < this.doc[i]!
  }

  private set(i: number, score: number, ts: number, seg: number, doc: number): void {
    this.score[i] = score
    this.ts[i] = ts
    this.seg[i] = seg
    this.doc[i] = doc
  }

  private swap(i: number, j: number): void {
    const { score, ts, seg, doc } = this
    const s = score[i]!
    const t = ts[i]!
    const g = seg[i]!
    const d = doc[i]!
    this.set(i, score[j]!, ts[j]!, seg[j]!, doc[j]!)
    this.set(j, s, t, g, d)
  }

  /** Whether the candidate at `i` ranks after the one at `j` (the heap keeps the worst at the root). */
  private worse(i: number, j: number): boolean {
    return this.before(this.score[j]!, this.ts[j]!, this.seg[j]!, this.doc[j]!, i)
  }

  /** The score (by relevance) or time (newest first) a candidate must reach to be kept; -Infinity until k are kept. */
  floor(): number {
    if (this.size < this.k) return -Infinity
    return this.newestFirst ? this.ts[0]! : this.score[0]!
  }

  /** Keeps the candidate if it is among the best k so far; returns the floor after it (a caller skips below it without a call). */
  offer(score: number, ts: number, seg: number, doc: number): number {
    if (this.k <= 0) return Infinity
    if (this.size < this.k) {
      let i = this.size++
      this.set(i, score, ts, seg, doc)
      while (i > 0) {
        const p = (i - 1) >> 1
        if (!this.worse(i, p)) break
        this.swap(i, p)
        i = p
      }
      return this.floor()
    }
    if (!this.before(score, ts, seg, doc, 0)) return this.floor()
    this.set(0, score, ts, seg, doc)
    for (let i = 0; ;) {
      const l = i * 2 + 1
      const r = l + 1
      let w = i
      if (l < this.size && this.worse(l, w)) w = l
      if (r < this.size && this.worse(r, w)) w = r
      if (w === i) break
      this.swap(i, w)
      i = w
    }
    return this.floor()
  }

  /** The candidates kept, best first. */
  sorted(): Candidate[] {
    const out: Candidate[] = []
    for (let i = 0; i < this.size; i++) out.push({ score: this.score[i]!, ts: this.ts[i]!, seg: this.seg[i]!, doc: this.doc[i]! })
    const rank = (a: Candidate, b: Candidate): number => {
      if (this.newestFirst) return b.ts - a.ts || b.score - a.score || b.seg - a.seg || b.doc - a.doc
      return b.score - a.score || b.ts - a.ts || a.seg - b.seg || a.doc - b.doc
    }
    return out.sort(rank)
  }
}
