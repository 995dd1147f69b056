/**
 * The entries a transcript line becomes. One JSONL line can yield several entries
 * (a user line with two tool results), or none (records we only count).
 */

/** Tool result text kept per entry, by every host's line parser; longer outputs are cut (the head carries what we need). */
export const RESULT_TEXT_CAP = 8_000

/** Our own Stop block reason starts with this (see narrative/prompt.ts): every host's parser knows it for ours. */
export const BOOKMARK_FEEDBACK = 'session-bookmark: before you stop, write the handoff'

/** Fields every conversation entry carries, taken from the line's envelope. */
export interface EntryBase {
  /** 1-based line number within the file (counted from the start of the file). */
  line: number
  uuid?: string
  timestamp?: string
  cwd?: string
  gitBranch?: string
  version?: string
  /** True for subagent lines; they never count as the user's words. */
  sidechain: boolean
}

export interface PromptEntry extends EntryBase {
  kind: 'prompt'
  /** What the user typed, with system reminders and IDE wrappers removed. */
  text: string
  /** A slash command the user ran (`/review`), when the prompt was one. */
  command?: string
  /** A request the lead of an agent team sent this teammate session (`<teammate-message teammate_id="team-lead">`). */
  from?: 'team-lead'
}

export type AssistantBlock =
  { type: 'text'; text: string } | { type: 'thinking' } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }

export interface AssistantEntry extends EntryBase {
  kind: 'assistant'
  messageId?: string
  model?: string
  block: AssistantBlock
  usage?: Usage
  /** Synthetic API-error message written by Claude Code itself. */
  apiError: boolean
}

export interface Usage {
  input: number
  output: number
  cacheRead: number
  cacheCreation: number
}

export interface ToolResultEntry extends EntryBase {
  kind: 'tool_result'
  toolUseId: string
  isError: boolean
  /** The result text (string content or the text blocks joined), capped. */
  text: string
  /** The structured `toolUseResult` of the line, when it belongs to this result. */
  result: unknown
}

export type NoteKind = 'meta' | 'command-output' | 'interrupt' | 'task-notification' | 'hook-context' | 'teammate' | 'other' | 'bookmark-feedback'

/** A user line that is not the user's own words: meta, command output, hook context, notifications. */
export interface NoteEntry extends EntryBase {
  kind: 'note'
  note: NoteKind
  /** For `teammate`: what teammates other than the lead reported (in a lead's session, its team's reports). */
  reports?: TeamReport[]
}

export interface TeamReport {
  /** The `teammate_id`. */
  from: string
  text: string
}

export interface CompactSummaryEntry extends EntryBase {
  kind: 'compact_summary'
  /** The summary's text (the host's words, unredacted), when the line carries it. */
  text?: string
}

export interface CompactBoundaryEntry extends EntryBase {
  kind: 'compact_boundary'
  trigger?: string
  preTokens?: number
  micro: boolean
}

export interface TitleEntry extends EntryBase {
  kind: 'title'
  title: string
  source: 'summary' | 'custom-title' | 'ai-title'
}

export interface LastPromptEntry extends EntryBase {
  kind: 'last_prompt'
  text: string
}

export interface PrLinkEntry extends EntryBase {
  kind: 'pr_link'
  url: string
  number?: number
}

/** Any other record (progress, attachment, file-history-snapshot, queue-operation, system/*): only counted. */
export interface OtherEntry extends EntryBase {
  kind: 'other'
  type: string
}

export type TranscriptEntry =
  | PromptEntry
  | AssistantEntry
  | ToolResultEntry
  | NoteEntry
  | CompactSummaryEntry
  | CompactBoundaryEntry
  | TitleEntry
  | LastPromptEntry
  | PrLinkEntry
  | OtherEntry

/** What one line of a transcript became. */
export interface ParsedLine {
  entries: TranscriptEntry[]
  /** False when the line was not a JSON object or its shape was unusable. */
  ok: boolean
}

/** A host's reading of one transcript line (1-based `line`); pure, never throws. */
export type LineParser = (text: string, line: number) => ParsedLine
