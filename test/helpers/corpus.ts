/**
 * Access to the real transcripts in ../shared/corpus (CI always has it). Tests that need it use
 * `describe.skipIf(!CORPUS_PRESENT)` and say so when it is absent.
 */
import { parseLine } from '../../src/hosts/claude/lines.js'
import { existsSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type ExtractContext, applyEntry, createDelta, createState } from '../../src/extract/extract.js'
import type { ExtractState } from '../../src/extract/model.js'
import { type ReadStats, readTranscript } from '../../src/transcript/read.js'
import type { TranscriptEntry } from '../../src/transcript/types.js'

export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))
export const CORPUS = process.env.BOOKMARK_CORPUS ?? resolve(REPO_ROOT, '..', 'shared', 'corpus')
export const CORPUS_PRESENT = existsSync(join(CORPUS, 'claude'))
if (!CORPUS_PRESENT) console.warn(`corpus not found at ${CORPUS}: corpus tests are skipped (set BOOKMARK_CORPUS to its path)`)

export function claudeFiles(): string[] {
  if (!CORPUS_PRESENT) return []
  return readdirSync(join(CORPUS, 'claude'))
    .filter((n) => n.endsWith('.jsonl'))
    .sort()
}

export function claudePath(name: string): string {
  return join(CORPUS, 'claude', name)
}

/** The first main-thread working directory of a transcript: the session's project root. */
export async function firstCwd(path: string): Promise<string | undefined> {
  let cwd: string | undefined
  await readTranscript(path, undefined, parseLine, (e: TranscriptEntry) => {
    if (cwd === undefined && e.cwd && !e.sidechain) cwd = e.cwd
  })
  return cwd
}

/** Extraction of a whole corpus file in one read, with the session's first cwd as project root; `options`: the `subagents` key. */
export async function extractCorpus(
  name: string,
  projectRoot?: string,
  options: Omit<ExtractContext, 'projectRoot'> = {},
): Promise<{ state: ExtractState; stats: ReadStats; root: string }> {
  const path = claudePath(name)
  const root = projectRoot ?? (await firstCwd(path)) ?? '/'
  const state = createState()
  const delta = createDelta()
  const ctx: ExtractContext = { ...options, projectRoot: root }
  const stats = await readTranscript(path, undefined, parseLine, (e) => applyEntry(state, e, ctx, delta))
  return { state, stats, root }
}

export type Extracted = Awaited<ReturnType<typeof extractCorpus>>

const cache = new Map<string, Promise<Extracted>>()

/** `extractCorpus(name)` once per test file (each runs in its own worker, with its own cache). */
export function loadCorpus(name: string): Promise<Extracted> {
  let p = cache.get(name)
  if (!p) {
    p = extractCorpus(name)
    cache.set(name, p)
  }
  return p
}
