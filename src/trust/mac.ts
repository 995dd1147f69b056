/**
 * Sealing the JSON files bookmark writes into a project's `.bookmark/`: each carries, as its first field, an
 * HMAC-SHA256 under this user's key (key.ts) of the rest of the file and of its place in the store. A file
 * that arrived with the project (a clone, a tarball, a copied folder, another user) has no valid seal and is
 * never read as state; a sealed file moved to another name (one snapshot passed off as another, a trail as an
 * index) fails too. node:crypto is loaded here only: these files are read and written by captures and
 * commands, never on a light hook's path.
 *
 *   {"mac":"<64 hex>","version":1,...}          compact files
 *   {\n  "mac": "<64 hex>",\n  "version": 1, ... indented files
 */
import { crypto } from '../shared/builtin.js'

/** What a sealed file is checked against: the key, and the store folder its place is named from. */
export interface Seal {
  key: Buffer
  /** The store folder (`<project>/.bookmark`); the MAC covers the file's path inside it. */
  dir: string
}

const COMPACT = /^\{"mac":"([0-9a-f]{64})",/
const INDENTED = /^\{\n {2}"mac": "([0-9a-f]{64})",\n/

/** The file's place in the store: `index.json`, `snapshots/<id>.json` (always with `/`). */
export function placeOf(seal: Seal, path: string): string {
  const prefix = seal.dir.endsWith('/') || seal.dir.endsWith('\\') ? seal.dir : `${seal.dir}/`
  const rel = path.startsWith(prefix) ? path.slice(prefix.length) : path
  return rel.replace(/\\/g, '/')
}

function macOf(key: Buffer, place: string, body: string): string {
  return crypto().createHmac('sha256', key).update(`bookmark store v1\0${place}\0`).update(body).digest('hex')
}

/** `json` (an object's JSON, compact or indented by 2, with or without a final newline) with its seal as first field. */
export function sealJson(seal: Seal, path: string, json: string): string {
  const mac = macOf(seal.key, placeOf(seal, path), json)
  if (json.startsWith('{\n  ')) return `{\n  "mac": "${mac}",\n${json.slice(2)}`
  if (json.startsWith('{"')) return `{"mac":"${mac}",${json.slice(1)}`
  throw new Error('only a non-empty JSON object can be sealed')
}

export type Unsealed = { ok: true; json: string } | { ok: false; reason: string }

/** The JSON of a sealed file without its seal, when the seal is valid for this key and this place. */
export function unsealJson(seal: Seal, path: string, text: string): Unsealed {
  const compact = COMPACT.exec(text)
  const indented = compact ? null : INDENTED.exec(text)
  const m = compact ?? indented
  if (!m) return { ok: false, reason: 'it carries no bookmark seal (it was not written by bookmark on this machine)' }
  const json = compact ? `{${text.slice(m[0].length)}` : `{\n${text.slice(m[0].length)}`
  const expected = Buffer.from(macOf(seal.key, placeOf(seal, path), json), 'hex')
  const found = Buffer.from(m[1]!, 'hex')
  if (!crypto().timingSafeEqual(expected, found))
    return { ok: false, reason: 'its seal does not match (written with another key, changed since, or moved from another place)' }
  return { ok: true, json }
}

/** A keyed hash of `text` for matching without storing it (a project path that looks like a token). */
export function keyedHash(key: Buffer, label: string, text: string): string {
  return crypto().createHmac('sha256', key).update(`bookmark ${label}\0`).update(text).digest('hex').slice(0, 32)
}
