/**
 * A project's continuity figures that the hooks note as they happen: a restore given (its size) and a handoff
 * found newly written. One JSON line each, appended to `stats.jsonl` in the project's folder of the bookmark home
 * (layout.ts), where no repository can plant a file: the lines are this user's bookmark's. Readers still take
 * nothing but numbers from them (and a restore's source from a fixed list), so a line that is not ours could at
 * worst be a wrong number, never text shown as ours.
 *
 * An append is one open, write and close (O_APPEND: hooks that append at once never mix their lines), with what
 * SessionStart has loaded anyway. A capture folds the oldest lines into one when the file passes STATS_CAP.
 */
import { closeSync, constants, fstatSync, openSync, writeSync } from 'node:fs'
import { statOrNone } from '../shared/fsp.js'
import { parseJson } from '../shared/json.js'
import { readStoreFile } from './read.js'

export const STATS_CAP = 64 * 1024
export const RESTORE_SOURCES = ['startup', 'clear', 'compact', 'resume', 'fork'] as const
type RestoreSource = (typeof RESTORE_SOURCES)[number]

/**
 * The lines: `r` a restore given (`c` characters, `s` its source), `h` a handoff written (`w` its header's time,
 * `a` 1 when written after a narrative block of the session that found it), `f` what older lines counted when
 * they were folded. Every time (`t`, `w`) is epoch milliseconds.
 */
type Line =
  | { k: 'r'; c: number; s: RestoreSource; t: number }
  | { k: 'h'; w: number; a: 0 | 1; t: number }
  | { k: 'f'; r: number; c: number; m: number; h: number; a: number; w: number; t: number }

/** Appends one line; never throws: a figure lost is better than a hook that fails. Never makes a folder. */
function append(path: string, line: Line): void {
  try {
    // Non-blocking: a FIFO planted in its place would otherwise hold the hook until a reader comes; a FIFO
    // with a reader, or anything else that is not a plain file, gets nothing.
    const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o600)
    try {
      if (fstatSync(fd).isFile()) writeSync(fd, `${JSON.stringify(line)}\n`)
    } finally {
      closeSync(fd)
    }
  } catch {
    // no folder in the home yet, or not a file bookmark may write: nothing noted
  }
}

/** A restore given: its size in characters (as the host's budget counts them). */
export function noteRestore(path: string, chars: number, source: string | undefined, nowMs: number): void {
  const s = (RESTORE_SOURCES as readonly string[]).includes(source ?? 'startup') ? ((source ?? 'startup') as RestoreSource) : 'startup'
  append(path, { k: 'r', c: chars, s, t: nowMs })
}

/** A handoff found newly written (its header's `written`), `answered` when it came after a narrative block. */
export function noteHandoff(path: string, writtenMs: number, answered: boolean, nowMs: number): void {
  if (Number.isSafeInteger(writtenMs) && writtenMs >= 0) append(path, { k: 'h', w: writtenMs, a: answered ? 1 : 0, t: nowMs })
}

export interface StatFigures {
  /** Restores given, their characters in all, the largest, and the last one (its size and epoch ms). */
  restores: number
  restoreChars: number
  largestRestore: number
  lastRestore: { chars: number; at: number; source: RestoreSource } | null
  /** Handoffs written (each counted once, by its header's time), and how many of them answered a block. */
  handoffsWritten: number
  handoffsAnswered: number
  /** The newest handoff's header time (epoch ms). */
  lastHandoffAt: number | null
  /** Lines that were not figures (damaged, or not in this form): left out. */
  ignored: number
}

const count = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0
/** Epoch milliseconds a Date can hold. */
const time = (v: unknown): v is number => count(v) && v <= 8_640_000_000_000_000

function parse(text: string): Line | undefined {
  const v = parseJson(text)
  if (v === null || typeof v !== 'object') return undefined
  const o = v as Record<string, unknown>
  if (o.k === 'r' && count(o.c) && time(o.t) && (RESTORE_SOURCES as readonly unknown[]).includes(o.s))
    return { k: 'r', c: o.c, s: o.s as RestoreSource, t: o.t }
  if (o.k === 'h' && time(o.w) && time(o.t) && (o.a === 0 || o.a === 1)) return { k: 'h', w: o.w, a: o.a, t: o.t }
  if (o.k === 'f' && [o.r, o.c, o.m, o.h, o.a].every(count) && time(o.w) && time(o.t))
    return { k: 'f', r: o.r as number, c: o.c as number, m: o.m as number, h: o.h as number, a: o.a as number, w: o.w as number, t: o.t as number }
  return undefined
}

export function emptyFigures(): StatFigures {
  return { restores: 0, restoreChars: 0, largestRestore: 0, lastRestore: null, handoffsWritten: 0, handoffsAnswered: 0, lastHandoffAt: null, ignored: 0 }
}

/** The figures of the file's text. A handoff noted twice (two hooks found it) counts once. */
export function figuresOf(text: string): StatFigures {
  const out = emptyFigures()
  // Handoffs up to a fold's newest were counted by the fold.
  let folded = -1
  const seen = new Map<number, boolean>()
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue
    const l = parse(raw)
    if (!l) {
      out.ignored++
      continue
    }
    if (l.k === 'r') {
      out.restores++
      out.restoreChars += l.c
      out.largestRestore = Math.max(out.largestRestore, l.c)
      if (!out.lastRestore || l.t >= out.lastRestore.at) out.lastRestore = { chars: l.c, at: l.t, source: l.s }
    } else if (l.k === 'h') seen.set(l.w, (seen.get(l.w) ?? false) || l.a === 1)
    else {
      out.restores += l.r
      out.restoreChars += l.c
      out.largestRestore = Math.max(out.largestRestore, l.m)
      out.handoffsWritten += l.h
      out.handoffsAnswered += l.a
      if (l.h > 0) folded = Math.max(folded, l.w)
    }
  }
  for (const [w, answered] of seen) {
    if (w <= folded) continue
    out.handoffsWritten++
    if (answered) out.handoffsAnswered++
  }
  const newest = Math.max(folded, ...[...seen.keys()])
  out.lastHandoffAt = newest >= 0 ? newest : null
  return out
}

/** One fold line holding the figures of `text` (which may hold a fold itself). */
export function foldLine(text: string, nowMs: number): string {
  const f = figuresOf(text)
  const line: Line = {
    k: 'f',
    r: f.restores,
    c: f.restoreChars,
    m: f.largestRestore,
    h: f.handoffsWritten,
    a: f.handoffsAnswered,
    w: f.lastHandoffAt ?? 0,
    t: nowMs,
  }
  return JSON.stringify(line)
}

/**
 * The file's text kept within `cap`: the newest lines that fit in half of it, after one line that folds in what
 * the older ones counted. Undefined when the text is within the cap already.
 */
export function foldStats(text: string, cap: number, nowMs: number): string | undefined {
  if (text.length <= cap) return undefined
  const lines = text.split('\n').filter((l) => l.trim() !== '')
  let kept = 0
  let size = 0
  for (let i = lines.length - 1; i >= 0 && size + lines[i]!.length + 1 <= cap / 2; i--) {
    size += lines[i]!.length + 1
    kept++
  }
  const old = lines.slice(0, lines.length - kept)
  return `${[foldLine(old.join('\n'), nowMs), ...lines.slice(lines.length - kept)].join('\n')}\n`
}

export interface Restores {
  /** Restores given (SessionStart, and the compact resume), with their sizes in characters. */
  count: number
  average: number | null
  largest: number | null
  last: { chars: number; at: string; source: string } | null
}

/** The restore figures as shown: sizes in whole characters, times as ISO text. */
export function restoresOf(f: StatFigures): Restores {
  return {
    count: f.restores,
    average: f.restores > 0 ? Math.round(f.restoreChars / f.restores) : null,
    largest: f.restores > 0 ? f.largestRestore : null,
    last: f.lastRestore ? { chars: f.lastRestore.chars, at: new Date(f.lastRestore.at).toISOString(), source: f.lastRestore.source } : null,
  }
}

/** The figures noted for a project (`stats.jsonl` of its folder in the home); none when there is no such file. */
export async function readStats(path: string): Promise<StatFigures> {
  try {
    return figuresOf(await readStoreFile(path))
  } catch {
    return emptyFigures()
  }
}

/**
 * Folds the oldest lines when the file passed its cap: after a capture, under the file's lock, rewritten
 * atomically. A line appended between the read and the rename is lost (a figure, not a record).
 */
export async function keepStatsSmall(path: string, nowMs: number, lockDeadline?: number, cap = STATS_CAP): Promise<void> {
  const size = (await statOrNone(path))?.size ?? 0
  if (size <= cap) return
  const [{ untilDeadline, withLock }, { writeText }] = await Promise.all([import('./lock.js'), import('./files.js')])
  await withLock(
    `${path}.lock`,
    async () => {
      const next = foldStats(await readStoreFile(path), cap, nowMs)
      if (next !== undefined) await writeText(path, next, { redacted: true }) // numbers only
    },
    untilDeadline(lockDeadline),
  )
}
