/**
 * A real session, then a new one: the transcript relocated into a project, captured by the session's Stop hook
 * (stop_hook_active, so that the narrative request is not in the way), and what the next session's SessionStart
 * gives. Shared by test/restore-heldout.test.ts, test/restore-quality.test.ts and bench/quality.mjs, which
 * transpiles this file as it does the oracle: it imports nothing but Node's own modules.
 */
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface World {
  /** The CLI under test (bin/bookmark.cjs). */
  bin: string
  env: NodeJS.ProcessEnv
  /** A temp folder for the transcripts. */
  dir: string
  /** The project the session is relocated into (its own root: it holds a `.git`). */
  project: string
  /** The relocated transcript (default `<dir>/session.jsonl`) and its session id (default `old`). */
  transcript?: string
  sessionId?: string
}

export interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** `text` with the JSON-escaped `from` replaced by `to` wherever it appears (the session's paths move with it). */
export function relocate(text: string, from: string, to: string): string {
  const esc = (s: string): string => JSON.stringify(s).slice(1, -1)
  return text.split(esc(from)).join(esc(to))
}

const transcriptOf = (w: World): string => w.transcript ?? join(w.dir, 'session.jsonl')
const sessionOf = (w: World): string => w.sessionId ?? 'old'

/** `bookmark <args>` in the project with `payload` on stdin, as the host runs a hook. */
export function hook(w: World, args: string[], payload: object): Run {
  const r = spawnSync(process.execPath, [w.bin, ...args], { env: w.env, cwd: w.project, input: JSON.stringify(payload), encoding: 'utf8', timeout: 120_000 })
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' }
}

/** SessionStart with `source`: a new session (`newSession`), or after a compaction the session itself. */
export function restore(w: World, source: string, newSession = 'new'): Run {
  const own = source === 'compact'
  return hook(w, ['restore'], {
    session_id: own ? sessionOf(w) : newSession,
    transcript_path: own ? transcriptOf(w) : join(w.dir, 'new.jsonl'),
    cwd: w.project,
    hook_event_name: 'SessionStart',
    source,
  })
}

/** The transcript `raw`, recorded in `root`, relocated into the world's project and captured by its Stop; then a new session starts. */
export function restoreAfter(w: World, raw: string, root: string, newSession = 'new'): { stop: Run; restore: Run } {
  const transcript = transcriptOf(w)
  writeFileSync(transcript, relocate(raw, root, w.project))
  const stop = hook(w, ['stop'], { session_id: sessionOf(w), transcript_path: transcript, cwd: w.project, hook_event_name: 'Stop', stop_hook_active: true })
  return { stop, restore: restore(w, 'startup', newSession) }
}
