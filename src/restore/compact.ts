/**
 * The compact resume: what restore gives the host model after a compaction, in the same session, beside
 * Claude Code's own summary. That summary carries the intent, errors with their fixes and decisions in
 * prose; this text carries what a summary loses: the exact latest request, the step in flight and the end
 * of the last assistant message, open task ids, branch and HEAD, the session's commit hashes and every file
 * it changed (a second compaction's summary drops files changed before the first). Short by default
 * (`compactBudget`, 2,000 characters). Pure: every value comes in as an argument.
 */
import { type Section, fitSections } from './budget.js'
import { codeValue as code, contentLines, fenceFor, oneLineValue as oneLine } from './fence.js'
import { type NarrativeInput, RECORDED_NOTE, narrativeSection } from './render.js'
import { commitsOf, sinceText, workAfter } from './recent.js'
import { type Snapshot, type TaskItem, openTasks } from '../snapshot/model.js'
import type { FileRecord } from '../extract/model.js'

export interface CompactInput {
  project: string
  snapshot: Snapshot
  narrative?: NarrativeInput
  budget: number
  latestPath: string
  /** Branch and HEAD as git has them at the compaction (the transcript's branch when absent). */
  git?: { branch?: string; head?: string }
}

const REQUEST_CHARS = 600
const TASK_CHARS = 300
/** A latest request shorter than this gets the task it continues right after it. */
const SHORT_REQUEST = 60
/** The end of the last assistant message: where the question or the next step is. */
const TAIL_CHARS = 300
const OPEN_TASK_CHARS = 80
const COMMITS_SHOWN = 8
const ERRORS_SHOWN = 3
/** The handoff's share when it is this session's own: the summary already has most of what it says. */
const NARRATIVE_CHARS = 500
/** Longest line of the paths-only file list: a folder with many files goes on to the next line. */
const PATHS_LINE = 200

function recorded(id: string, title: string, lines: string[], priority: number, omitted = 0): Section[] {
  if (lines.length === 0) return []
  return [{ id, title, lines, priority, minLines: 1, fence: fenceFor(lines), ...(omitted > 0 ? { omitted } : {}) }]
}

function utc(ts: string): string {
  return ts.replace('T', ' ').replace(/(:\d{2})(\.\d+)?Z$/, '$1 UTC')
}

/** The last `max` characters of `text` from a word boundary, marked as cut. */
function tail(text: string, max: number): string {
  const t = text.trim()
  if (t.length <= max) return t
  const cut = t.slice(-max)
  const word = cut.search(/\s/)
  return `…${word >= 0 && word < 40 ? cut.slice(word + 1) : cut}`
}

function taskLine(t: TaskItem): string {
  const doing = t.status === 'in_progress'
  const id = t.id ? `#${oneLine(t.id, 20)} ` : ''
  return doing ? `- [~] ${id}${oneLine(t.text, 200)} (in progress)` : `- [ ] ${id}${oneLine(t.text, OPEN_TASK_CHARS)}`
}

/** The in-progress tasks first (the step in flight), then the rest in their order. */
function tasksSection(s: Snapshot, priority: number): Section[] {
  const open = openTasks(s)
  const ordered = [...open.filter((t) => t.status === 'in_progress'), ...open.filter((t) => t.status !== 'in_progress')]
  return recorded('tasks', `Open tasks (${open.length} of ${s.tasks.items.length})`, ordered.map(taskLine), priority)
}

function commitsSection(s: Snapshot, priority: number): Section[] {
  const commits = commitsOf(s)
  const lines = commits.slice(-COMMITS_SHOWN).map((g) => {
    const e = g.event.kind === 'commit' ? g.event : undefined
    return `- ${e?.hash ? oneLine(e.hash.slice(0, 7), 7) : '(no hash)'} ${oneLine((e?.message ?? '').split(/\r?\n/)[0]!, 80)}`
  })
  return recorded('commits', `Commits this session (${commits.length}, oldest first)`, lines, priority, commits.length - lines.length)
}

function fileDetail(f: FileRecord): string {
  const counts = f.added || f.removed ? ` +${f.added} -${f.removed}` : ''
  return oneLine(`- ${f.path} (${f.op}${f.from ? ` from ${f.from}` : ''}${counts}${f.subagent ? ', subagent' : ''})`, 300)
}

/** Paths only, grouped by folder (the most recently changed folder first): `- src/restore/: a.ts, b.ts`. */
function pathLines(files: FileRecord[]): string[] {
  const groups = new Map<string, string[]>()
  for (const f of files) {
    const slash = Math.max(f.path.lastIndexOf('/'), f.path.lastIndexOf('\\'))
    const dir = slash >= 0 ? f.path.slice(0, slash + 1) : ''
    const names = groups.get(dir) ?? []
    names.push(f.path.slice(slash + 1))
    groups.set(dir, names)
  }
  const out: string[] = []
  for (const [dir, names] of groups) {
    let line = ''
    for (const name of names) {
      const next = line === '' ? `- ${dir}${dir === '' ? '' : ': '}${name}` : `${line}, ${name}`
      if (line !== '' && next.length > PATHS_LINE) {
        out.push(oneLine(line, 400))
        line = `- ${dir}${dir === '' ? '' : ': '}${name}`
      } else line = next
    }
    if (line !== '') out.push(oneLine(line, 400))
  }
  return out
}

function filesSection(s: Snapshot, priority: number, pathsOnly: boolean): Section[] {
  const title = `Files changed this session (${s.files.length}${pathsOnly ? ', paths only' : ''})`
  return recorded('files', title, pathsOnly ? pathLines(s.files) : s.files.map(fileDetail), priority)
}

function errorsSection(s: Snapshot, priority: number): Section[] {
  const open = s.errors.filter((e) => !e.resolved)
  const lines = open
    .slice(-ERRORS_SHOWN)
    .reverse()
    .map((e) => `- ${oneLine(e.tool, 60)}${e.target ? ` ${code(e.target, 80)}` : ''}: ${oneLine(e.message, 160)}`)
  return recorded('errors', `Unresolved errors (${open.length}, newest first)`, lines, priority, open.length - lines.length)
}

/** Whose handoff it is: this session's (by the session id in its identity, else by its time), or another's. */
export type Authorship = { own: true; basis: 'session id' | 'time' } | { own: false; sessionId?: string; written?: string }

/**
 * The identity names the session that asked for the handoff (narrative/judge.ts). Without a session id, a
 * handoff written after this session's first entry is taken as its own: a session that ran at the same
 * time could have written it, which the label says.
 */
export function authorship(n: NarrativeInput, s: Snapshot): Authorship {
  const { session_id: sid, written } = n.identity
  if (sid !== undefined) return sid === s.session.id ? { own: true, basis: 'session id' } : { own: false, sessionId: sid, ...(written ? { written } : {}) }
  const first = s.session.firstTs ? Date.parse(s.session.firstTs) : Number.NaN
  const at = written ? Date.parse(written) : Number.NaN
  if (Number.isFinite(first) && Number.isFinite(at) && at >= first) return { own: true, basis: 'time' }
  return { own: false, ...(written ? { written } : {}) }
}

/**
 * The handoff, only when this session wrote it; labelled with the work that came after it. Another
 * session's handoff is named in one line of the head, its content left out.
 */
function narrativePart(i: CompactInput): { head: string[]; sections: Section[] } {
  const n = i.narrative
  if (!n) return { head: [], sections: [] }
  const who = authorship(n, i.snapshot)
  if (!who.own) {
    const by = who.sessionId ? `session ${code(who.sessionId.slice(0, 8))}` : 'another session'
    const when = who.written ? `, written ${utc(who.written)}` : ''
    return { head: [`The handoff in ${code(n.path, 300)} is from ${by}${when}, not this one: left out.`], sections: [] }
  }
  const since = sinceText(
    workAfter(n.identity.written, [i.snapshot], {
      ...(n.identity.head ? { then: n.identity.head } : {}),
      ...(i.git?.head ? { now: i.git.head } : {}),
      sameBranch: !n.identity.branch || !i.git?.branch || n.identity.branch === i.git.branch,
    }),
  )
  const whose = who.basis === 'session id' ? 'written by this session' : 'no session id; written after this session began'
  const title = `Handoff notes (${whose}${since ? `, before ${since} that came after it` : ''})`
  return { head: [], sections: narrativeSection(n, since ? 8 : 6, NARRATIVE_CHARS, title) }
}

function render(i: CompactInput, pathsOnly: boolean): ReturnType<typeof fitSections> {
  const s = i.snapshot
  const branch = i.git?.branch ?? s.session.branch
  const where = [...(branch ? [`branch ${code(branch, 120)}`] : []), ...(i.git?.head ? [`HEAD ${code(i.git.head.slice(0, 7), 7)}`] : [])]
  const own = narrativePart(i)
  const head = [
    `# Bookmark: ${code(i.project, 120)} after compaction`,
    `This session was just compacted; here is what a summary tends to lose${where.length > 0 ? ` (${where.join(', ')})` : ''}.`,
    RECORDED_NOTE,
    ...own.head,
  ]
  const last = s.requests.recent.at(-1)?.text
  const task = s.task ?? undefined
  const sections: Section[] = [
    ...(last !== undefined ? recorded('request', 'Latest request, exactly', contentLines(last, REQUEST_CHARS), 1) : []),
    // A short latest request ("yes, go on") says little without the one it answers.
    ...(task !== undefined && task !== last
      ? recorded('task', "The task it continues, in the user's words", contentLines(task, TASK_CHARS), (last?.length ?? 0) < SHORT_REQUEST ? 1.5 : 5)
      : []),
    ...tasksSection(s, 2),
    ...(s.lastAssistant ? recorded('assistant', 'Last assistant message (its end)', contentLines(tail(s.lastAssistant.text, TAIL_CHARS)), 3) : []),
    ...commitsSection(s, 3.5),
    ...filesSection(s, 4, pathsOnly),
    ...own.sections,
    ...errorsSection(s, 7),
  ]
  const foot = [`Full record: ${code(i.latestPath, 300)} (\`bookmark show\`).`]
  return fitSections(head, sections, foot, i.budget)
}

/**
 * The compact resume within `budget`: each file with its operation and line counts, or, when that does not
 * fit, paths only grouped by folder.
 */
export function renderCompactResume(i: CompactInput): string {
  const full = render(i, false)
  if (!full.dropped.includes('files') && !full.shortened.includes('files')) return full.text
  return render(i, true).text
}
