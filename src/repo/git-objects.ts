/**
 * Git objects read from `.git/objects` itself (loose files and packs, deltas resolved), so that a capture can
 * look a path up in HEAD's tree without starting a git process (one costs more than the capture's own work).
 * Only what the file ledger needs: a commit's tree, a tree's entries, a path's blob id. Anything it cannot
 * read (an unknown pack version, a damaged object) answers undefined and the caller says nothing.
 */
import { type FileHandle, open, readFile, readdir, statOrNone } from '../shared/fsp.js'
import { join } from 'node:path'

import { zlib } from '../shared/builtin.js'

/** node:zlib is loaded on first use: a capture with an empty ledger never inflates anything. */
function inflate(data: Buffer): Buffer {
  return zlib().inflateSync(data)
}

interface RawObject {
  type: 'commit' | 'tree' | 'blob' | 'tag'
  data: Buffer
}

const TYPES: Record<number, RawObject['type']> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' }

interface Pack {
  /** The index file's fan-out table: how many names start with a byte up to each value. */
  fan: Buffer
  idx: string
  pack: string
  count: number
}

async function readAt(path: string, position: number, length: number): Promise<Buffer> {
  const fh = await open(path, 'r')
  try {
    const buf = Buffer.alloc(length)
    const { bytesRead } = await fh.read(buf, 0, length, position)
    return buf.subarray(0, bytesRead)
  } finally {
    await fh.close().catch(() => undefined)
  }
}

/** Reads objects of one repository; keeps what it read for the life of the reader (one capture). */
export class ObjectReader {
  private packs: Pack[] | undefined
  private readonly cache = new Map<string, RawObject | undefined>()
  private readonly trees = new Map<string, Map<string, { mode: string; oid: string }> | undefined>()

  /** `objectsDir`: the common git dir's `objects`; `hashBytes`: 20 (SHA-1) or 32 (SHA-256). */
  constructor(
    private readonly objectsDir: string,
    private readonly hashBytes: number,
  ) {}

  async read(oid: string): Promise<RawObject | undefined> {
    if (this.cache.has(oid)) return this.cache.get(oid)
    const found = (await this.loose(oid)) ?? (await this.packed(oid, 0))
    this.cache.set(oid, found)
    return found
  }

  /** The tree id of a commit. */
  async commitTree(commit: string): Promise<string | undefined> {
    const o = await this.read(commit)
    if (o?.type !== 'commit') return undefined
    return /^tree ([0-9a-f]{40,64})$/m.exec(o.data.toString('latin1', 0, 200))?.[1]
  }

  /** The entry `path` names under the tree `tree` (null: not there; undefined: unreadable). */
  async entry(tree: string, path: string): Promise<{ mode: string; oid: string } | null | undefined> {
    let at = tree
    const parts = path.split('/')
    for (let i = 0; i < parts.length; i++) {
      const entries = await this.treeEntries(at)
      if (entries === undefined) return undefined
      const e = entries.get(parts[i]!)
      if (e === undefined) return null
      if (i === parts.length - 1) return e
      if (e.mode !== '40000') return null
      at = e.oid
    }
    return null
  }

  private async treeEntries(oid: string): Promise<Map<string, { mode: string; oid: string }> | undefined> {
    if (this.trees.has(oid)) return this.trees.get(oid)
    const o = await this.read(oid)
    let out: Map<string, { mode: string; oid: string }> | undefined
    if (o?.type === 'tree') {
      out = new Map()
      const d = o.data
      let p = 0
      while (p < d.length) {
        const sp = d.indexOf(0x20, p)
        const nul = d.indexOf(0, sp)
        if (sp < 0 || nul < 0 || nul + 1 + this.hashBytes > d.length) break
        out.set(d.toString('utf8', sp + 1, nul), { mode: d.toString('latin1', p, sp), oid: d.toString('hex', nul + 1, nul + 1 + this.hashBytes) })
        p = nul + 1 + this.hashBytes
      }
    }
    this.trees.set(oid, out)
    return out
  }

  private async loose(oid: string): Promise<RawObject | undefined> {
    let raw: Buffer
    const file = join(this.objectsDir, oid.slice(0, 2), oid.slice(2))
    // Most objects are packed: a stat that answers "none" costs far less than a read that throws.
    if ((await statOrNone(file)) === undefined) return undefined
    try {
      raw = inflate(await readFile(file))
    } catch {
      return undefined
    }
    const nul = raw.indexOf(0)
    const type = raw.toString('latin1', 0, raw.indexOf(0x20)) as RawObject['type']
    return nul > 0 && Object.values(TYPES).includes(type) ? { type, data: raw.subarray(nul + 1) } : undefined
  }

  private async packList(): Promise<Pack[]> {
    if (this.packs) return this.packs
    this.packs = []
    let names: string[] = []
    try {
      names = (await readdir(join(this.objectsDir, 'pack'))).filter((n) => n.endsWith('.idx'))
    } catch {
      return this.packs
    }
    for (const n of names) {
      try {
        // Only the header and fan-out table are read here (an index file can be megabytes).
        const idx = join(this.objectsDir, 'pack', n)
        const head = await readAt(idx, 0, 8 + 256 * 4)
        // Version 2 only (git's default since 1.5.2): magic, version, fan-out table.
        if (head.length < 8 + 256 * 4 || head.readUInt32BE(0) !== 0xff744f63 || head.readUInt32BE(4) !== 2) continue
        const fan = head.subarray(8)
        this.packs.push({ fan, idx, pack: join(this.objectsDir, 'pack', n.replace(/\.idx$/, '.pack')), count: fan.readUInt32BE(255 * 4) })
      } catch {
        // an unreadable pack: its objects are not found
      }
    }
    return this.packs
  }

  private async packed(oid: string, depth: number): Promise<RawObject | undefined> {
    if (depth > 60) return undefined
    const target = Buffer.from(oid, 'hex')
    for (const p of await this.packList()) {
      const first = target[0]!
      const lo = first === 0 ? 0 : p.fan.readUInt32BE((first - 1) * 4)
      const hi = p.fan.readUInt32BE(first * 4)
      if (hi <= lo) continue
      const h = this.hashBytes
      const names = 8 + 256 * 4
      // The names that start with the same byte: a few hundred bytes even in a large pack.
      const slice = await readAt(p.idx, names + lo * h, (hi - lo) * h)
      let a = 0
      let b = hi - lo
      while (a < b) {
        const mid = (a + b) >>> 1
        const c = target.compare(slice, mid * h, mid * h + h)
        if (c === 0) {
          const offsets = names + p.count * h + p.count * 4
          let off = (await readAt(p.idx, offsets + (lo + mid) * 4, 4)).readUInt32BE(0)
          if (off & 0x80000000) off = Number((await readAt(p.idx, offsets + p.count * 4 + (off & 0x7fffffff) * 8, 8)).readBigUInt64BE(0))
          return this.atOffset(p, off, depth)
        }
        if (c > 0) a = mid + 1
        else b = mid
      }
    }
    return undefined
  }

  private async atOffset(p: Pack, offset: number, depth: number): Promise<RawObject | undefined> {
    if (depth > 60) return undefined
    let fh: FileHandle | undefined
    try {
      fh = await open(p.pack, 'r')
      const head = Buffer.alloc(32 + this.hashBytes)
      const { bytesRead } = await fh.read(head, 0, head.length, offset)
      let i = 0
      let c = head[i++]!
      const kind = (c >> 4) & 7
      let size = c & 15
      let shift = 4
      while (c & 0x80 && i < bytesRead) {
        c = head[i++]!
        size += (c & 0x7f) * 2 ** shift
        shift += 7
      }
      let base: Promise<RawObject | undefined> | undefined
      if (kind === 6) {
        c = head[i++]!
        let back = c & 0x7f
        while (c & 0x80) {
          c = head[i++]!
          back = (back + 1) * 128 + (c & 0x7f)
        }
        base = this.atOffset(p, offset - back, depth + 1)
      } else if (kind === 7) {
        const baseId = head.toString('hex', i, i + this.hashBytes)
        i += this.hashBytes
        base = this.read(baseId).then((o) => o ?? this.packed(baseId, depth + 1))
      } else if (TYPES[kind] === undefined) return undefined
      // Deflate never grows data by more than a few bytes per block: this much holds the whole stream.
      const room = Buffer.alloc(size + 64 + (size >> 8))
      const got = await fh.read(room, 0, room.length, offset + i)
      const data = inflate(room.subarray(0, got.bytesRead))
      if (base === undefined) return { type: TYPES[kind]!, data }
      const b = await base
      return b ? { type: b.type, data: applyDelta(b.data, data) } : undefined
    } catch {
      return undefined
    } finally {
      await fh?.close().catch(() => undefined)
    }
  }
}

/** Git's delta format: the target's size, then copies from the base and inserted bytes. */
function applyDelta(base: Buffer, delta: Buffer): Buffer {
  let i = 0
  const varint = (): number => {
    let n = 0
    let shift = 0
    let c: number
    do {
      c = delta[i++]!
      n += (c & 0x7f) * 2 ** shift
      shift += 7
    } while (c & 0x80)
    return n
  }
  varint() // the base's size
  const out = Buffer.alloc(varint())
  let o = 0
  while (i < delta.length) {
    const op = delta[i++]!
    if (op & 0x80) {
      let off = 0
      let len = 0
      for (let b = 0; b < 4; b++) if (op & (1 << b)) off += delta[i++]! * 2 ** (8 * b)
      for (let b = 0; b < 3; b++) if (op & (1 << (4 + b))) len += delta[i++]! << (8 * b)
      if (len === 0) len = 0x10000
      base.copy(out, o, off, off + len)
      o += len
    } else if (op > 0) {
      delta.copy(out, o, i, i + op)
      o += op
      i += op
    } else throw new Error('bad delta')
  }
  return out
}
