#!/usr/bin/env node
/**
 * The stress and attack suite: `node stress/run.mjs` (full) or `node stress/run.mjs --quick` (the reduced
 * sizes that test/stress.test.ts runs). Spawns the BUILT CLI (`npm run build` first) with private sandboxes.
 *
 *   --quick            reduced sizes (also STRESS_SCALE=small)
 *   --only 1,3,secrets run only these cases (number or name)
 *   --json FILE        write every result with its checks and figures to FILE
 *   --verbose          print every check under its case line (failing checks are always printed)
 *
 * Environment: BOOKMARK_STRESS_BIN (another build of the CLI), BOOKMARK_CORPUS (the corpus folder),
 * STRESS_KEEP=1 (keep the sandboxes), STRESS_TMP (where sandboxes go).
 * Exit code: 1 when a case FAILs, else 0 (SKIPPED checks say why).
 */
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { cpus, freemem, totalmem } from 'node:os'
import { CORPUS_CLAUDE, binPath, corpusFiles, scaleFrom } from './lib/env.mjs'
import { crashed, detailLines, line } from './lib/result.mjs'
import { cleanupSandboxes } from './lib/sandbox.mjs'

export const CASES = [
  ['1', 'concurrency', './cases/01-concurrency.mjs'],
  ['2', 'crash', './cases/02-crash.mjs'],
  ['3', 'transcripts', './cases/03-hostile-transcripts.mjs'],
  ['4', 'stdin', './cases/04-hostile-stdin.mjs'],
  ['5', 'disk', './cases/05-hostile-disk.mjs'],
  ['6', 'secrets', './cases/06-secrets.mjs'],
  ['7', 'injection', './cases/07-injection.mjs'],
  ['8', 'permissions', './cases/08-permissions.mjs'],
  ['9', 'trust', './cases/09-trust.mjs'],
  ['10', 'hangs', './cases/10-hangs.mjs'],
  ['11', 'clocks', './cases/11-clocks.mjs'],
  ['12', 'text', './cases/12-text.mjs'],
  ['13', 'settings', './cases/13-settings.mjs'],
]

/** Runs one case module; a case that throws is a FAIL of its own (`case ran to completion`). */
export async function runCase(file, ctx) {
  const mod = await import(new URL(file, import.meta.url).href)
  try {
    return await mod.run(ctx)
  } catch (e) {
    return crashed(mod.name ?? file, e)
  } finally {
    cleanupSandboxes()
  }
}

export function context(scale) {
  const files = corpusFiles()
  return { scale, bin: binPath(), corpus: files, corpusPresent: files.length > 0, log: (m) => process.stderr.write(`  … ${m}\n`) }
}

/** The commit under test (and whether src/ has uncommitted changes), for the published figures. */
function revision() {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: new URL('..', import.meta.url), encoding: 'utf8' }).trim()
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: new URL('..', import.meta.url), encoding: 'utf8' }).trim() !== ''
    return `commit ${head}${dirty ? ' + uncommitted src changes' : ''}`
  } catch {
    return 'commit unknown'
  }
}

async function main(argv) {
  const scale = scaleFrom(argv)
  const at = (flag) => {
    const i = argv.indexOf(flag)
    return i >= 0 ? argv[i + 1] : undefined
  }
  const only = at('--only')
    ?.split(',')
    .map((s) => s.trim())
  const jsonOut = at('--json')
  const verbose = argv.includes('--verbose')
  const ctx = context(scale)
  const started = Date.now()
  console.log(`session-bookmark stress suite (${scale}) — ${new Date().toISOString()}`)
  const commit = revision()
  console.log(
    `cli: ${ctx.bin} (${commit}); node ${process.version}; ${cpus().length} cpus, ${Math.round(totalmem() / 2 ** 30)} GB RAM (${Math.round(freemem() / 2 ** 30)} GB free)`,
  )
  console.log(
    ctx.corpusPresent
      ? `corpus: ${ctx.corpus.length} transcripts in ${CORPUS_CLAUDE}`
      : `corpus: ABSENT (${CORPUS_CLAUDE} not found): cases 3 and 6 use generated lines and skip the corpus checks`,
  )
  const results = []
  for (const [num, id, file] of CASES) {
    if (only && !only.includes(num) && !only.includes(id)) continue
    const r = await runCase(file, ctx)
    results.push(r)
    console.log(line(r))
    if (verbose || r.result === 'FAIL') for (const l of detailLines(r)) if (verbose || l.trimStart().startsWith('FAIL')) console.log(l)
  }
  const failed = results.filter((r) => r.result === 'FAIL')
  const seconds = Math.round((Date.now() - started) / 1000)
  console.log(
    `${results.length} cases in ${seconds} s: ${results.filter((r) => r.result === 'PASS').length} PASS, ${failed.length} FAIL, ${results.filter((r) => r.result === 'SKIPPED').length} SKIPPED`,
  )
  if (jsonOut)
    writeFileSync(
      jsonOut,
      JSON.stringify(
        {
          scale,
          at: new Date().toISOString(),
          commit,
          seconds,
          node: process.version,
          cpus: cpus().length,
          totalMemGB: Math.round(totalmem() / 2 ** 30),
          results,
        },
        null,
        2,
      ),
    )
  return failed.length > 0 ? 1 : 0
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2))
}
