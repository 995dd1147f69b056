/**
 * A snapshot: the value a capture produces and the store writes. Built from the extraction state by a
 * pure function; ids, time and paths come in as arguments.
 */
import { type Ending, type Goal, endState, goalOf, isSubstantial } from '../extract/conversation.js'
import type {
  CompactionRecord,
  DecisionRecord,
  ErrorRecord,
  ExtractState,
  FileRecord,
  GitRecord,
  PlanRecord,
  PromptRecord,
  SubagentRecord,
  TeamReportRecord,
  UsageRecord,
} from '../extract/model.js'
import { CAPS } from '../extract/model.js'
import { headAndTail } from '../extract/reply.js'
import type { HostId } from '../hosts/host.js'
import type { FileMark } from './ledger.js'
import { redact } from '../redact/secrets.js'
import { compareText } from '../shared/text.js'

export const SNAPSHOT_VERSION = 1

export type Trigger = 'manual' | 'stop' | 'pre_compact' | 'interval' | 'demo' | 'mcp'

export const TRIGGERS: readonly Trigger[] = ['manual', 'stop', 'pre_compact', 'interval', 'demo', 'mcp']

export interface TaskItem {
  id?: string
  text: string
  status: string
}

export interface CaptureInfo {
  transcript: string
  bytesRead: number
  lines: number
  skipped: number
  entries: number
  restarted: boolean
  offset: number
  /** Present when the `subagents` key was off: nothing a subagent did was extracted. */
  subagentsLeftOut?: true
}

/** A file of the ledger as a snapshot lists it: `now` says what git says of it at capture (snapshot/ledger.ts). */
export interface SnapshotFile extends FileRecord {
  now?: FileMark
}

export interface Snapshot {
  version: number
  id: string
  /** The store's own order of this project's captures (set by the store when it writes the snapshot). */
  seq?: number
  createdAt: string
  trigger: Trigger
  project: { root: string; name: string }
  session: {
    id: string
    /** The agent that ran the session (absent in snapshots written before hosts were recorded: Claude Code). */
    host?: HostId
    cwd?: string
    branch?: string
    title?: string
    firstTs?: string
    lastTs?: string
    versions: string[]
    models: Record<string, number>
  }
  /** The current task in the user's own words (their latest substantial request). */
  task: string | null
  /** The session's goal: the plan the user approved last, else its first substantial request (absent before). */
  goal?: Goal | null
  /** The user's decisions and corrections, newest last (absent in snapshots written before). */
  decisions?: DecisionRecord[]
  /** An agent team's lead session: each teammate's latest report, newest last (absent when there is none). */
  teamReports?: TeamReportRecord[]
  /** How the session ended, from the transcript (absent in snapshots written before; null when unknown). */
  ending?: Ending | null
  requests: { count: number; dropped: number; all: PromptRecord[]; recent: PromptRecord[] }
  lastAssistant: { ts?: string; text: string; source: 'transcript' | 'hook' } | null
  tasks: { source: 'TodoWrite' | 'TaskCreate' | null; items: TaskItem[] }
  plans: PlanRecord[]
  /** Files inside the project, most recently changed first. */
  files: SnapshotFile[]
  /** Files outside the project, kept apart. */
  outsideFiles: SnapshotFile[]
  tools: Record<string, number>
  subagentTools: Record<string, number>
  git: GitRecord[]
  errors: ErrorRecord[]
  subagents: SubagentRecord[]
  compactions: CompactionRecord[]
  microcompactions: number
  usage: UsageRecord | null
  prLinks: string[]
  counts: ExtractState['counts']
  capture: CaptureInfo
}

const names = <T>(fields: Record<keyof T, true>): string[] => Object.keys(fields)

/** The field names of a snapshot: written by this code, holding no data, so the store does not redact them. */
export const SNAPSHOT_FIELDS: readonly string[] = [
  ...names<Snapshot>({
    version: true,
    id: true,
    seq: true,
    createdAt: true,
    trigger: true,
    project: true,
    session: true,
    task: true,
    goal: true,
    decisions: true,
    teamReports: true,
    ending: true,
    requests: true,
    lastAssistant: true,
    tasks: true,
    plans: true,
    files: true,
    outsideFiles: true,
    tools: true,
    subagentTools: true,
    git: true,
    errors: true,
    subagents: true,
    compactions: true,
    microcompactions: true,
    usage: true,
    prLinks: true,
    counts: true,
    capture: true,
  }),
  ...names<Snapshot['project']>({ root: true, name: true }),
  ...names<Snapshot['session']>({ id: true, host: true, cwd: true, branch: true, title: true, firstTs: true, lastTs: true, versions: true, models: true }),
  ...names<Snapshot['requests']>({ count: true, dropped: true, all: true, recent: true }),
  ...names<NonNullable<Snapshot['lastAssistant']>>({ ts: true, text: true, source: true }),
  ...names<Snapshot['tasks']>({ source: true, items: true }),
  ...names<Goal>({ text: true, source: true, from: true, ts: true }),
  ...names<DecisionRecord>({ ts: true, line: true, kind: true, text: true }),
  ...names<TeamReportRecord>({ ts: true, line: true, from: true, text: true }),
  ...names<Ending>({ state: true, detail: true }),
  ...names<TaskItem>({ id: true, text: true, status: true }),
  ...names<SnapshotFile>({
    path: true,
    op: true,
    from: true,
    added: true,
    removed: true,
    hints: true,
    changes: true,
    tools: true,
    lastTs: true,
    lastLine: true,
    subagent: true,
    branch: true,
    now: true,
  }),
  ...names<CaptureInfo>({
    transcript: true,
    bytesRead: true,
    lines: true,
    skipped: true,
    entries: true,
    restarted: true,
    offset: true,
    subagentsLeftOut: true,
  }),
]

export interface SnapshotMeta {
  id: string
  createdAt: string
  trigger: Trigger
  projectRoot: string
  projectName: string
  sessionId: string
  /** Whose transcript it is. */
  host?: HostId
  capture: CaptureInfo
  /** `last_assistant_message` from the Stop payload: newer than the transcript when it lags. */
  lastAssistantMessage?: string
}

/** The latest request that says something (not "yes", "continue" or a bare `/command`); else the latest one. */
export function currentTask(prompts: PromptRecord[]): string | null {
  for (let i = prompts.length - 1; i >= 0; i--) {
    const t = prompts[i]!.text.trim()
    if (isSubstantial(t)) return t
  }
  const last = prompts[prompts.length - 1]
  return last ? last.text : null
}

function sortedTools(tools: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(tools).sort((a, b) => b[1] - a[1] || compareText(a[0], b[0])))
}

function byRecency(files: Record<string, FileRecord>): FileRecord[] {
  return Object.values(files).sort((a, b) => b.lastLine - a.lastLine || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

export function taskItems(state: ExtractState): Snapshot['tasks'] {
  const created = Object.values(state.tasks)
  if (created.length > 0) {
    const items = created.sort((a, b) => Number(a.id) - Number(b.id) || compareText(a.id, b.id)).map((t) => ({ id: t.id, text: t.subject, status: t.status }))
    return { source: 'TaskCreate', items }
  }
  if (state.todos) return { source: 'TodoWrite', items: state.todos.map((t) => ({ text: t.content, status: t.status })) }
  return { source: null, items: [] }
}

export function toSnapshot(state: ExtractState, meta: SnapshotMeta): Snapshot {
  const recent = state.recentPrompts
  let lastAssistant: Snapshot['lastAssistant'] = state.lastAssistant ? { ...state.lastAssistant, source: 'transcript' } : null
  if (meta.lastAssistantMessage && meta.lastAssistantMessage.trim() !== '') {
    // Compared as stored: the state keeps the transcript's text redacted and cut.
    const text = headAndTail(redact(meta.lastAssistantMessage), CAPS.assistantText)
    if (text !== state.lastAssistant?.text) lastAssistant = { text, source: 'hook' }
  }
  const tasks = taskItems(state)
  return {
    version: SNAPSHOT_VERSION,
    id: meta.id,
    createdAt: meta.createdAt,
    trigger: meta.trigger,
    project: { root: meta.projectRoot, name: meta.projectName },
    session: {
      id: meta.sessionId,
      ...(meta.host ? { host: meta.host } : {}),
      ...(state.cwd ? { cwd: state.cwd } : {}),
      ...(state.branch ? { branch: state.branch } : {}),
      ...(state.title ? { title: state.title } : {}),
      ...(state.firstTs ? { firstTs: state.firstTs } : {}),
      ...(state.lastTs ? { lastTs: state.lastTs } : {}),
      versions: state.versions,
      models: state.models,
    },
    task: currentTask(recent.length > 0 ? recent : state.prompts),
    goal: goalOf(state),
    decisions: state.decisions ?? [],
    ...(state.teamReports?.length ? { teamReports: state.teamReports } : {}),
    ending: endState(
      // The Stop hook's reply is the turn's last word even when the transcript has not caught up with it.
      lastAssistant?.source === 'hook' && state.ending ? { ...state, ending: { ...state.ending, last: 'reply' } } : state,
      tasks.items.filter((t) => t.status !== 'completed').length,
      lastAssistant?.text,
    ),
    requests: { count: state.counts.prompts, dropped: state.promptsDropped, all: state.prompts, recent },
    lastAssistant,
    tasks,
    plans: state.plans,
    files: byRecency(state.files),
    outsideFiles: byRecency(state.outside),
    tools: sortedTools(state.tools),
    subagentTools: sortedTools(state.subagentTools),
    git: state.git,
    errors: state.errors,
    subagents: state.subagents,
    compactions: state.compactions,
    microcompactions: state.microcompactions,
    usage: state.usage ?? null,
    prLinks: state.prLinks,
    counts: state.counts,
    capture: meta.capture,
  }
}

export function openTasks(snapshot: Snapshot): TaskItem[] {
  return snapshot.tasks.items.filter((t) => t.status !== 'completed')
}
