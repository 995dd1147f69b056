/**
 * The seal of a narrative handoff's identity header. The handoff is written by the model, not by our store,
 * so it cannot carry a file seal (mac.ts); instead the Stop hook hands the model a header with `seal:` set to a
 * keyed hash of the project's root, the session and the `written` time, and a handoff is loaded only when
 * that seal is what this user's key makes for this project. A handoff that came with a clone, a tarball or a
 * copied folder, or whose header was edited, has none: it is ignored and nothing of it reaches the model.
 */
import type { Identity } from '../restore/identity.js'
import { hmacSha256Hex } from './sha256.js'

/**
 * sha256.ts's HMAC, not node:crypto's: a Stop with nothing new or a startup restore checks a handoff's seal, and
 * loading node:crypto would cost either hook more than all its other work.
 */
function sealFor(key: Buffer, root: string, sessionId: string, written: string): string {
  return hmacSha256Hex(key, Buffer.from(`bookmark narrative\0${root}\0${sessionId}\0${written}`, 'utf8')).slice(0, 32)
}

/** Whether two strings are equal, in a time that depends on their length only. */
function sameInConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}

/** The seal to hand out with a header for `root` (its session id and written time). */
export function narrativeSeal(key: Buffer, root: string, identity: Pick<Identity, 'session_id' | 'written'>): string {
  return sealFor(key, root, identity.session_id ?? '', identity.written ?? '')
}

/** Whether `identity` carries the seal this key makes for `root`. */
export function hasValidSeal(key: Buffer | undefined, root: string, identity: Identity): boolean {
  if (!key || identity.scope !== 'repo' || !identity.seal || !/^[0-9a-f]{32}$/.test(identity.seal.trim())) return false
  return sameInConstantTime(narrativeSeal(key, root, identity), identity.seal.trim())
}
