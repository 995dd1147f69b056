/**
 * The conversation's own facts: the session's goal (its first substantial request, or the plan the user
 * approved), the user's decisions and corrections, and how the session ended. Pure rules over the state.
 */
import { cutRedacted } from '../redact/secrets.js'
import { isObject, str } from '../shared/json.js'
import type { TeamReport } from '../transcript/types.js'
import { CAPS, type DecisionRecord, type EndEvent, type EndingFacts, type ExtractState, type PendingTool, type PromptRecord } from './model.js'
import { closingQuestion, endsWithQuestion } from './reply.js'

const TRIVIAL = /^(y|yes|yep|yeah|ok|okay|k|sure|go|go on|go ahead|continue|proceed|do it|please do|thanks|thank you|ty|no|nope|lgtm|done|next|\?|\.)[.!]*$/i

/** A request that says something: not "yes", "continue" or a bare `/command`. */
export function isSubstantial(text: string): boolean {
  const t = text.trim()
  // A bare slash command (`/review`) names a procedure, not the task.
  return t.length >= 12 && !TRIVIAL.test(t) && !/^\/\S+$/.test(t)
}

/** An acknowledgement that opens a turn ("yeah let's do it", "ok, now …"): such a turn follows something else. */
const ACK = /^(?:y|yes|yep|yeah|yea|ok|okay|sure|great|cool|nice|perfect|thanks|thank you|alright|right|go ahead|do it)\b/i

/** What follows an opening acknowledgement, at least this long, states a matter of its own ("ok, so I am noting some weirdness. …"). */
const ACK_REST = 80

/** A request that can be the session's goal: substantial, and not a reply to something before it. */
export function isGoal(text: string): boolean {
  const t = text.trim()
  if (t.length < 20 || !isSubstantial(t)) return false
  const ack = ACK.exec(t)
  return ack === null || t.slice(ack[0].length).replace(/^[\s,.!:;-]+/, '').length >= ACK_REST
}

/** Requests at most this long can be a decision of their own ("don't commit yet"); longer ones are tasks. */
const SHORT_TURN = 300
/**
 * Words that make a short turn a decision or a correction: at its start in any case ("Don't …", "Stop …"),
 * inside it in lower case (a pasted "Never Displayed" title is not one).
 */
const EXPLICIT_START =
  /^(?:please\s+)?(?:don'?t|don’t|do not|stop|never|instead|go with|let'?s not|let’s not|use\s+\S+(?:\s+\S+)?\s+(?:not|rather than|instead of)\s)/i
const EXPLICIT_INSIDE =
  /\b(?:don'?t|don’t|do not|instead|never|go with|let'?s not|let’s not)\b|\bstop\s+\w+ing\b|\buse\s+[^\s,.;]+(?:\s+[^\s,.;]+)?\s+(?:not|rather than|instead of)\s/

function explicit(text: string): boolean {
  const t = text.trim()
  return EXPLICIT_START.test(t) || EXPLICIT_INSIDE.test(t)
}

function pushDecision(state: ExtractState, kind: DecisionRecord['kind'], text: string, line: number, ts: string | undefined): void {
  const cut = cutRedacted(text.replace(/\s+/g, ' ').trim(), CAPS.decisionText)
  if (cut === '') return
  const list = (state.decisions ??= [])
  if (list.at(-1)?.text === cut) return
  list.push({ kind, text: cut, line, ...(ts !== undefined ? { ts } : {}) })
  if (list.length > CAPS.decisions) list.splice(0, list.length - CAPS.decisions)
}

/** The end facts rebuilt in one key order whatever changed (a resumed state must equal one read at once). */
function setEnding(state: ExtractState, patch: Partial<EndingFacts>): void {
  const e = { ...(state.ending ?? { last: 'tool' as EndEvent }), ...patch }
  const out: EndingFacts = { last: e.last }
  if (e.last === 'api-error' && e.apiError !== undefined) out.apiError = e.apiError
  if (e.commitLine !== undefined) out.commitLine = e.commitLine
  if (e.commitHash !== undefined) out.commitHash = e.commitHash
  state.ending = out
}

function setLast(state: ExtractState, last: EndEvent): void {
  // Set on every call and reply: the same event again leaves the facts as setEnding built them.
  if (state.ending?.last === last) return
  setEnding(state, { last })
}

/**
 * A request of the user's (or of the team lead): the goal when it is the first substantial one, a decision when
 * it answers a question, a rejection or an interrupt, or says "don't"/"instead"; the session's last event.
 */
export function noteRequest(state: ExtractState, raw: string, line: number, ts: string | undefined, command: string | undefined, from?: 'team-lead'): void {
  if (state.goal == null) {
    // A state saved before goals were kept may hold the first substantial request already.
    const earlier = state.counts.prompts > 1 ? state.prompts.find((p) => isGoal(p.text)) : undefined
    if (earlier !== undefined) state.goal = copyPrompt(earlier)
    else if (isGoal(raw)) {
      const goal: PromptRecord = { line, text: cutRedacted(raw.trim(), CAPS.goalText) }
      if (ts !== undefined) goal.ts = ts
      if (from !== undefined) goal.from = from
      state.goal = goal
    }
  }
  const awaiting = state.awaiting ?? undefined
  state.awaiting = null
  setLast(state, 'prompt')
  // A slash command runs a procedure; the goal itself is the task, not a correction of it (unless it answers).
  if (command !== undefined || (state.goal?.line === line && awaiting === undefined)) return
  const t = raw.trim()
  const short = t.length <= SHORT_TURN
  // A question back ("does PR#68 fix this?", "can you explain: …") asks, it does not decide.
  const asks = /\?\s*$/.test(t) || ASKS.test(t)
  if (awaiting?.kind === 'question' && short && !asks) {
    if (isSubstantial(t)) pushDecision(state, 'reply', t, line, ts)
    else if (awaiting.question !== undefined) pushDecision(state, 'reply', `${awaiting.question} → ${t}`, line, ts)
  } else if (awaiting?.kind === 'rejection' || (awaiting?.kind === 'interrupt' && short && !asks && isSubstantial(t))) {
    pushDecision(state, 'reply', t, line, ts)
  } else if (short && explicit(t)) pushDecision(state, 'said', t, line, ts)
}

/** A turn that opens as a question or a request to explain, with or without its question mark. */
const ASKS = /^(?:(?:can|could|would|will) you (?:explain|tell|show|clarify|walk)|(?:what|why|how|where|which|who|when)\b|(?:explain|describe)\b)/i

/** Teammates' reports to the lead: each teammate's latest kept, newest last (its first words say what it did). */
export function noteTeamReports(state: ExtractState, reports: TeamReport[], line: number, ts: string | undefined): void {
  const list = (state.teamReports ??= [])
  for (const r of reports) {
    const from = cutRedacted(r.from.replace(/\s+/g, ' ').trim(), 60)
    const text = cutRedacted(r.text.replace(/\s+/g, ' ').trim(), CAPS.teamReportText)
    if (text === '') continue
    const at = list.findIndex((x) => x.from === from)
    if (at >= 0) list.splice(at, 1)
    list.push({ line, from, text, ...(ts !== undefined ? { ts } : {}) })
  }
  if (list.length > CAPS.teamReports) list.splice(0, list.length - CAPS.teamReports)
}

/** A lazy prompt record read into a plain one (its getters read once). */
function copyPrompt(p: PromptRecord): PromptRecord {
  const out: PromptRecord = { line: p.line, text: p.text }
  if (p.ts !== undefined) out.ts = p.ts
  if (p.from !== undefined) out.from = p.from
  return out
}

/** The main thread's reply (not blank): a closing question makes the user's next words its answer. */
export function noteReply(state: ExtractState, raw: string): void {
  setLast(state, 'reply')
  if (endsWithQuestion(raw)) {
    const q = closingQuestion(raw)
    state.awaiting = { kind: 'question', ...(q !== undefined ? { question: cutRedacted(q, 150) } : {}) }
  } else if (state.awaiting?.kind === 'question') state.awaiting = null
}

/** A main-thread tool call: an AskUserQuestion waits for the user. */
export function noteToolCall(state: ExtractState, name: string): void {
  setLast(state, name === 'AskUserQuestion' ? 'ask' : 'tool')
}

export function noteInterrupt(state: ExtractState): void {
  setLast(state, 'interrupt')
  // A rejection "STOP … and wait for the user" is followed by an interrupt: the next words still answer it.
  if (state.awaiting?.kind !== 'rejection') state.awaiting = { kind: 'interrupt' }
}

/** A main-thread API error message (Claude Code's own): its first line, redacted. */
export function noteApiError(state: ExtractState, text: string): void {
  const first = text.split('\n').find((l) => l.trim() !== '') ?? ''
  setEnding(state, { last: 'api-error', apiError: cutRedacted(first.trim(), 200) })
}

/** A commit of the main thread (the line of its call), for "committed" when nothing changed after it. */
export function noteCommit(state: ExtractState, line: number, hash: string | undefined): void {
  setEnding(state, { commitLine: line, commitHash: hash })
}

const REJECTED = /^(?:Error: )?The user doesn't want to (?:proceed with this tool use|take this action)/
const SAID = /the user said:\s*([\s\S]*)$/

/** What a rejected call was about, short: a file relative to the session's directory (else its last two parts), a command's start. */
function toolTarget(state: ExtractState, tool: PendingTool): string {
  const file = str(tool.input.file_path) ?? str(tool.input.notebook_path)
  if (file !== undefined) {
    const cwd = tool.cwd ?? state.cwd
    const rel = cwd !== undefined && file.startsWith(`${cwd}/`) ? file.slice(cwd.length + 1) : file
    return rel.length <= 60 ? rel : `…/${rel.split(/[\\/]/).slice(-2).join('/')}`
  }
  const t = (str(tool.input.command) ?? str(tool.input.url) ?? '').replace(/\s+/g, ' ').trim()
  return t.length <= 60 ? t : `${t.slice(0, 59)}…`
}

/** The answers of an AskUserQuestion result: `toolUseResult.answers` ({question: answer}), else its text. */
export function askAnswers(result: unknown, text: string): [string, string][] {
  if (isObject(result) && isObject(result.answers)) {
    const out: [string, string][] = []
    for (const [q, a] of Object.entries(result.answers)) if (typeof a === 'string') out.push([q, a])
    if (out.length > 0) return out
  }
  // `User has answered your questions: "Q"="A", "Q2"="A2". You can now continue …`
  return [...text.matchAll(/"((?:[^"\\]|\\.)*)"="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!])
}

/**
 * A main-thread tool result: the answers to AskUserQuestion and an approved plan are decisions, so is a
 * rejection with the user's reason; a rejection without one makes the user's next words the decision.
 */
export function noteToolResult(state: ExtractState, tool: PendingTool, result: unknown, text: string, isError: boolean, ts: string | undefined): void {
  if (tool.sidechain) return
  if (tool.name === 'AskUserQuestion' || state.ending?.last !== 'ask') setLast(state, 'tool')
  const when = ts ?? tool.ts
  if (REJECTED.test(text)) {
    const reason = SAID.exec(text)?.[1]?.trim()
    if (reason) {
      const target = toolTarget(state, tool)
      const what = tool.name === 'ExitPlanMode' ? 'the plan' : `${tool.name}${target ? ` ${target}` : ''}`
      pushDecision(state, 'rejection', `rejected ${what}: ${reason}`, tool.line, when)
    } else state.awaiting = { kind: 'rejection' }
    return
  }
  if (isError) return
  if (tool.name === 'AskUserQuestion') {
    for (const [q, a] of askAnswers(result, text)) pushDecision(state, 'answer', `${q.slice(0, 150)} → ${a}`, tool.line, when)
  } else if (tool.name === 'ExitPlanMode') {
    const plan = str(tool.input.plan)
    const title = plan
      ?.split('\n')
      .find((l) => l.trim() !== '')
      ?.replace(/^#+\s*/, '')
      .trim()
    pushDecision(state, 'plan', `approved the plan${title ? `: ${title.slice(0, 150)}` : ''}`, tool.line, when)
  }
}

/** How a session ended, as the restore's opening line states it. */
export type EndState = 'waiting' | 'interrupted' | 'api-error' | 'committed' | 'mid-work' | 'replied'

export interface Ending {
  state: EndState
  /** The API error's first line, or the commit's hash. */
  detail?: string
}

/** The latest line of the transcript where a file of the project changed (0 when none did). */
function lastChangeLine(state: ExtractState): number {
  let max = 0
  for (const f of Object.values(state.files)) if (f.lastLine > max) max = f.lastLine
  return max
}

/**
 * The end state from the last events of the main thread: the API error or interrupt that was its last word; a
 * closing question or an unanswered AskUserQuestion (waiting); a commit after which nothing changed; else
 * mid-work when tasks are open, files changed since the last commit, an error is still unresolved (a refused
 * write leaves the task undone whatever the reply says) or the turn had no reply, and otherwise `replied` (a
 * reply with no work open). Null for a state saved before these facts were kept.
 */
export function endState(state: ExtractState, openTasks: number, lastReply: string | undefined): Ending | null {
  const e = state.ending
  if (e == null) return null
  if (e.last === 'api-error') return { state: 'api-error', ...(e.apiError ? { detail: e.apiError } : {}) }
  if (e.last === 'interrupt') return { state: 'interrupted' }
  if (e.last === 'ask' || (e.last === 'reply' && lastReply !== undefined && endsWithQuestion(lastReply))) return { state: 'waiting' }
  const changed = lastChangeLine(state)
  if (e.commitLine !== undefined && e.commitLine >= changed && e.last !== 'prompt') {
    return { state: 'committed', ...(e.commitHash ? { detail: e.commitHash.slice(0, 7) } : {}) }
  }
  const errorOpen = state.errors.some((x) => !x.resolved)
  if (openTasks > 0 || e.last !== 'reply' || changed > (e.commitLine ?? 0) || errorOpen) return { state: 'mid-work' }
  return { state: 'replied' }
}

export interface Goal {
  text: string
  /** The session's first substantial request, or the plan the user approved last. */
  source: 'request' | 'plan'
  from?: 'team-lead'
  ts?: string
}

/** The session's goal: the latest approved plan, else the first substantial request. */
export function goalOf(state: ExtractState): Goal | null {
  for (let i = state.plans.length - 1; i >= 0; i--) {
    const p = state.plans[i]!
    if (p.approved === true) return { text: p.text, source: 'plan', ...(p.ts !== undefined ? { ts: p.ts } : {}) }
  }
  const g = state.goal
  if (g == null) return null
  return { text: g.text, source: 'request', ...(g.from !== undefined ? { from: g.from } : {}), ...(g.ts !== undefined ? { ts: g.ts } : {}) }
}
