/**
 * The low-level writes and reads every stored file goes through: atomic, private (0600 in 0700
 * folders), and redacted. Nothing else in the code base writes to the store.
 */
import { mkdir, readFile } from 'node:fs/promises'
import writeFileAtomic from 'write-file-atomic'
import { redact, redactDeep } from '../redact/secrets.js'

export const FILE_MODE = 0o600
export const DIR_MODE = 0o700

export async function ensureDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: DIR_MODE })
}

export async function writeJson(path: string, value: unknown): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(redactDeep(value), null, 2)}\n`, { mode: FILE_MODE })
}

export async function writeText(path: string, text: string): Promise<void> {
  await writeFileAtomic(path, redact(text), { mode: FILE_MODE })
}

export type ReadJson<T> = { ok: true; value: T } | { ok: false; missing: boolean; reason: string }

/** Reads and parses our own JSON file; a missing or broken file is reported, never thrown. */
export async function readJson<T>(path: string, guard: (v: unknown) => v is T): Promise<ReadJson<T>> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    return { ok: false, missing: code === 'ENOENT', reason: code === 'ENOENT' ? 'missing' : String((e as Error).message) }
  }
  try {
    const value: unknown = JSON.parse(text)
    if (!guard(value)) return { ok: false, missing: false, reason: `${path}: unexpected shape` }
    return { ok: true, value }
  } catch (e) {
    return { ok: false, missing: false, reason: `${path}: ${(e as Error).message}` }
  }
}

export { isObject } from '../shared/json.js'
