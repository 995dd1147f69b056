/**
 * The running extraction state of one session. JSON-serialisable: it is saved with the cursor so a
 * later capture continues from where the last one stopped instead of re-reading the transcript.
 */
import type { GitEvent } from './git.js'
import { dict } from '../shared/json.js'

export const STATE_VERSION = 1

export type FileOperation = 'created' | 'modified' | 'deleted' | 'moved'

export interface FileRecord {
  /** Project-relative path (inside) or absolute path (outside the project). */
  path: string
  op: FileOperation
  /** Previous path for moves and copies. */
  from?: string
  added: number
  removed: number
  /** Structural hints such as `+fn parseLine`, `-interface Old`. */
  hints: string[]
  /** Number of changes recorded for the file. */
  changes: number
  /** Tools that changed it (Write, Edit, Bash, ...). */
  tools: string[]
  lastTs?: string
  /** Line of the transcript where it last changed: orders files by recency. */
  lastLine: number
  /** Changed only by subagents. */
  subagent: boolean
  /** The branch the session was on at the last change (absent outside git or in states saved before). */
  branch?: string
}

export interface PendingTool {
  name: string
  input: Record<string, unknown>
  ts?: string
  cwd?: string
  sidechain: boolean
  line: number
}

export interface PromptRecord {
  ts?: string
  line: number
  text: string
}

export interface TaskRecord {
  id: string
  subject: string
  status: string
}

export interface TodoRecord {
  content: string
  status: string
}

export interface GitRecord {
  ts?: string
  event: GitEvent
}

export interface ErrorRecord {
  tool: string
  target: string
  message: string
  ts?: string
  line: number
  resolved: boolean
  resolvedTs?: string
}

export interface SubagentRecord {
  description: string
  type?: string
  ts?: string
  status?: string
}

export interface CompactionRecord {
  ts?: string
  trigger?: string
  preTokens?: number
}

export interface PlanRecord {
  ts?: string
  text: string
  approved?: boolean
}

export interface UsageRecord {
  ts?: string
  model?: string
  /** Tokens of context the latest main-thread request carried (input + cache read + cache creation). */
  contextTokens: number
  outputTokens: number
}

export interface ExtractState {
  version: number
  sessionId?: string
  cwd?: string
  /**
   * Where the main thread's shell is after its last `cd` (Claude Code's Bash tool keeps it between calls
   * while the lines' `cwd` may not follow); null when a `cd` went somewhere we cannot follow.
   */
  shellCwd?: string | null
  branch?: string
  title?: string
  firstTs?: string
  lastTs?: string
  versions: string[]
  pending: Record<string, PendingTool>
  files: Record<string, FileRecord>
  outside: Record<string, FileRecord>
  tools: Record<string, number>
  subagentTools: Record<string, number>
  prompts: PromptRecord[]
  promptsDropped: number
  /** The last prompts in full (the list above keeps them shortened). */
  recentPrompts: PromptRecord[]
  lastAssistant?: { ts?: string; text: string }
  todos: TodoRecord[] | null
  tasks: Record<string, TaskRecord>
  plans: PlanRecord[]
  git: GitRecord[]
  errors: ErrorRecord[]
  subagents: SubagentRecord[]
  compactions: CompactionRecord[]
  microcompactions: number
  models: Record<string, number>
  lastMessageId?: string
  /**
   * Made with the `subagents` key off: subagent entries were left out. A capture with the key set otherwise
   * reads the transcript again from its start rather than continue a state made the other way.
   */
  subagentsLeftOut?: true
  /** The model is answering our own Stop block (writing the handoff): its texts are not the session's last word. */
  inBookmarkFeedback?: boolean
  usage?: UsageRecord
  prLinks: string[]
  counts: {
    entries: number
    prompts: number
    sidechainEntries: number
    apiErrors: number
    interrupts: number
  }
}

/** What the current read added, so callers know whether anything happened and which files moved. */
export interface RunDelta {
  entries: number
  prompts: number
  assistantTexts: number
  touched: Set<string>
}

export const CAPS = {
  prompts: 300,
  promptText: 500,
  recentPrompts: 5,
  recentPromptText: 8_000,
  assistantText: 4_000,
  pending: 500,
  git: 100,
  errors: 50,
  subagents: 50,
  plans: 5,
  planText: 4_000,
  hints: 12,
  tools: 10,
  files: 2_000,
  prLinks: 20,
} as const

export { dict }

/** A state read back from JSON: its dictionaries get their null prototype again. */
export function reviveState(s: ExtractState): ExtractState {
  s.pending = dict(s.pending)
  s.files = dict(s.files)
  s.outside = dict(s.outside)
  s.tools = dict(s.tools)
  s.subagentTools = dict(s.subagentTools)
  s.tasks = dict(s.tasks)
  s.models = dict(s.models)
  return s
}

export function createState(): ExtractState {
  return {
    version: STATE_VERSION,
    versions: [],
    pending: dict(),
    files: dict(),
    outside: dict(),
    tools: dict(),
    subagentTools: dict(),
    prompts: [],
    promptsDropped: 0,
    recentPrompts: [],
    todos: null,
    tasks: dict(),
    plans: [],
    git: [],
    errors: [],
    subagents: [],
    compactions: [],
    microcompactions: 0,
    models: dict(),
    prLinks: [],
    counts: { entries: 0, prompts: 0, sidechainEntries: 0, apiErrors: 0, interrupts: 0 },
  }
}

export function createDelta(): RunDelta {
  return { entries: 0, prompts: 0, assistantTexts: 0, touched: new Set() }
}
