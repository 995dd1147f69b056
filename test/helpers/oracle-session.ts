/**
 * The session oracle of issue 18, written independently of src/: plain JSON reading of a transcript's
 * lines, saying what a person reading its end would hand over (goal, latest request, teammate messages,
 * how it ended, the user's decisions, the last reply's tail, errors). It imports nothing, so that
 * bench/quality.mjs can transpile and load it on its own.
 */

type Rec = Record<string, any>

export type EndState = 'waiting' | 'interrupted' | 'api-error' | 'committed' | 'mid-work' | 'finished'

/** The start of the `How the last session ended:` state, in the shared wording of issue 18. */
export const END_STATE_WORDS: Record<EndState, string> = {
  waiting: "waiting for the user's answer",
  interrupted: 'interrupted by the user',
  'api-error': 'on an API error',
  committed: 'committed',
  'mid-work': 'mid-work',
  // Beyond the five of the shared wording: the "finished", a reply after which nothing is left open.
  finished: 'after a reply, with no work open',
}

export interface OracleError {
  /** Line number (1-based) of the failed tool result. */
  line: number
  tool: string
  /** The file path or the command of the failed call. */
  target: string
  /** The first line of the error text. */
  message: string
  /** open: a person would hand it over; the rest are not errors to hand over. */
  status: 'open' | 'fixed' | 'exploratory' | 'cancelled' | 'rejected'
}

export interface SessionOracle {
  root: string
  /** The first substantial request, or the latest approved plan when there is one. */
  goal: string | undefined
  goalSource: 'request' | 'plan' | undefined
  latestRequest: string | undefined
  /** Inner text of `<teammate-message …>` records that carry a message (not protocol JSON), oldest first. */
  teammateMessages: string[]
  endState: EndState
  /** The 7-character hash when endState is committed. */
  commit: string | undefined
  /** The user's decisions and corrections, oldest first. */
  decisions: string[]
  lastAssistant: string | undefined
  /** The last 120 characters of the last main-thread assistant text. */
  lastAssistantTail: string | undefined
  /** The last sentence of the last assistant text when it is a question. */
  finalQuestion: string | undefined
  errors: OracleError[]
}

const TRIVIAL =
  /^(y|yes|yeah|yep|ok|okay|k|sure|continue|go|go on|go ahead|proceed|do it|please|thanks|thank you|great|nice|perfect|lgtm|cool|done|next|\d+)[\s.!]*$/i
const WRAPPER =
  /^(\[Request interrupted|<command-|<local-command|<task-notification|<teammate-message|<bash-|<user-prompt-submit-hook|Caveat:|This session is being continued|Stop hook feedback)/
const EXPLORATORY = new Set([
  'Read',
  'Grep',
  'Glob',
  'LS',
  'WebFetch',
  'WebSearch',
  'ListMcpResourcesTool',
  'ReadMcpResourceTool',
  'NotebookRead',
  'BashOutput',
  'TaskOutput',
  'ToolSearch',
  'Skill',
])
const EDIT_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit'])

export function parseLines(raw: string): Rec[] {
  const out: Rec[] = []
  raw.split('\n').forEach((l, i) => {
    if (!l.trim()) return
    try {
      const o = JSON.parse(l)
      if (o && typeof o === 'object') out.push({ ...o, __line: i + 1 })
    } catch {
      // a torn line: Claude Code skips it too
    }
  })
  return out
}

function blocks(o: Rec): Rec[] {
  const c = o.message?.content
  if (typeof c === 'string') return [{ type: 'text', text: c }]
  return Array.isArray(c) ? c.filter((b) => b && typeof b === 'object') : []
}

function resultText(b: Rec): string {
  if (typeof b.content === 'string') return b.content
  if (Array.isArray(b.content)) return b.content.map((x: Rec) => (typeof x?.text === 'string' ? x.text : '')).join('\n')
  return ''
}

/** A user record's typed text (wrappers and IDE context removed), or undefined for bare tool results and meta records. */
function typedText(o: Rec): string | undefined {
  if (o.type !== 'user' || o.isMeta || o.isCompactSummary || o.isSidechain || o.isVisibleInTranscriptOnly) return undefined
  // Text blocks beside a tool result are a message the user typed while the tool ran (2.1.x).
  const text = blocks(o)
    .filter((b) => b.type === 'text')
    .map((b) => String(b.text))
    .join('\n')
    .replace(/<(system-reminder|ide_opened_file|ide_selection|ide_diagnostics)>[\s\S]*?<\/\1>/g, '')
    .trim()
  return text || undefined
}

/** Commands that steer Claude Code itself: their arguments (a /compact focus, a model name) ask for no work. */
const SESSION_COMMANDS = new Set(['compact', 'clear', 'model', 'resume', 'config', 'context', 'memory', 'add-dir', 'rename', 'export', 'rewind'])

/**
 * Typed text that is a request of the user's own: not a wrapper, a bare slash command or a teammate message. A
 * slash command with arguments (`/workflows:review <PR url>`, `/security:review all of phase 14 work`) is the
 * user's request in the command's words.
 */
function requestText(o: Rec): string | undefined {
  const t = typedText(o)
  if (!t) return undefined
  const name = /<command-name>\/?([^<\s]+)<\/command-name>/.exec(t)?.[1]
  if (name !== undefined) {
    const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(t)?.[1]?.trim()
    return args && !SESSION_COMMANDS.has(name) ? `/${name} ${args}` : undefined
  }
  if (WRAPPER.test(t) || /^\/\S+$/.test(t)) return undefined
  return t
}

/** Assent with nothing of its own: "yeah let's do it", "yes continue", "ok go ahead". */
const ASSENT = /^(y|yes|yeah|yep|ok|okay|sure|cool|great|alright)\b[\s,.!-]*(let'?s (do|go)( it| ahead)?|please|continue|go( ahead)?|do it|proceed)?[\s.!]*$/i

function substantial(t: string): boolean {
  return t.length >= 12 && !TRIVIAL.test(t) && !ASSENT.test(t)
}

/** The core of a shell command: its first command without env assignments, `cd …&&`, flags, pipes or redirections. */
export function commandCore(cmd: string): string {
  let c = cmd.trim().split('\n')[0]!
  c = c.replace(/^(cd\s+\S+\s*&&\s*)+/, '')
  c = c.split(/\s*(\|\||&&|\||;)\s*/)[0]!
  c = c.replace(/\s\d?>&?\s*\S+/g, '').replace(/\s2>&1/g, '')
  const words = c.split(/\s+/).filter((w) => w && !/^\w+=/.test(w) && !w.startsWith('-'))
  return words.slice(0, 3).join(' ')
}

const QUESTION = /([^.!?\n]*\?)[\s)*_`]*$/

export function sessionOracle(raw: string): SessionOracle {
  const lines = parseLines(raw)
  const main = lines.filter((o) => !o.isSidechain)
  const root = main.find((o) => typeof o.cwd === 'string')?.cwd as string

  let goal: string | undefined
  let goalSource: SessionOracle['goalSource']
  let firstRequest: string | undefined
  let latestRequest: string | undefined
  let plan: string | undefined
  const teammateMessages: string[] = []
  const decisions: string[] = []
  const uses = new Map<string, { name: string; input: Rec; line: number }>()
  const pendingAsk = new Set<string>()
  let lastAssistant: string | undefined
  let lastAssistantRec: Rec | undefined
  let lastAssistantTextLine = 0
  let lastToolUseLine = 0
  let lastCommitLine = 0
  let lastCommit: string | undefined
  let lastChangeLine = 0
  let lastInterruptLine = 0
  let lastRealLine = 0
  const failed: OracleError[] = []
  const okEdits = new Map<string, number>() // file -> last line of a successful edit
  const okCommands = new Map<string, number>() // command core -> last line it succeeded
  const okByTool = new Map<string, number>()
  let todos: Rec[] | undefined
  const tasks = new Map<string, string>() // task id -> status

  for (const o of main) {
    if (o.type !== 'user' && o.type !== 'assistant') continue
    if (!o.isMeta) lastRealLine = o.__line
    if (o.type === 'assistant') {
      lastAssistantRec = o
      for (const b of blocks(o)) {
        if (b.type === 'text' && String(b.text).trim()) {
          lastAssistant = String(b.text).trim()
          lastAssistantTextLine = o.__line
        }
        if (b.type === 'tool_use') {
          uses.set(b.id, { name: String(b.name), input: b.input ?? {}, line: o.__line })
          lastToolUseLine = o.__line
          if (b.name === 'AskUserQuestion') pendingAsk.add(b.id)
        }
      }
      continue
    }
    const t = typedText(o)
    if (t?.startsWith('[Request interrupted')) lastInterruptLine = o.__line
    for (const m of (t ?? '').matchAll(/<teammate-message([^>]*)>([\s\S]*?)<\/teammate-message>/g)) {
      const inner = m[2]!.trim()
      if (inner && !inner.startsWith('{')) teammateMessages.push(inner)
    }
    const req = requestText(o)
    if (req && substantial(req)) {
      firstRequest ??= req
      latestRequest = req
    }
    if (req && /^(don'?t|do not|instead|go with|let'?s not|no,|not |never |stop )/i.test(req) && req.length <= 200) decisions.push(req)
    for (const b of blocks(o)) {
      if (b.type !== 'tool_result') continue
      const u = uses.get(b.tool_use_id)
      if (!u) continue
      const text = resultText(b)
      if (u.name === 'AskUserQuestion') {
        pendingAsk.delete(b.tool_use_id)
        // `"question"="answer"` pairs: the answers are the decisions.
        const a = /User has answered your questions?: ([\s\S]*?)(\. You can now continue|$)/.exec(text)
        if (a) for (const m of a[1]!.matchAll(/"=\s*"([^"]+)"/g)) decisions.push(m[1]!.trim())
      }
      if (u.name === 'ExitPlanMode') {
        if (/User has approved your plan/.test(text)) {
          plan = /## Approved Plan:\n([\s\S]*)/.exec(text)?.[1]?.trim() ?? (typeof u.input.plan === 'string' ? u.input.plan : undefined)
        }
      }
      const said = /the user said:\n([\s\S]*)/.exec(text)
      if (said && /doesn't want to proceed/.test(text)) decisions.push(said[1]!.trim())
      const target = String(u.input.file_path ?? u.input.notebook_path ?? u.input.command ?? u.input.pattern ?? u.input.url ?? '')
      if (b.is_error === true) {
        const first = text.split('\n').find((l) => l.trim() && !/^Exit code \d+$/.test(l.trim())) ?? text.split('\n')[0] ?? ''
        let status: OracleError['status'] = 'open'
        if (/doesn't want to proceed|rejected by the user|user denied|permission to use .* has been denied|haven't granted it yet/i.test(text))
          status = 'rejected'
        else if (/Cancelled: parallel tool call|Sibling tool call errored|<tool_use_error>Cancelled/i.test(text)) status = 'cancelled'
        else if (EXPLORATORY.has(u.name)) status = 'exploratory'
        failed.push({ line: o.__line, tool: u.name, target, message: first.replace(/<\/?tool_use_error>/g, '').trim(), status })
        continue
      }
      okByTool.set(u.name, o.__line)
      if (u.name === 'TodoWrite' && Array.isArray(u.input.todos)) todos = u.input.todos
      if (u.name === 'TaskCreate') {
        const id = o.toolUseResult?.task?.id ?? /Task #(\w+) created/.exec(text)?.[1]
        if (id !== undefined) tasks.set(String(id), 'pending')
      }
      if (u.name === 'TaskUpdate' && u.input.taskId !== undefined && tasks.has(String(u.input.taskId))) {
        if (u.input.status === 'deleted') tasks.delete(String(u.input.taskId))
        else if (typeof u.input.status === 'string') tasks.set(String(u.input.taskId), u.input.status)
      }
      if (EDIT_TOOLS.has(u.name) && target) {
        okEdits.set(target, o.__line)
        lastChangeLine = o.__line
      }
      if (u.name === 'Bash' && typeof u.input.command === 'string') {
        okCommands.set(commandCore(u.input.command), o.__line)
        const commit = /^\[[^\]\n]*?([0-9a-f]{7,40})\] /m.exec(text)
        if (/\bgit\b[^\n]*\bcommit\b/.test(u.input.command) && commit) {
          lastCommit = commit[1]!.slice(0, 7)
          lastCommitLine = o.__line
        } else if (
          /\b(rm|mv|git (checkout|restore|reset|stash|apply|merge|rebase|cherry-pick))\b|(?<![\d&>])>>?\s*(?!&|\/dev\/null\b)[^\s&]/.test(u.input.command)
        )
          // A write to a file; `2>&1` and `> /dev/null` change nothing.
          lastChangeLine = o.__line
      }
    }
  }

  for (const e of failed) {
    if (e.status !== 'open') continue
    const byEdit = EDIT_TOOLS.has(e.tool) && (okEdits.get(e.target) ?? 0) > e.line
    const byCommand = e.tool === 'Bash' && (okCommands.get(commandCore(e.target)) ?? 0) > e.line
    if (byEdit || byCommand) e.status = 'fixed'
  }

  if (plan) {
    goal = plan
    goalSource = 'plan'
  } else if (firstRequest) {
    goal = firstRequest
    goalSource = 'request'
  }
  /** Open tasks, an open error, or a file tool that failed and never succeeded on its file (not the user's "no"). */
  function workLeft(): boolean {
    const open = tasks.size > 0 ? [...tasks.values()].some((s) => s !== 'completed') : (todos ?? []).some((t) => t.status !== 'completed')
    const undone = failed.some(
      (e) => EDIT_TOOLS.has(e.tool) && e.status !== 'cancelled' && !/doesn't want to proceed/.test(e.message) && (okEdits.get(e.target) ?? 0) < e.line,
    )
    return open || undone || failed.some((e) => e.status === 'open')
  }
  const apiError =
    lastAssistantRec && (lastAssistantRec.isApiErrorMessage === true || (lastAssistantRec.error !== undefined && lastAssistantRec.error !== null))
  const questionAtEnd = lastAssistantTextLine >= lastToolUseLine && QUESTION.test(lastAssistant ?? '') && lastAssistantTextLine === lastRealLine
  let endState: EndState
  if (lastInterruptLine > 0 && lastInterruptLine === lastRealLine) endState = 'interrupted'
  else if (apiError) endState = 'api-error'
  else if (pendingAsk.size > 0 || questionAtEnd) endState = 'waiting'
  else if (lastCommit && lastCommitLine >= lastChangeLine) endState = 'committed'
  else if (lastAssistantTextLine === lastRealLine && lastChangeLine === 0 && !workLeft()) endState = 'finished'
  else endState = 'mid-work'
  const finalQuestion = lastAssistant ? QUESTION.exec(lastAssistant)?.[1]?.trim() : undefined

  return {
    root,
    goal,
    goalSource,
    latestRequest,
    teammateMessages,
    endState,
    commit: endState === 'committed' ? lastCommit : undefined,
    decisions,
    lastAssistant,
    lastAssistantTail: lastAssistant?.slice(-120),
    finalQuestion,
    errors: failed,
  }
}

/**
 * Errors checked by hand against the transcripts (the automatic status above is a first pass only): `resolved`
 * needles must not appear among a restore's unresolved errors (fixed later, exploratory, a rejection, noise in a
 * passing run); `open` needles must. No non-Windows transcript ends with a failure a person would hand over: every
 * failing step was fixed, retried another way or dropped before the end, so `open` is empty for all of them.
 */
export const HANDOVER: Record<string, { open: string[]; resolved: string[] }> = {
  // go test -run TestListOrphanedSession… failed (test written to fail), passed after the fix
  'cc-2.0.76-compact1-task-todowrite-847ff7d2.jsonl': { open: [], resolved: ['TestListOrphanedSession'] },
  // `git show … --no-stat`: a wrong flag, rerun without it
  'cc-2.1.12-microcompact-0cd9edf7.jsonl': { open: [], resolved: ['--no-stat'] },
  // lint failed twice, then passed in `mise run test && mise run lint`
  'cc-2.1.12-progress-local-command-mcp-04cd0da1.jsonl': { open: [], resolved: ['mise run lint', 'mise run fmt'] },
  // an exploratory `cat` of a missing file; an integration test fixed and rerun
  'cc-2.1.14-compact2-mcp-progress-0cf3db51.jsonl': { open: [], resolved: ['current_session.txt', 'TestShadowStrategy_BaseCommitUpdatedOnReuse'] },
  // `git commit` found nothing to commit (a hook had committed): not an error
  'cc-2.1.14-tool-errors-c64cc478.jsonl': { open: [], resolved: ['git add .gitignore'] },
  // an Edit with two matches, redone; two plan rejections (the user's decisions, not errors)
  'cc-2.1.17-long-compact2-askuser-f4237e82.jsonl': { open: [], resolved: ['Found 2 matches', 'ExitPlanMode'] },
  // build failures during a merge, fixed; the merge conflict resolved and committed (b2668cc)
  'cc-2.1.20-taskcreate-local-command-mcp-b82405ba.jsonl': { open: [], resolved: ['go build', 'git merge origin/alex/ent-109'] },
  // lint failed, passed in the later `mise run lint && mise run test`
  'cc-2.1.22-microcompact-summary-15f99783.jsonl': { open: [], resolved: ['mise run lint'] },
  // a jq program error, replaced by a plain `gh api` call
  'cc-2.1.29-image-compact1-062a8bdd.jsonl': { open: [], resolved: ['Top-level program not given'] },
  // a compile failure in a test, fixed; a Linear create_issue retried with a team id
  'cc-2.1.29-pr-link-compact2-mcp-1e0816ef.jsonl': { open: [], resolved: ['TestBuildCondensedTranscri', 'Argument Validation Error'] },
  // a merge conflict, resolved and committed
  'cc-2.1.36-pr-link-compact1-53ea1606.jsonl': { open: [], resolved: ['git merge origin/alex/ent-221'] },
  // two trailer tests failing, then passing
  'cc-2.1.42-pr-link-compact1-c010174c.jsonl': { open: [], resolved: ['TestAddCheckpointTrailer'] },
  // Edits whose old string was stale, redone after a Read
  'cc-2.1.44-image-ffc44f28.jsonl': { open: [], resolved: ['String to replace not found'] },
  // a malformed tool name, retried as a proper call
  'cc-2.1.49-malformed-toolname-compact1-f7594e2b.jsonl': { open: [], resolved: ['No such tool available'] },
  // lint and integration tests failing early, passing later
  'cc-2.1.5-api-error-compact2-b00b80af.jsonl': { open: [], resolved: ['mise run lint'] },
  // the concurrent-sessions test failing on a hardcoded date, passing after the fix
  'cc-2.1.5-long-compact2-44df7d08.jsonl': { open: [], resolved: ['TestConcurrentSessions_BothCondensedOnCommit'] },
  // "[ConcurrencyLimiter] Task 2 failed" is log noise inside a passing run (1329 pass, 0 fail)
  'cc-2.1.50-api-error-303ebbc4.jsonl': { open: [], resolved: ['ConcurrencyLimiter', 'Task 2 failed'] },
  // `rtk bun run test` is not a command (rerun as `bun run test`, which passed); log noise as above
  'cc-2.1.59-plain-eebd3a1f.jsonl': { open: [], resolved: ['rtk bun', 'ConcurrencyLimiter'] },
  'cc-2.1.63-small-540a8f92.jsonl': { open: [], resolved: ['rtk bun', 'ConcurrencyLimiter'] },
}
