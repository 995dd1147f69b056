/**
 * What bookmark needs from an agent host: its hook payload in our words, how an answer injects context or
 * blocks, where a session's transcript is and how its lines read. Claude Code is the first host
 * (hosts/claude/), then Codex CLI and Gemini CLI; everything downstream of this seam (extract, snapshot, restore, store) is shared.
 * Wiring the hooks into the host's settings is the other half of a host, in src/setup/.
 */
import type { ReadOptions, ReadStats, TranscriptCursor } from '../transcript/read.js'
import type { TailUsage } from '../transcript/tail.js'
import type { LineParser, TranscriptEntry } from '../transcript/types.js'

export type HostId = 'claude' | 'codex' | 'gemini'

/**
 * A host's own reading of a transcript whose records are not each new facts (Gemini rewrites records and
 * replaces the history): from `cursor`, given what the last read kept (`seen`), and returning what to keep.
 */
export type TranscriptReader = (
  path: string,
  cursor: TranscriptCursor | undefined,
  seen: readonly number[] | undefined,
  onEntry: (entry: TranscriptEntry) => void,
  options?: ReadOptions,
) => Promise<ReadStats & { seen: number[] }>

/** A hook's payload as every host's is read: the fields bookmark acts on, whatever the host calls them. */
export interface HostEvent {
  sessionId?: string
  transcript?: string
  cwd?: string
  /** The host's own name of the event (Claude Code: `Stop`, `SessionStart` …). */
  eventName?: string
  /** SessionStart: startup | resume | clear | compact | fork. */
  source?: string
  /** Stop: the host runs the hook again after our own block (its answer to the block is in). */
  stopHookActive?: boolean
  /** Stop: the reply that ended the turn (the transcript may lag behind it). */
  lastAssistantMessage?: string
  /** PreCompact: manual | auto. */
  trigger?: string
  prompt?: string
}

/** A session's transcript found without being named. */
export interface Discovery {
  path: string
  sessionId: string
  /** Why this file: said out loud when it was a guess. */
  note?: string
}

/** The hooks that answer the host with text for its model. */
export type InjectingHook = 'restore' | 'check'

export interface Host {
  id: HostId
  /** For people: "Claude Code". */
  name: string
  /** Parses stdin text; never throws: what could not be read is said in `notes`. */
  readPayload(text: string, truncated: boolean): { event: HostEvent; notes: string[] }
  /** Nobody is at the keyboard (`claude -p`, an SDK, CI): asking the model to write a handoff would replace its answer. */
  headless(env: NodeJS.ProcessEnv): boolean
  /**
   * The hook's answer that gives the model `text` as context. `budget`: the most characters that context may hold
   * with the host's own lines (Codex's restore says it supersedes earlier ones); `text` is within it already.
   */
  inject(hook: InjectingHook, text: string, budget?: number): object
  /** The Stop hook's answer that keeps the model going with `reason`. */
  block(reason: string): object
  /** How a request to the model names the tool it writes a file with ("your Write tool", "apply_patch"). */
  writeTool: string
  /** One transcript line to entries (pure). */
  parseLine: LineParser
  /** Reads the transcript instead of the shared line reader with `parseLine` (Gemini). */
  read?: TranscriptReader
  /**
   * How full the context was at the session's latest model call, read from the transcript's end (the check hook's
   * note). Absent: no note.
   */
  usage?(transcript: string, cwd: string, env: NodeJS.ProcessEnv): Promise<TailUsage | undefined>
  /** Where the transcript of `sessionId` (or the newest one of `cwd`) is, when a hook or command did not say. */
  findTranscript(cwd: string, sessionId: string | undefined, env: NodeJS.ProcessEnv): Promise<Discovery>
}
