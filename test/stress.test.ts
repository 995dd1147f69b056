/**
 * The stress and attack suite at its reduced sizes (the same case modules as `node stress/run.mjs --quick`),
 * against the built CLI. Each case must have no FAILING check; SKIPPED checks (no root for tmpfs, no
 * `doctor` or `mcp` in the build, no corpus) are printed with their reason. Figures and the full run:
 * docs/RELIABILITY.md.
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from './helpers/corpus.js'

interface Check {
  name: string
  status: 'PASS' | 'FAIL' | 'SKIPPED'
  info: string
}
interface CaseResult {
  case: string
  load: string
  checked: string
  result: 'PASS' | 'FAIL' | 'SKIPPED'
  details: { checks: Check[]; failing: string[]; skipped: string[] }
}
interface Suite {
  CASES: [string, string, string][]
  runCase: (file: string, ctx: unknown) => Promise<CaseResult>
  context: (scale: 'small' | 'full') => unknown
}

// The suite is plain Node ESM outside the TypeScript project: loaded by URL, typed by the interface above.
const suite = (await import(pathToFileURL(join(REPO_ROOT, 'stress', 'run.mjs')).href)) as Suite
const { line } = (await import(pathToFileURL(join(REPO_ROOT, 'stress', 'lib', 'result.mjs')).href)) as { line: (r: CaseResult) => string }

describe('stress suite (reduced sizes)', () => {
  const ctx = suite.context('small')
  for (const [num, id, file] of suite.CASES) {
    it(`case ${num}: ${id}`, async () => {
      const r = await suite.runCase(file, ctx)
      console.log(line(r))
      const failing = r.details.checks.filter((c) => c.status === 'FAIL').map((c) => `FAILING ${c.name}: ${c.info}`)
      expect(failing).toEqual([])
    }, 180_000)
  }
})
