/**
 * Where things are: the repository, the built CLI under test, the real corpus, and the run's scale.
 * Plain Node ESM: the suite spawns the BUILT CLI (`bin/bookmark.cjs`), never the TypeScript sources.
 */
import { existsSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))

/** The CLI under test: `BOOKMARK_STRESS_BIN` (another build of the same CLI), else the repository's `bin/bookmark.cjs`. */
export function binPath() {
  return process.env.BOOKMARK_STRESS_BIN ? resolve(process.env.BOOKMARK_STRESS_BIN) : join(REPO_ROOT, 'bin', 'bookmark.cjs')
}

/** The built files next to that CLI (`dist/`): the redactor's own bundle, for the case that calls it directly. */
export function distPath(...parts) {
  return join(resolve(binPath(), '..', '..'), 'dist', ...parts)
}

export const CORPUS = process.env.BOOKMARK_CORPUS ? resolve(process.env.BOOKMARK_CORPUS) : resolve(REPO_ROOT, '..', 'shared', 'corpus')
export const CORPUS_CLAUDE = join(CORPUS, 'claude')

export function corpusFiles() {
  if (!existsSync(CORPUS_CLAUDE)) return []
  return readdirSync(CORPUS_CLAUDE)
    .filter((n) => n.endsWith('.jsonl'))
    .sort()
    .map((n) => join(CORPUS_CLAUDE, n))
}

/** `full` (npm run stress) or `small` (--quick, STRESS_SCALE=small, and test/stress.test.ts). */
export function scaleFrom(argv = process.argv, env = process.env) {
  if (argv.includes('--quick') || env.STRESS_SCALE === 'small') return 'small'
  return 'full'
}

/** Picks the value for the scale: `pick(ctx, full, small)`. */
export function pick(ctx, full, small) {
  return ctx.scale === 'small' ? small : full
}
