/**
 * The extraction reducer: folds transcript entries into the session's running state. Pure (no I/O, no
 * clock); the state is plain JSON so it can be saved with the cursor and resumed later.
 */
import { cutRedacted, cutRedactedTwice, redact } from '../redact/secrets.js'
import type { TranscriptEntry } from '../transcript/types.js'
import { noteApiError, noteCommit, noteInterrupt, noteReply, noteRequest, noteTeamReports, noteToolCall, noteToolResult } from './conversation.js'
import { applyToolOutcome, resolveChangedFiles, targetBound, targetInput } from './errors.js'
import { FILE_TOOLS, type FileContext, SHELL_TOOLS, applyFileTool, applyShellTool, noteShellReset } from './files.js'
import { type GitEvent, gitEvents } from './git.js'
import { type ScriptNode, parseScript } from './shell/index.js'
import { CAPS, type ExtractState, type PendingTool, type PromptRecord, type RunDelta, createDelta, createState } from './model.js'
import { headAndTail } from './reply.js'
import { TASK_TOOLS, applyTaskTool } from './tasks.js'

export interface ExtractContext extends FileContext {
  /**
   * The `subagents` key; absent means true. False leaves out every entry a subagent wrote (sidechain lines, and
   * the subagent messages 2.1.x embeds in `progress` lines): its files, commands, tools, task updates and line
   * counts. The main agent's own Task/Agent call stays, as one record without the subagent's prompt.
   */
  subagents?: boolean
}

export { createDelta, createState }

/** Largest string kept from a pending tool input (a Write of a bigger file is recorded without line counts). */
const PENDING_STRING_CAP = 1024 * 1024
/** Largest total of pending inputs: a call whose result never comes must not grow the cursor forever. */
const PENDING_TOTAL_CAP = 8 * 1024 * 1024

function capStrings(value: unknown, cap: number, depth = 0): unknown {
  if (typeof value === 'string') return value.length > cap ? undefined : value
  if (typeof value !== 'object' || value === null) return value
  if (depth > 4) return undefined // deeper structure is never needed, and hostile nesting must not be kept
  if (Array.isArray(value)) return value.slice(0, 200).map((v) => capStrings(v, cap, depth + 1))
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    const c = capStrings(v, cap, depth + 1)
    if (c !== undefined) out[k] = c
  }
  return out
}

/** Tool inputs kept while a call waits for its result; large strings are needed only for file tools. */
function pendingInput(name: string, input: Record<string, unknown>): Record<string, unknown> {
  if (FILE_TOOLS.has(name)) return capStrings(input, PENDING_STRING_CAP) as Record<string, unknown>
  if (SHELL_TOOLS.has(name) || TASK_TOOLS.has(name)) return capStrings(input, 64 * 1024) as Record<string, unknown>
  return targetInput(input)
}

function stringChars(v: unknown): number {
  if (typeof v === 'string') return v.length
  if (!v || typeof v !== 'object') return 0
  let n = 0
  for (const x of Object.values(v)) n += stringChars(x)
  return n
}

function sizeOf(p: PendingTool): number {
  return stringChars(p.input) + (p.cwd?.length ?? 0)
}

/**
 * The pending calls in the order they were made, with the size of each: kept beside `state.pending` by its only
 * writers below (a call, its result, an eviction), and counted once for a table not seen before (a state read
 * back from its cursor). Listing the table (a dictionary, whose keys V8 sorts to list them) and summing every
 * pending input on every call was a large share of a long first capture. Object key order puts integer-like keys
 * first; a Map keeps insertion order only, so a table holding such an id (never a real tool id) is not booked
 * and is listed and summed as before.
 */
interface PendingBook {
  sizes: Map<string, number>
  total: number
  /**
   * Calls booked at the most their input can count (targetBound): the total is then at least the true one, and
   * the true sizes are taken (their targets redacted) before a decision could depend on them.
   */
  bounded: Set<string>
}

const pendingBooks = new WeakMap<Record<string, PendingTool>, PendingBook>()
const INTEGER_KEY = /^(?:0|[1-9]\d{0,9})$/

function pendingBook(pending: Record<string, PendingTool>): PendingBook | undefined {
  let book = pendingBooks.get(pending)
  if (book === undefined) {
    book = { sizes: new Map(), total: 0, bounded: new Set() }
    for (const id of Object.keys(pending)) {
      if (INTEGER_KEY.test(id)) return undefined
      const n = sizeOf(pending[id]!)
      book.sizes.set(id, n)
      book.total += n
    }
    pendingBooks.set(pending, book)
  }
  return book
}

/** Adds a call to the pending table, then drops the oldest calls (those whose result never came) while over the caps. */
function addPending(pending: Record<string, PendingTool>, id: string, tool: PendingTool): void {
  const book = INTEGER_KEY.test(id) ? undefined : pendingBook(pending)
  pending[id] = tool
  if (book === undefined) {
    pendingBooks.delete(pending)
    const ids = Object.keys(pending)
    let total = 0
    for (const key of ids) total += sizeOf(pending[key]!)
    while (ids.length > 1 && (ids.length > CAPS.pending || total > PENDING_TOTAL_CAP)) {
      const oldest = ids.shift()!
      total -= sizeOf(pending[oldest]!)
      delete pending[oldest]
    }
    return
  }
  const bound = targetBound(tool.input)
  const n = bound === undefined ? sizeOf(tool) : bound + (tool.cwd?.length ?? 0)
  if (bound === undefined) book.bounded.delete(id)
  else book.bounded.add(id)
  book.total += n - (book.sizes.get(id) ?? 0)
  book.sizes.set(id, n)
  if (book.total > PENDING_TOTAL_CAP && book.bounded.size > 0) {
    for (const lazy of book.bounded) {
      const exact = sizeOf(pending[lazy]!)
      book.total += exact - book.sizes.get(lazy)!
      book.sizes.set(lazy, exact)
    }
    book.bounded.clear()
  }
  while (book.sizes.size > 1 && (book.sizes.size > CAPS.pending || book.total > PENDING_TOTAL_CAP)) {
    const oldest = book.sizes.keys().next().value as string
    book.total -= book.sizes.get(oldest)!
    book.sizes.delete(oldest)
    book.bounded.delete(oldest)
    delete pending[oldest]
  }
}

/** Takes a call out of the pending table when its result comes. */
function takePending(pending: Record<string, PendingTool>, id: string): PendingTool | undefined {
  const tool = pending[id]
  if (tool === undefined) return undefined
  delete pending[id]
  const book = pendingBooks.get(pending)
  if (book !== undefined) {
    book.total -= book.sizes.get(id) ?? 0
    book.sizes.delete(id)
    book.bounded.delete(id)
  }
  return tool
}

/**
 * The session's last reply as the state keeps it, `{ text: headAndTail(redact(raw), cap), ts }` (its head and its
 * tail, where a closing question sits), redacted when it is first read. A session has one reply per turn and keeps
 * only the last, so redacting each as it went by was wasted work. The getter makes it an ordinary value to every reader (JSON, spread, comparison).
 */
function lastReply(raw: string, ts: string | undefined): NonNullable<ExtractState['lastAssistant']> {
  let text: string | undefined
  const reply = {
    get text(): string {
      text ??= keptReply(raw)
      return text
    },
  }
  return ts !== undefined ? Object.assign(reply, { ts }) : reply
}

/** What the state keeps of a reply: redacted, then its head and tail within CAPS.assistantText. */
export function keptReply(raw: string): string {
  return headAndTail(redact(raw), CAPS.assistantText)
}

/** Requests longer than this are redacted at once: a lazy record keeps its raw text until it is read. */
const LAZY_PROMPT_CHARS = 4_000

/**
 * A request as the state keeps it, whole in `recentPrompts` and shortened in `prompts`: `{ line, text, ts }` with
 * the texts of `cutRedactedTwice(raw, CAPS.recentPromptText, CAPS.promptText)`. Texts are redacted before they are
 * shortened (a cut through a secret would leave a fragment that no longer looks like one), when one of the two is
 * first read, as `lastReply` does: a session keeps its last 300 requests, and redacting the thousands before them
 * would be wasted work. A long request is redacted at once, so that 300 lazy ones hold little.
 */
function promptRecords(line: number, raw: string, ts: string | undefined, from: 'team-lead' | undefined): [PromptRecord, PromptRecord] {
  let source = raw
  let texts = raw.length > LAZY_PROMPT_CHARS ? cutRedactedTwice(raw, CAPS.recentPromptText, CAPS.promptText) : undefined
  const get = (): [string, string] => {
    if (texts === undefined) {
      texts = cutRedactedTwice(source, CAPS.recentPromptText, CAPS.promptText)
      source = ''
    }
    return texts
  }
  const full = {
    line,
    get text(): string {
      return get()[0]
    },
  }
  const short = {
    line,
    get text(): string {
      return get()[1]
    },
  }
  const extra = { ...(ts !== undefined ? { ts } : {}), ...(from !== undefined ? { from } : {}) }
  return [Object.assign(full, extra), Object.assign(short, extra)]
}

const NOT_BLANK = /\S/

function bump(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1
}

export function applyEntry(state: ExtractState, entry: TranscriptEntry, ctx: ExtractContext, delta: RunDelta): void {
  if (entry.sidechain && ctx.subagents === false) return
  state.counts.entries++
  delta.entries++
  if (entry.sidechain) state.counts.sidechainEntries++
  if (entry.timestamp !== undefined) {
    if (state.firstTs === undefined) state.firstTs = entry.timestamp
    state.lastTs = entry.timestamp
  }
  if (!entry.sidechain) {
    if (entry.cwd && entry.cwd.length <= 4096 && entry.cwd !== state.cwd) {
      state.cwd = entry.cwd
      delete state.shellCwd // the host's own record of the directory wins over our reading of `cd`
    }
    if (entry.gitBranch) noteBranch(state, entry.gitBranch, entry.timestamp)
    if (entry.version && !state.versions.includes(entry.version)) state.versions.push(entry.version)
  }

  switch (entry.kind) {
    case 'prompt': {
      if (entry.sidechain) return
      delete state.inBookmarkFeedback
      state.counts.prompts++
      delta.prompts++
      noteRequest(state, entry.text, entry.line, entry.timestamp || undefined, entry.command, entry.from)
      const [full, short] = promptRecords(entry.line, entry.text, entry.timestamp || undefined, entry.from)
      state.prompts.push(short)
      if (state.prompts.length > CAPS.prompts) {
        state.prompts.splice(0, state.prompts.length - CAPS.prompts)
        state.promptsDropped++
      }
      state.recentPrompts.push(full)
      if (state.recentPrompts.length > CAPS.recentPrompts) state.recentPrompts.shift()
      return
    }
    case 'assistant': {
      if (entry.apiError) {
        state.counts.apiErrors++
        if (!entry.sidechain && entry.block.type === 'text' && state.inBookmarkFeedback !== true) noteApiError(state, entry.block.text)
        return
      }
      if (!entry.sidechain && entry.messageId !== state.lastMessageId) {
        if (entry.model) bump(state.models, entry.model)
        if (entry.messageId !== undefined) state.lastMessageId = entry.messageId
      }
      if (!entry.sidechain && entry.usage) {
        state.usage = {
          contextTokens: entry.usage.input + entry.usage.cacheRead + entry.usage.cacheCreation,
          outputTokens: entry.usage.output,
          ...(entry.model ? { model: entry.model } : {}),
          ...(entry.timestamp ? { ts: entry.timestamp } : {}),
        }
      }
      const block = entry.block
      if (block.type === 'text') {
        // not blank: what `trim() !== ''` says, without a trimmed copy of every reply
        if (!entry.sidechain && NOT_BLANK.test(block.text) && state.inBookmarkFeedback !== true) {
          state.lastAssistant = lastReply(block.text, entry.timestamp || undefined)
          noteReply(state, block.text)
          delta.assistantTexts++
        }
      } else if (block.type === 'tool_use') {
        bump(entry.sidechain ? state.subagentTools : state.tools, block.name)
        if (!entry.sidechain && state.inBookmarkFeedback !== true) noteToolCall(state, block.name)
        const pending: PendingTool = { name: block.name, input: pendingInput(block.name, block.input), sidechain: entry.sidechain, line: entry.line }
        if (entry.timestamp !== undefined) pending.ts = entry.timestamp
        if (entry.cwd !== undefined && entry.cwd.length <= 4096) pending.cwd = entry.cwd
        // Bounded by count and by size, the oldest calls (those whose result never came) going first.
        addPending(state.pending, block.id, pending)
      }
      return
    }
    case 'tool_result': {
      const tool = takePending(state.pending, entry.toolUseId)
      if (!tool) return
      applyResult(state, ctx, delta, tool, entry.result, entry.text, entry.isError, entry.timestamp)
      return
    }
    case 'compact_boundary': {
      if (entry.micro) {
        state.microcompactions++
        return
      }
      state.compactions.push({
        ...(entry.timestamp ? { ts: entry.timestamp } : {}),
        ...(entry.trigger ? { trigger: entry.trigger } : {}),
        ...(entry.preTokens !== undefined ? { preTokens: entry.preTokens } : {}),
      })
      return
    }
    case 'note':
      if (entry.note === 'interrupt' && !entry.sidechain) {
        state.counts.interrupts++
        noteInterrupt(state)
      }
      if (entry.note === 'bookmark-feedback' && !entry.sidechain) state.inBookmarkFeedback = true
      if (entry.note === 'teammate' && entry.reports && !entry.sidechain) noteTeamReports(state, entry.reports, entry.line, entry.timestamp)
      return
    case 'title':
      state.title = entry.title
      return
    case 'pr_link':
      if (!state.prLinks.includes(entry.url)) state.prLinks.push(entry.url)
      if (state.prLinks.length > CAPS.prLinks) state.prLinks.shift()
      return
    default:
      return
  }
}

function noteBranch(state: ExtractState, branch: string, ts: string | undefined): void {
  if (branch === state.branch) return
  if (state.branch !== undefined) {
    const last = state.git[state.git.length - 1]
    const already = last && last.event.kind === 'branch' && last.event.to === branch
    if (!already) pushGit(state, { kind: 'branch', to: branch, created: false }, ts)
  }
  state.branch = branch
}

function pushGit(state: ExtractState, event: GitEvent, ts: string | undefined): void {
  // Every string of an event is bounded (a commit message can be pages long).
  const bounded = Object.fromEntries(Object.entries(event).map(([k, v]) => [k, typeof v === 'string' ? cutRedacted(v, 2_000) : v])) as GitEvent
  state.git.push({ event: bounded, ...(ts ? { ts } : {}) })
  if (state.git.length > CAPS.git) state.git.shift()
}

function applyResult(
  state: ExtractState,
  ctx: ExtractContext,
  delta: RunDelta,
  tool: PendingTool,
  result: unknown,
  text: string,
  isError: boolean,
  ts: string | undefined,
): void {
  if (state.inBookmarkFeedback !== true) noteToolResult(state, tool, result, text, isError, ts)
  if (TASK_TOOLS.has(tool.name)) applyTaskTool(state, tool, result, text, isError, ctx.subagents !== false)
  if (SHELL_TOOLS.has(tool.name)) {
    const command = typeof tool.input.command === 'string' ? tool.input.command : ''
    const git = /\bgit\b/.test(command)
    // One parse serves the git rules (which read the command as bash) and the file rules.
    const parsed = !isError && command !== '' ? parseScript(command, tool.name === 'PowerShell' ? 'powershell' : 'bash') : undefined
    applyToolOutcome(state, tool, text, isError, ts, result, parsed)
    if (git) applyGit(state, command, shellOutput(result, text), isError, ts ?? tool.ts, tool.name === 'Bash' ? parsed : undefined, tool.line, tool.sidechain)
    if (!isError) applyShellTool(state, ctx, delta, tool, parsed)
    if (!isError && !tool.sidechain) resolveChangedFiles(state, ctx.projectRoot, tool.line, ts)
    if (!tool.sidechain) noteShellReset(state, text)
  } else {
    applyToolOutcome(state, tool, text, isError, ts)
    if (FILE_TOOLS.has(tool.name) && !isError) applyFileTool(state, ctx, delta, tool, result)
  }
}

/**
 * A subagent's commits count (they are in the history the next session finds); its branch switches, pushes and
 * the rest are its own affair (it may work in a worktree of its own).
 */
function applyGit(
  state: ExtractState,
  command: string,
  output: string,
  isError: boolean,
  ts: string | undefined,
  parsed: ScriptNode[] | undefined,
  line: number,
  subagent: boolean,
): void {
  let events: GitEvent[] = []
  let lastMessage: string | undefined
  for (let i = state.git.length - 1; i >= 0 && lastMessage === undefined; i--) {
    const e = state.git[i]!.event
    if (e.kind === 'commit') lastMessage = e.message
  }
  try {
    events = gitEvents(command, output, isError, parsed, lastMessage)
  } catch {
    return
  }
  for (const event of events) {
    if (subagent && event.kind !== 'commit') continue
    pushGit(state, event, ts)
    if (event.kind === 'branch') state.branch = event.to
    if (event.kind === 'commit') noteCommit(state, line, event.hash)
  }
}

function shellOutput(result: unknown, text: string): string {
  if (typeof result === 'object' && result !== null && !Array.isArray(result)) {
    const r = result as Record<string, unknown>
    const out = [r.stdout, r.stderr].filter((v): v is string => typeof v === 'string' && v !== '').join('\n')
    if (out !== '') return out.slice(0, 8_000)
  }
  return text
}
