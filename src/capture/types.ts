/**
 * What a capture is asked and what it answers: shared by capture.ts, which decides whether there is
 * anything to read, and save.ts, which reads, folds and writes.
 */
import type { ExtractState } from '../extract/model.js'
import type { Host } from '../hosts/host.js'
import type { WorkClock } from '../narrative/freshness.js'
import type { Snapshot, Trigger } from '../snapshot/model.js'
import type { Project } from '../repo/project.js'
import type { ProjectStore } from '../store/store.js'
import type { ReadStats } from '../transcript/read.js'

export interface CaptureRequest {
  /** Whose session it is; the commands and MCP read Claude Code's when they do not say. */
  host?: Host
  cwd: string
  transcript?: string
  sessionId?: string
  trigger: Trigger
  /** From the Stop payload: the transcript may lag behind it. */
  lastAssistantMessage?: string
  /** The project of `cwd` when the caller has it open (the hooks do): its root is not found again, its git not read again. */
  project?: Project
}

export interface CaptureResult {
  projectRoot: string
  sessionId: string
  transcript: string
  written: boolean
  /** Why nothing was written, or what was. */
  reason: string
  /** The snapshot written, as stored (redacted). */
  snapshot?: Snapshot
  snapshotFile?: string
  stats: ReadStats
  notes: string[]
  /** When the session's work happened, after this capture. */
  work: WorkClock
  /** The session's extraction state after this capture; absent when nothing new was read (it was not loaded). */
  state?: ExtractState
}

/** The parts of a capture every path shares: which transcript, which session, which project and store. */
export interface CaptureTarget {
  req: CaptureRequest
  host: Host
  transcript: string
  sid: string
  project: Project
  store: ProjectStore
  notes: string[]
}

/** Triggers that write a snapshot even when nothing happened since the last one. */
export const FORCED: ReadonlySet<Trigger> = new Set<Trigger>(['manual', 'demo', 'mcp', 'pre_compact'])
