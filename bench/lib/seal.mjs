/**
 * Sealing what the bench writes into a store as bookmark would (src/trust/mac.ts, src/trust/seal.ts): a store
 * file is read back only with this user's seal, so the bench's long history and handoff carry one made with the
 * key of the world's bookmark home (made by the capture that ran before). A copy of the file rule, kept small
 * (the handoff's seal is stress/lib/state.mjs's); the bench fails loudly (restore would ignore the files) if
 * the two ever disagree.
 */
import { createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { BenchError } from './measure.mjs'

export function readKey(bookmarkHome) {
  try {
    return Buffer.from(readFileSync(join(bookmarkHome, 'key'), 'utf8').trim(), 'hex')
  } catch (e) {
    throw new BenchError(`no key in ${bookmarkHome} (a capture makes it): ${e.message}`)
  }
}

/** The text of a store JSON file at `path` (inside `storeDir`), indented, sealed with `key`. */
export function sealedJson(key, storeDir, path, value) {
  const json = `${JSON.stringify(value, null, 2)}\n`
  const place = path.slice(storeDir.length + 1).replace(/\\/g, '/')
  const mac = createHmac('sha256', key).update(`bookmark store v1\0${place}\0`).update(json).digest('hex')
  return `{\n  "mac": "${mac}",\n${json.slice(2)}`
}
