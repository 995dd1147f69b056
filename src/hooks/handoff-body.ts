/**
 * The handoff's body as a restore shows it (redacted), kept for the next capture's prepared restore (restore.ts). The
 * model rewrites the handoff every few turns while every capturing Stop prepares the restore again, and redacting the
 * same 2 KB body each time compiled the redactor's rules its words call for: about 6 million instructions of a one-turn
 * Stop (docs/BENCHMARKS.md). Kept in the project's folder of the bookmark home (`narrative.body.json`, no repository
 * can plant one), by this build (another may redact otherwise), with the body's length and a 53-bit hash of it, and
 * holding only the redacted text. Nothing here may fail a restore: any problem means the body is redacted as before.
 */
import { hash53 } from '../shared/hash53.js'
import { isObject } from '../shared/json.js'
import { readJson } from '../store/read.js'
import { BUILD } from './remembered.js'

const VERSION = 1

interface KeptBody {
  version: number
  build: string
  length: number
  hash: string
  text: string
}

const isKept = (v: unknown): v is KeptBody =>
  isObject(v) && v.version === VERSION && typeof v.build === 'string' && typeof v.length === 'number' && typeof v.hash === 'string' && typeof v.text === 'string'

/** The body's hash (the length is compared too): tells one body from another; not a seal. */
export function bodyHash(text: string): string {
  return hash53(text).toString(16)
}

export interface HandoffBodies {
  /** `redact(body)`: the kept text when it was made from this very body by this build. */
  redacted(body: string): Promise<string>
  /** Writes the body redacted last when it was not the kept one. */
  keep(): Promise<void>
}

/** The kept body at `path` (the project's `narrative.body.json`), redacting with `redact` what is not kept. */
export function handoffBodies(path: string, redact: (text: string) => string): HandoffBodies {
  let fresh: KeptBody | undefined
  return {
    async redacted(body) {
      const hash = bodyHash(body)
      const r = await readJson(path, isKept).catch(() => undefined)
      if (r?.ok && r.value.build === BUILD && r.value.length === body.length && r.value.hash === hash) return r.value.text
      fresh = { version: VERSION, build: BUILD, length: body.length, hash, text: redact(body) }
      return fresh.text
    },
    async keep() {
      if (!fresh) return
      const { writeJson } = await import('../store/files.js')
      await writeJson(path, fresh, { redacted: true }) // its only text is `redact`'s output
    },
  }
}
