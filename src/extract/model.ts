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
  /** Sent by the lead of an agent team (a `<teammate-message teammate_id="team-lead">`), not typed by the user. */
  from?: 'team-lead'
}

/**
 * A choice or correction of the user's: an answer to AskUserQuestion (`answer`), an approved plan (`plan`), a
 * tool call rejected with a reason (`rejection`), the reply to a question or after an interrupt (`reply`), an
 * explicit "don't"/"instead" turn (`said`). Text redacted and cut.
 */
export interface DecisionRecord {
  ts?: string
  line: number
  kind: 'answer' | 'plan' | 'rejection' | 'reply' | 'said'
  text: string
}

/** A teammate's latest report to this session (an agent team's lead): redacted, cut to CAPS.teamReportText. */
export interface TeamReportRecord {
  ts?: string
  line: number
  /** The teammate's id (`backend-cache`). */
  from: string
  text: string
}

/** What the main thread did last, as far as the session's end state goes. */
export type EndEvent = 'prompt' | 'reply' | 'tool' | 'ask' | 'interrupt' | 'api-error'

export interface EndingFacts {
  last: EndEvent
  /** The first line of the API error that was the main thread's last word (redacted, cut). */
  apiError?: string
  /** Line of the main thread's latest commit, and its hash when the output named it. */
  commitLine?: number
  commitHash?: string
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
  /**
   * A failed command: the keys (program, subcommand, targets; redacted) that a later success must each cover
   * before it counts as resolved. Absent for other tools and for states saved before.
   */
  keys?: string[]
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
  /** The session's first substantial request (redacted, cut): kept apart, since `prompts` drops the oldest. */
  goal?: PromptRecord | null
  /** The user's decisions and corrections, newest last (at most CAPS.decisions). */
  decisions?: DecisionRecord[]
  ending?: EndingFacts | null
  /** In an agent team's lead session: each teammate's latest report, newest last (at most CAPS.teamReports). */
  teamReports?: TeamReportRecord[]
  /** The user's next words answer something: a closing question, a rejection without reason, an interrupt. */
  awaiting?: { kind: 'question' | 'rejection' | 'interrupt'; question?: string } | null
  /**
   * What a host's own reader (Host.read) keeps between reads: for Gemini, hashes of the messages and calls
   * already read, since its records are rewritten and its history replaced. Absent for other hosts.
   */
  seen?: number[]
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
  goalText: 2_000,
  decisions: 8,
  decisionText: 300,
  teamReports: 8,
  teamReportText: 400,
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
    // Present from the start (null while unknown): a state saved and resumed then keeps its keys in one order.
    goal: null,
    decisions: [],
    ending: null,
    awaiting: null,
    counts: { entries: 0, prompts: 0, sidechainEntries: 0, apiErrors: 0, interrupts: 0 },
  }
}

export function createDelta(): RunDelta {
  return { entries: 0, prompts: 0, assistantTexts: 0, touched: new Set() }
}
