/**
 * Human-readable renderings: LATEST.md and the per-file trail. Pure.
 */
import type { FileRecord, GitRecord } from '../extract/model.js'
import { type Snapshot, openTasks } from './model.js'
import { type FileMark, LEDGER_CHECK_CAP } from './ledger.js'
import { compareText, oneLine } from '../shared/text.js'
import type { HostId } from '../hosts/host.js'

const HOST_NAMES: Record<HostId, string> = { claude: 'Claude Code', codex: 'Codex CLI', gemini: 'Gemini CLI' }

export { oneLine }

/** A block quote of several lines, bounded. */
function quote(text: string, maxLines: number, maxChars: number): string {
  const lines = text.trim().split(/\r?\n/)
  let out = lines.slice(0, maxLines).join('\n')
  if (out.length > maxChars) out = `${out.slice(0, maxChars - 1)}…`
  else if (lines.length > maxLines) out += '\n…'
  return out
    .split('\n')
    .map((l) => `> ${l}`.trimEnd())
    .join('\n')
}

/** What a file's mark says next to its path. */
function markText(f: FileRecord & { now?: FileMark }): string {
  switch (f.now) {
    case undefined:
      return ''
    case 'deleted':
      return ' [deleted since]'
    case 'reverted':
      return ' [reverted since]'
    case 'other-branch':
      return f.branch ? ` [left on branch ${f.branch}]` : ' [left on another branch]'
    default:
      return ` [${f.now}]`
  }
}

export function fileLine(f: FileRecord & { now?: FileMark }): string {
  // A reverted file's line counts and hints describe a change that is no longer there.
  const gone = f.now === 'reverted'
  const counts = !gone && (f.added || f.removed) ? ` +${f.added} -${f.removed}` : ''
  const from = f.from ? ` (from ${f.from})` : ''
  const hints = !gone && f.hints.length ? ` — ${f.hints.join(', ')}` : ''
  const who = f.subagent ? ' [subagent]' : ''
  return `- \`${f.path}\`${markText(f)} ${f.op}${from}${counts}${hints}${who}`
}

export function gitLine(g: GitRecord): string {
  const e = g.event
  switch (e.kind) {
    case 'commit':
      return `- commit ${e.hash ? `\`${e.hash}\` ` : ''}${e.branch ? `on ${e.branch}: ` : ''}${oneLine(e.message, 120)}`
    case 'branch':
      return `- ${e.created ? 'created branch' : 'switched to'} \`${e.to}\``
    case 'push':
      return `- push${e.remote ? ` to ${e.remote}` : ''}${e.branch ? ` ${e.branch}` : ''}${e.ok ? '' : ' (failed)'}`
    default:
      return `- ${e.kind} ${oneLine(e.detail, 100)}`
  }
}

function time(ts: string | undefined): string {
  return ts ? ts.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC') : 'time unknown'
}

export function renderLatest(s: Snapshot): string {
  const out: string[] = []
  out.push(`# Bookmark: ${s.project.name}`)
  out.push('')
  const branch = s.session.branch ? ` on \`${s.session.branch}\`` : ''
  const host = s.session.host ? `${HOST_NAMES[s.session.host]} ` : ''
  out.push(`Snapshot \`${s.id}\` (${s.trigger}) of ${host}session \`${s.session.id}\`${branch}, captured ${time(s.createdAt)}.`)
  if (s.session.title) out.push(`Session title: ${oneLine(s.session.title, 160)}`)
  out.push('')

  out.push('## Current task')
  out.push('')
  out.push(s.task ? quote(s.task, 20, 2_000) : '_No request from the user was recorded._')
  out.push('')

  const last = s.requests.recent[s.requests.recent.length - 1]
  if (last && last.text !== s.task) {
    out.push('## Latest message from the user')
    out.push('')
    out.push(quote(last.text, 10, 1_000))
    out.push('')
  }

  const recent = s.requests.recent
    .slice(0, -1)
    .filter((p) => p.text !== s.task)
    .slice(-4)
  if (recent.length > 0) {
    out.push('## Earlier requests')
    out.push('')
    for (const p of recent) out.push(`- ${time(p.ts)}: ${oneLine(p.text, 200)}`)
    out.push('')
  }

  const open = openTasks(s)
  if (s.tasks.items.length > 0) {
    out.push(`## Open tasks (${open.length} of ${s.tasks.items.length})`)
    out.push('')
    if (open.length === 0) out.push('_All tasks are completed._')
    for (const t of open)
      out.push(
        `- [${t.status === 'in_progress' ? '~' : ' '}] ${t.id ? `#${t.id} ` : ''}${oneLine(t.text, 200)}${t.status === 'in_progress' ? ' (in progress)' : ''}`,
      )
    out.push('')
  }

  out.push(`## Files changed (${s.files.length})`)
  out.push('')
  if (s.files.length === 0) out.push('_No file inside the project was changed._')
  for (const f of s.files) out.push(fileLine(f))
  if (s.files.length > LEDGER_CHECK_CAP && s.files.some((f) => f.now !== undefined)) {
    out.push(`_Only the ${LEDGER_CHECK_CAP} most recently changed files were checked against git._`)
  }
  out.push('')

  if (s.outsideFiles.length > 0) {
    out.push(`## Outside the project (${s.outsideFiles.length})`)
    out.push('')
    for (const f of s.outsideFiles.slice(0, 20)) out.push(fileLine(f))
    if (s.outsideFiles.length > 20) out.push(`- … and ${s.outsideFiles.length - 20} more`)
    out.push('')
  }

  if (s.git.length > 0) {
    out.push('## Git activity')
    out.push('')
    for (const g of s.git.slice(-15)) out.push(gitLine(g))
    out.push('')
  }

  const unresolved = s.errors.filter((e) => !e.resolved)
  if (unresolved.length > 0) {
    out.push(`## Unresolved errors (${unresolved.length})`)
    out.push('')
    for (const e of unresolved.slice(-10)) out.push(`- ${e.tool}${e.target ? ` \`${oneLine(e.target, 80)}\`` : ''}: ${oneLine(e.message, 160)}`)
    out.push('')
  }

  if (s.plans.length > 0) {
    const plan = s.plans[s.plans.length - 1]!
    out.push(`## Latest plan${plan.approved === false ? ' (not approved)' : ''}`)
    out.push('')
    out.push(quote(plan.text, 15, 1_500))
    out.push('')
  }

  if (s.lastAssistant) {
    out.push('## Last assistant message')
    out.push('')
    out.push(quote(s.lastAssistant.text, 12, 1_200))
    out.push('')
  }

  const tools = Object.entries(s.tools)
  if (tools.length > 0) {
    out.push('## Tools')
    out.push('')
    out.push(tools.map(([name, n]) => `${name} ${n}`).join(', '))
    out.push('')
  }

  const notes: string[] = []
  if (s.compactions.length) notes.push(`${s.compactions.length} compaction${s.compactions.length > 1 ? 's' : ''}`)
  if (s.microcompactions) notes.push(`${s.microcompactions} microcompaction${s.microcompactions > 1 ? 's' : ''}`)
  if (s.subagents.length)
    notes.push(
      `${s.subagents.length} subagent${s.subagents.length > 1 ? 's' : ''}${s.capture.subagentsLeftOut ? ' (their activity is not captured: `subagents` is 0)' : ''}`,
    )
  const models = Object.keys(s.session.models)
  if (models.length) notes.push(`models: ${models.join(', ')}`)
  notes.push(`${s.requests.count} request${s.requests.count === 1 ? '' : 's'}`)
  out.push('## Session')
  out.push('')
  out.push(notes.join('; ') + '.')
  out.push(`Transcript: \`${s.capture.transcript}\``)
  out.push('')
  return out.join('\n')
}

export interface TrailEntry {
  ts: string
  snapshot: string
  session: string
  op: string
  added: number
  removed: number
  hints: string[]
}

export interface Trails {
  version: number
  files: Record<string, TrailEntry[]>
}

export function renderTrails(projectName: string, trails: Trails): string {
  const out = [`# File trail: ${projectName}`, '', 'Every captured change per file, newest first.', '']
  const files = Object.entries(trails.files).sort((a, b) => compareText(b[1][0]?.ts ?? '', a[1][0]?.ts ?? '') || compareText(a[0], b[0]))
  for (const [path, entries] of files) {
    out.push(`## ${path}`)
    out.push('')
    for (const e of entries) {
      const counts = e.added || e.removed ? ` +${e.added} -${e.removed}` : ''
      const hints = e.hints.length ? ` — ${e.hints.join(', ')}` : ''
      out.push(`- ${time(e.ts)} \`${e.snapshot}\` session \`${e.session.slice(0, 8)}\`: ${e.op}${counts}${hints}`)
    }
    out.push('')
  }
  return out.join('\n')
}
