/**
 * Temp folders of the tests, removed when their test file ends (test/setup.ts): a suite run must leave
 * nothing behind in the system's temp folder (one run left 225 before).
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const made = new Set<string>()

/** A new folder `<tmp>/<prefix>XXXXXX`, removed after the test file. */
export function tempDir(prefix: string): string {
  return track(mkdtempSync(join(tmpdir(), prefix)))
}

/** Removes `dir` after the test file (a folder some other code made, the demo's). */
export function track(dir: string): string {
  made.add(dir)
  return dir
}

/** Removes the folders made so far; a folder that cannot be removed is reported, never fatal. */
export function removeTempDirs(): string[] {
  const failed: string[] = []
  for (const dir of made) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
    } catch {
      try {
        writable(dir) // a test made a folder read-only (not a problem for root, who runs CI)
        rmSync(dir, { recursive: true, force: true })
      } catch (e) {
        failed.push(`${dir}: ${(e as Error).message}`)
      }
    }
  }
  made.clear()
  return failed
}

function writable(dir: string): void {
  chmodSync(dir, 0o700)
  for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory() && !e.isSymbolicLink()) writable(`${dir}/${e.name}`)
}
