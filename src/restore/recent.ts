/**
 * What restore draws from beyond the latest snapshot (issue 18): the work of an earlier session when the
 * latest one did none (a short Q&A session must not hide the files changed an hour before), and the work
 * that came after the handoff was written (a handoff older than the work goes after the facts). Pure.
 */
import type { GitRecord } from '../extract/model.js'
import { type Snapshot, type TaskItem, openTasks } from '../snapshot/model.js'
import type { Section } from './budget.js'
import { codeValue as code, fenceFor, oneLineValue as oneLine } from './fence.js'
import type { Coverage } from './render.js'

/** Lines of each kind the earlier session's block lists before its `… N more` line. */
const EARLIER_FILES = 10
const EARLIER_TASKS = 10
const EARLIER_COMMITS = 3

export function commitsOf(s: Snapshot): GitRecord[] {
  return s.git.filter((g) => g.event.kind === 'commit')
}

/** Did the session do work the next one needs: files changed, a commit, or tasks left open. */
export function didWork(s: Snapshot): boolean {
  return s.files.length > 0 || commitsOf(s).length > 0 || openTasks(s).length > 0
}

function utc(ts: string): string {
  return ts.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC')
}

function taskLine(t: TaskItem): string {
  const doing = t.status === 'in_progress'
  return `- [${doing ? '~' : ' '}] ${t.id ? `#${oneLine(t.id, 20)} ` : ''}${oneLine(t.text, 160)}${doing ? ' (in progress)' : ''}`
}

function commitLine(g: GitRecord): string {
  if (g.event.kind !== 'commit') return ''
  const e = g.event
  return `- commit ${e.hash ? `${oneLine(e.hash.slice(0, 7), 7)} ` : ''}${e.branch ? `on ${oneLine(e.branch, 80)}: ` : ''}${oneLine(e.message.split(/\r?\n/)[0]!, 120)}`
}

/**
 * The block for an earlier session that did work, when the latest did none: its last commits, open tasks and
 * changed files (those the handoff does not already name), titled with its session id and last capture.
 */
export function earlierSections(s: Snapshot | undefined, cov: Coverage, priority: number): Section[] {
  if (!s) return []
  const commits = commitsOf(s).filter((g) => g.event.kind === 'commit' && !cov.text(g.event.message))
  const tasks = openTasks(s).filter((t) => !cov.text(t.text))
  const files = s.files.filter((f) => !cov.path(f.path))
  const lines = [
    ...commits.slice(-EARLIER_COMMITS).map(commitLine),
    ...tasks.slice(0, EARLIER_TASKS).map(taskLine),
    ...files.slice(0, EARLIER_FILES).map((f) => oneLine(`- ${f.path} ${f.op}${f.added || f.removed ? ` +${f.added} -${f.removed}` : ''}`, 300)),
  ]
  if (lines.length === 0) return []
  const omitted = Math.max(0, commits.length - EARLIER_COMMITS) + Math.max(0, tasks.length - EARLIER_TASKS) + Math.max(0, files.length - EARLIER_FILES)
  const branch = s.session.branch ? ` on branch ${code(s.session.branch, 80)}` : ''
  const title = `Earlier work: session ${code(s.session.id.slice(0, 8))}${branch}, last capture ${utc(s.createdAt)} (the latest session left no changes)`
  return [{ id: 'earlier', title, lines, priority, minLines: 1, fence: fenceFor(lines), ...(omitted > 0 ? { omitted } : {}) }]
}

/** What happened after the handoff was written. */
export interface AfterHandoff {
  commits: number
  files: number
  /** HEAD now, when it moved since the handoff and no recorded commit says why. */
  headMovedTo?: string
}

const at = (ts: string | undefined): number => (ts === undefined ? Number.NaN : Date.parse(ts))

/**
 * Commits and changed files the snapshots record after `written` (each path counted once), and a HEAD that
 * moved on the same branch with no recorded commit (one made outside the sessions).
 */
export function workAfter(
  written: string | undefined,
  snapshots: Snapshot[],
  head: { then?: string; now?: string; sameBranch: boolean } = { sameBranch: true },
): AfterHandoff {
  const since = at(written)
  if (!Number.isFinite(since)) return { commits: 0, files: 0 }
  const after = (ts: string | undefined): boolean => at(ts) > since
  const commits = new Set<string>()
  const files = new Set<string>()
  for (const s of snapshots) {
    commitsOf(s).forEach((g, i) => {
      if (after(g.ts) && g.event.kind === 'commit') commits.add(g.event.hash ?? `${s.id}#${i}`)
    })
    for (const f of s.files) if (after(f.lastTs)) files.add(f.path)
  }
  const then = head.then?.trim().toLowerCase()
  const now = head.now?.trim().toLowerCase()
  const moved = head.sameBranch && then !== undefined && then !== '' && now !== undefined && now !== '' && !then.startsWith(now) && !now.startsWith(then)
  return { commits: commits.size, files: files.size, ...(moved && commits.size === 0 ? { headMovedTo: now!.slice(0, 7) } : {}) }
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`

/** `2 commits and 3 file changes`; undefined when nothing came after. */
export function sinceText(a: AfterHandoff): string | undefined {
  const parts = [
    ...(a.commits > 0 ? [plural(a.commits, 'commit', 'commits')] : []),
    ...(a.headMovedTo ? [`a move of HEAD to ${a.headMovedTo}`] : []),
    ...(a.files > 0 ? [plural(a.files, 'file change', 'file changes')] : []),
  ]
  return parts.length > 0 ? parts.join(' and ') : undefined
}

/**
 * A handoff older than the work after it: its section moves after the facts (they are newer) at the lowest
 * priority, and its title says what came after it.
 */
export function demoteNarrative(sections: Section[], title: string, priority: number): void {
  const at = sections.findIndex((s) => s.id === 'narrative')
  if (at < 0) return
  const [narrative] = sections.splice(at, 1)
  sections.push({ ...narrative!, title, priority })
}
