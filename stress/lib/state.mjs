/**
 * Where bookmark keeps a project's machine-local state (src/store/layout.ts): `<bookmark home>/projects/<id>/`,
 * the id a keyed hash of the project root under the home's key (src/trust/key.ts). The cases make the key
 * themselves when they must plant state before any capture, as the first capture would (64 hex, 0600).
 */
import { createHmac, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export function ensureKey(bookmarkHome) {
  const path = join(bookmarkHome, 'key')
  if (!existsSync(path)) {
    mkdirSync(bookmarkHome, { recursive: true, mode: 0o700 })
    writeFileSync(path, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' })
  }
  return Buffer.from(readFileSync(path, 'utf8').trim(), 'hex')
}

/** The project's folder in the bookmark home (made with the key when missing; the folder itself is not made). */
export function stateDir(bookmarkHome, root) {
  const id = createHmac('sha256', ensureKey(bookmarkHome)).update(`bookmark project\0${root}`).digest('hex').slice(0, 32)
  return join(bookmarkHome, 'projects', id)
}

/** The `seal:` bookmark hands the model with a handoff header (src/trust/seal.ts): only this user's key makes it. */
export function narrativeSeal(bookmarkHome, root, sessionId, written) {
  return createHmac('sha256', ensureKey(bookmarkHome)).update(`bookmark narrative\0${root}\0${sessionId}\0${written}`).digest('hex').slice(0, 32)
}
