/** Runs the pure pipeline (parse -> extract -> snapshot) over transcript text, for table tests. */
import { type ExtractContext, applyEntry, createDelta, createState } from '../../src/extract/extract.js'
import type { ExtractState, RunDelta } from '../../src/extract/model.js'
import { type Snapshot, toSnapshot } from '../../src/snapshot/model.js'
import { parseLine } from '../../src/hosts/claude/lines.js'

/** `options`: the rest of the extraction context (the `subagents` key). */
export function extractText(
  text: string,
  projectRoot = '/proj',
  state: ExtractState = createState(),
  options: Omit<ExtractContext, 'projectRoot'> = {},
): { state: ExtractState; delta: RunDelta } {
  const delta = createDelta()
  const ctx: ExtractContext = { ...options, projectRoot }
  text.split('\n').forEach((line, i) => {
    for (const entry of parseLine(line, i + 1).entries) applyEntry(state, entry, ctx, delta)
  })
  return { state, delta }
}

export function snapshotOf(state: ExtractState, projectRoot = '/proj'): Snapshot {
  return toSnapshot(state, {
    id: 'SNAP_20261128_100000_000_abcd',
    createdAt: '2026-11-28T10:00:00.000Z',
    trigger: 'manual',
    projectRoot,
    projectName: 'proj',
    sessionId: 'test',
    capture: { transcript: '/t.jsonl', bytesRead: 0, lines: 0, skipped: 0, entries: 0, restarted: false, offset: 0 },
  })
}
