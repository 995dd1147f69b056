/** `redactDeep`: the walk over parsed JSON (and Maps, Sets), with keys as context for their values. */

import { isNonSecretValue, keyKind } from './assignments.js'
import { redact } from './engine.js'
import { marker } from './kinds.js'

/** What `redactDeep` puts in place of a value nested deeper than its depth cap. */
export const TOO_DEEP_MARKER = '[REDACTED:too-deep]'

const MAX_DEPTH = 100

/**
 * A copy of `value` with every string value redacted; a string under a key that names a secret (`apiKey`,
 * `DB_PASSWORD`, `authorization`) is judged with that key (as written) as context. String keys of objects and Maps
 * are redacted too, by the same rules as text (`{"notes/ghp_...txt": ...}` is a path holding a token); two keys
 * that redact to the same text are both kept, the later ones suffixed ` (2)`, ` (3)`...
 * Arrays, plain objects, Maps and Sets are copied; other objects (Date, Buffer, class instances) are returned as
 * they are.
 * Shared references stay shared in the copy and cycles are reproduced, so the walk always ends; anything nested
 * deeper than 100 levels is replaced by `TOO_DEEP_MARKER` (fail closed: never written unredacted).
 */
export function redactDeep<T>(value: T, known?: KnownRedacted): T {
  return walk(value, 0, new Map(), { known, keys: new Map() }) as T
}

/**
 * `redactDeep(value)` for a value grown out of `prior`, a `redactDeep` output read back (the stored state a capture
 * folded a turn into; parsed apart, since the fold changes its own copy). A string equal to prior's at the same place
 * (the same key of the object at the same path, or the list item at the same place once the lists are aligned) is
 * such an output and comes out of redaction unchanged, so it is kept; so is a key the prior object has. Walking both
 * side by side skips what a KnownRedacted of the stored state would, without hashing every string of it into sets, which cost a
 * capture more than the rest of its redaction and the optimizing compiler more still. `long` collects the result's
 * strings of LONG_STRING characters or more (for `KnownRedacted.strings`).
 */
export function redactOver<T>(value: T, prior: unknown, long?: Set<string>): T {
  return over(value, prior, 0, new Map(), { known: undefined, keys: new Map(), ...(long ? { long } : {}) }) as T
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false
  const proto: unknown = Object.getPrototypeOf(v)
  return proto === Object.prototype || proto === null
}

function over(value: unknown, prior: unknown, depth: number, copies: Map<object, unknown>, ctx: WalkContext): unknown {
  if (value === null || typeof value !== 'object' || prior === null || typeof prior !== 'object' || depth >= MAX_DEPTH) return walk(value, depth, copies, ctx)
  const copied = copies.get(value)
  if (copied !== undefined) return copied
  if (Array.isArray(value)) {
    if (!Array.isArray(prior)) return walk(value, depth, copies, ctx)
    const out: unknown[] = []
    copies.set(value, out)
    const shift = alignment(value, prior)
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i]
      const was: unknown = i + shift >= 0 ? prior[i + shift] : undefined
      out.push(typeof item === 'string' && item === was ? kept(item, ctx) : over(item, was, depth + 1, copies, ctx))
    }
    return out
  }
  if (!isPlainObject(value) || !isPlainObject(prior)) return walk(value, depth, copies, ctx)
  const out: Record<string, unknown> = {}
  copies.set(value, out)
  const keys = Object.keys(value)
  // Keys the prior object has are kept; the others are redacted, and only when one changes are names made unique.
  let named: string[] | undefined
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    if (Object.hasOwn(prior, key)) continue
    const name = redactKey(key, ctx)
    if (name !== key) (named ??= keys.slice())[i] = name
  }
  const names = named ? keyNames() : undefined
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    const item = value[key]
    const name = names ? uniqueKey(named![i]!, names) : key
    const was = prior[key]
    const copy =
      typeof item === 'string'
        ? item === was && Object.hasOwn(prior, key)
          ? kept(item, ctx)
          : kept(redactField(key, item), ctx)
        : over(item, Object.hasOwn(prior, key) ? was : undefined, depth + 1, copies, ctx)
    // A JSON key named "__proto__" must stay a plain property: assignment would set the prototype.
    if (name === '__proto__') Object.defineProperty(out, name, { value: copy, enumerable: true, writable: true, configurable: true })
    else out[name] = copy
  }
  return out
}

/**
 * Where `items` starts in `prior`: 0, the place of its first item in `prior` (a capped list that dropped its oldest), or
 * minus the place of prior's first item in it (a list that grew at its start). Only the speed depends on it: an item
 * compared with the wrong one of `prior` is redacted.
 */
function alignment(items: unknown[], prior: unknown[]): number {
  if (items.length === 0 || prior.length === 0 || sameItem(items[0], prior[0])) return 0
  for (let j = 1; j < prior.length; j++) if (sameItem(items[0], prior[j])) return j
  for (let i = 1; i < items.length; i++) if (sameItem(items[i], prior[0])) return -i
  return 0
}

/** Equal strings, or objects whose text and number fields are all equal. */
function sameItem(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (!isPlainObject(a) || !isPlainObject(b)) return false
  let compared = 0
  for (const key of Object.keys(a)) {
    const x = a[key]
    if (typeof x !== 'string' && typeof x !== 'number') continue
    if (x !== b[key]) return false
    compared++
  }
  return compared > 0
}

/**
 * What an earlier `redactDeep` already wrote, as found when reading it back: a string
 * there, under the same key, comes out of redaction unchanged, so `redactDeep` skips it. A capture rewrites
 * its stored state after each turn; without this it would redact the whole session again every time.
 */
export interface KnownRedacted {
  /** Field values by key. */
  readonly fields: ReadonlyMap<string, ReadonlySet<string>>
  readonly keys: ReadonlySet<string>
  /** Strings that were items of a list. */
  readonly items: ReadonlySet<string>
  /**
   * Strings an earlier `redactDeep` wrote under any key (`redactOver`'s `long`): kept under a key that calls
   * for no judgement of its own (no secret's name), where `redactField` gives them back unchanged.
   */
  readonly strings?: ReadonlySet<string>
}

interface WalkContext {
  known: KnownRedacted | undefined
  /** Keys repeat in every record: each is redacted once per walk. */
  keys: Map<string, string>
  /** Keys under which `redactField` is `redact` (`plainKey`), by key. */
  plain?: Map<string, boolean>
  /** Where `redactOver` collects the long strings of its result. */
  long?: Set<string>
}

/** Strings this long are collected by `redactOver` (shorter ones cost little to redact again). */
export const LONG_STRING = 16

/** Whether `redactField(key, s)` is `redact(s)` for every `s`: the key names no secret and is no header. */
function plainKey(key: string, ctx: WalkContext): boolean {
  ctx.plain ??= new Map()
  let plain = ctx.plain.get(key)
  if (plain === undefined) {
    plain = !AUTHORIZATION.test(key) && keyKind(key, false) === undefined
    ctx.plain.set(key, plain)
  }
  return plain
}

/** A string under a key, as stored: known (as it is) or redacted. */
function fieldOf(key: string, item: string, ctx: WalkContext): string {
  const known = ctx.known
  if (known !== undefined && (known.fields.get(key)?.has(item) === true || (known.strings?.has(item) === true && plainKey(key, ctx)))) return item
  return kept(redactField(key, item), ctx)
}

/** `text`, a string of the result, collected when long (`redactOver`). */
function kept(text: string, ctx: WalkContext): string {
  if (ctx.long !== undefined && text.length >= LONG_STRING) ctx.long.add(text)
  return text
}

function redactKey(key: string, ctx: WalkContext): string {
  let out = ctx.keys.get(key)
  if (out === undefined) {
    out = ctx.known?.keys.has(key) ? key : redact(key)
    ctx.keys.set(key, out)
  }
  return out
}

/**
 * A string under a key: redacted as text, and replaced whole when the key names a secret
 * (`{"apiKey": "..."}` in a tool input, `{"env": {"GITHUB_TOKEN": "..."}}` in a settings file).
 */
const AUTHORIZATION = /^(?:proxy-)?authorization$/i

function redactField(key: string, value: string): string {
  const out = redact(value)
  if (out !== value) return out
  if (AUTHORIZATION.test(key)) {
    // `{"authorization": "Bearer abc"}`: judged as the header line it stands for
    const header = redact(`Authorization: ${value}`)
    return header.slice('Authorization: '.length)
  }
  const kind = keyKind(key, false)
  return kind === undefined || isNonSecretValue(value, key, true, false) ? out : marker(kind)
}

function walk(value: unknown, depth: number, copies: Map<object, unknown>, ctx: WalkContext): unknown {
  if (typeof value === 'string') return kept(redact(value), ctx)
  if (value === null || typeof value !== 'object') return value
  const known = copies.get(value)
  if (known !== undefined) return known
  if (depth >= MAX_DEPTH) return TOO_DEEP_MARKER
  if (Array.isArray(value)) {
    const out: unknown[] = []
    copies.set(value, out)
    for (const item of value) out.push(typeof item === 'string' && ctx.known?.items.has(item) ? kept(item, ctx) : walk(item, depth + 1, copies, ctx))
    return out
  }
  if (value instanceof Map) {
    const out = new Map<unknown, unknown>()
    copies.set(value, out)
    const names = keyNames()
    for (const [key, item] of value) {
      const copy = typeof key === 'string' && typeof item === 'string' ? kept(redactField(key, item), ctx) : walk(item, depth + 1, copies, ctx)
      out.set(typeof key === 'string' ? uniqueKey(redactKey(key, ctx), names) : key, copy)
    }
    return out
  }
  if (value instanceof Set) {
    const out = new Set<unknown>()
    copies.set(value, out)
    for (const item of value) out.add(walk(item, depth + 1, copies, ctx))
    return out
  }
  const proto: unknown = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return value
  const source = value as Record<string, unknown>
  const out: Record<string, unknown> = {}
  copies.set(value, out)
  const keys = Object.keys(source)
  const named = keys.map((key) => redactKey(key, ctx))
  // Keys of one object are distinct: they can only collide when redaction changed one of them.
  const names = named.some((name, i) => name !== keys[i]) ? keyNames() : undefined
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    const item = source[key]
    const name = names ? uniqueKey(named[i]!, names) : key
    const copy = typeof item === 'string' ? fieldOf(key, item, ctx) : walk(item, depth + 1, copies, ctx)
    // A JSON key named "__proto__" must stay a plain property: assignment would set the prototype.
    if (name === '__proto__') Object.defineProperty(out, name, { value: copy, enumerable: true, writable: true, configurable: true })
    else out[name] = copy
  }
  return out
}

/** Keys given out so far in one object, and the next suffix to try for each key that collided. */
interface KeyNames {
  used: Set<string>
  next: Map<string, number>
}

const keyNames = (): KeyNames => ({ used: new Set(), next: new Map() })

/**
 * `key`, or `key (2)`, `key (3)`... when an earlier key of the same object already took it: two keys that
 * redact to the same text both stay. Every name given out is recorded, so a later key that happens to read
 * `x (2)` is suffixed in turn rather than overwriting; `next` keeps n colliding keys at O(n), not O(n²).
 */
function uniqueKey(key: string, names: KeyNames): string {
  if (!names.used.has(key)) {
    names.used.add(key)
    return key
  }
  let n = names.next.get(key) ?? 2
  while (names.used.has(`${key} (${n})`)) n++
  const name = `${key} (${n})`
  names.next.set(key, n + 1)
  names.used.add(name)
  return name
}
