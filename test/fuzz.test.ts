/**
 * Fuzz: mutated real lines and random bytes never throw anywhere in parse -> extract -> snapshot -> render.
 * Deterministic (seeded) so a failure can be replayed.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { applyEntry, createDelta, createState } from '../src/extract/extract.js'
import { renderLatest } from '../src/snapshot/render.js'
import { parseLine } from '../src/hosts/claude/lines.js'
import { snapshotOf } from './helpers/extract.js'
import { CORPUS_PRESENT, claudeFiles, claudePath } from './helpers/corpus.js'
import { bashLines } from './helpers/fuzz-seeds.js'

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const WEIRD: unknown[] = [
  null,
  0,
  -1,
  1e308,
  '',
  'x'.repeat(10_000),
  [],
  {},
  [[[[]]]],
  true,
  { a: { b: { c: {} } } },
  '\u0000',
  '../../etc/passwd',
  'C:\\x',
  NaN,
]

function mutateValue(v: unknown, r: () => number, depth = 0): unknown {
  if (depth > 6) return v
  if (r() < 0.08) return WEIRD[Math.floor(r() * WEIRD.length)]
  if (Array.isArray(v)) return v.map((x) => mutateValue(x, r, depth + 1))
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, x] of Object.entries(v)) if (r() > 0.05) out[k] = mutateValue(x, r, depth + 1)
    return out
  }
  return v
}

function mutateText(line: string, r: () => number): string {
  const n = line.length
  switch (Math.floor(r() * 5)) {
    case 0:
      return line.slice(0, Math.floor(r() * n)) // truncation
    case 1: {
      const chars = line.split('')
      for (let i = 0; i < 5; i++) chars[Math.floor(r() * n)] = String.fromCharCode(Math.floor(r() * 0xffff))
      return chars.join('') // bit flips
    }
    case 2:
      return line.replace(/"(type|subtype|content|input|message)":/g, (m) => (r() < 0.5 ? '"x":' : m))
    case 3:
      return `${'['.repeat(2000)}${line}`
    default:
      return line + line
  }
}

function runLines(lines: string[], root: string): void {
  const state = createState()
  const delta = createDelta()
  lines.forEach((line, i) => {
    for (const entry of parseLine(line, i + 1).entries) applyEntry(state, entry, { projectRoot: root }, delta)
  })
  renderLatest(snapshotOf(state, root))
}

describe('fuzz', () => {
  it('random strings and random JSON never throw', () => {
    const r = rng(1)
    const lines: string[] = []
    for (let i = 0; i < 3_000; i++) {
      const len = Math.floor(r() * 200)
      let s = ''
      for (let j = 0; j < len; j++) s += String.fromCharCode(Math.floor(r() * 128))
      lines.push(r() < 0.5 ? s : `{"type":"${['user', 'assistant', 'system', 'x'][i % 4]}",${s}}`)
    }
    expect(() => runLines(lines, '/proj')).not.toThrow()
  })

  it('mutated synthetic tool calls never throw', () => {
    const r = rng(2)
    const base = bashLines()
    const lines: string[] = []
    for (let i = 0; i < 2_000; i++) {
      const src = base[i % base.length]!
      lines.push(r() < 0.5 ? JSON.stringify(mutateValue(JSON.parse(src), r)) : mutateText(src, r))
    }
    expect(() => runLines(lines, '/proj')).not.toThrow()
  })

  it.skipIf(!CORPUS_PRESENT)('mutated real corpus lines never throw', () => {
    const r = rng(3)
    const lines: string[] = []
    for (const name of claudeFiles().slice(0, 12)) {
      const text = readFileSync(claudePath(name), 'utf8').split('\n').slice(0, 150)
      for (const line of text) {
        if (!line) continue
        try {
          lines.push(r() < 0.5 ? JSON.stringify(mutateValue(JSON.parse(line), r)) : mutateText(line, r))
        } catch {
          lines.push(mutateText(line, r))
        }
      }
    }
    expect(lines.length).toBeGreaterThan(800)
    expect(() => runLines(lines, '/proj')).not.toThrow()
  })
})
