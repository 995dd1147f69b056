/**
 * Transcript entries -> search events: one per request, reply, shell command, file change, other tool call, git
 * commit, error, subagent prompt, compaction summary and title. Pure: the host's line parser made the entries;
 * a call waits in `carry.pending` for its result (a file change, a commit and a failure are known only then).
 * Every text and path is redacted and bounded here, before anything keeps it.
 */
import { cutRedacted } from '../redact/secrets.js'
import { FILE_TOOLS, SHELL_TOOLS } from '../extract/files.js'
import { gitEvents } from '../extract/git.js'
import type { FileOperation } from '../extract/model.js'
import { changedFiles, parsePatch } from '../extract/patch.js'
import type { HostId } from '../hosts/host.js'
import { isObject, str } from '../shared/json.js'
import type { TranscriptEntry } from '../transcript/types.js'
import type { EventKind } from './kinds.js'

export { EVENT_KINDS, type EventKind } from './kinds.js'

export interface SearchEvent {
  /** 12 hex digits from the transcript, line and place in the line: the same event always gets the same id. */
  id: string
  kind: EventKind
  ts?: string
  /** The session's working directory (the shell may replace it with the project root). */
  project: string
  session: string
  host: HostId
  tool?: string
  paths?: string[]
  /** Redacted, at most TEXT_CAP characters. */
  text: string
  transcript: string
  line: number
  /** Written by a subagent. */
  sub?: true
  /** A wrap-up's open threads (redacted): orientation shows them first. */
  threads?: string[]
  /** A wrap-up's one-line summary (redacted): the explorer's list of sessions shows it. */
  summary?: string
}

export interface EventSource {
  host: HostId
  session: string
  transcript: string
}

interface PendingCall {
  name: string
  line: number
  ts?: string
  command?: string
  files?: { path: string; op: FileOperation; detail?: string }[]
  target?: string
  /** The command or target in a line, for an error's text. */
  what?: string
  sub?: true
}

/** What reading on needs from the lines before (kept with the checkpoint): calls waiting for their result. */
export interface EventCarry {
  pending: Record<string, PendingCall>
  project?: string
  title?: string
  /** The line the last events came from and how many it gave: an old transcript line holds several blocks. */
  at?: number
  n?: number
}

export const TEXT_CAP = 1_200
const PATH_CAP = 512
const PENDING_CAP = 64
const COMMAND_KEEP = 4_000

export function newCarry(): EventCarry {
  return { pending: {} }
}

/** FNV-1a in two lanes over UTF-16 units: a stable id, not a seal. */
export function eventId(transcript: string, line: number, n: number | string): string {
  const s = `${transcript}\n${line}\n${n}`
  let a = 0x811c9dc5
  let b = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x5bd1e995)
  }
  return ((a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0')).slice(0, 12)
}

const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim()

function cleanPath(p: string): string {
  return cutRedacted(p.trim(), PATH_CAP)
}

/** The input fields that say what a call was about, in a line. */
const TARGET_KEYS = ['file_path', 'notebook_path', 'path', 'pattern', 'query', 'url', 'description', 'skill', 'subject', 'server_name', 'name', 'glob']

function targetOf(input: Record<string, unknown>): string {
  const parts: string[] = []
  for (const k of TARGET_KEYS) {
    const v = input[k]
    if (typeof v === 'string' && v.trim() !== '') parts.push(v.length > 300 ? v.slice(0, 300) : v)
  }
  if (parts.length === 0) {
    const json = JSON.stringify(input) ?? ''
    if (json !== '{}') parts.push(json.slice(0, 300))
  }
  return parts.join(' ')
}

function pathsOf(input: Record<string, unknown>): string[] {
  const out: string[] = []
  for (const k of ['file_path', 'notebook_path', 'path']) {
    const v = input[k]
    if (typeof v === 'string' && v.trim() !== '' && v.length <= 4096) out.push(v)
  }
  return out
}

function patchFiles(input: Record<string, unknown>): PendingCall['files'] {
  const text = str(input.patch) ?? str(input.input)
  const files = text !== undefined ? parsePatch(text) : undefined
  return files?.map((f) => ({
    path: cleanPath(f.moveTo ?? f.path),
    op: f.op === 'add' ? 'created' : f.op === 'delete' ? 'deleted' : f.moveTo !== undefined ? 'moved' : 'modified',
    ...(f.diff ? { detail: cutRedacted(f.diff.added.slice(0, 8).join('\n').slice(0, 600), 300) } : {}),
  }))
}

function fileDetail(name: string, input: Record<string, unknown>): string | undefined {
  const v = name === 'Write' ? str(input.content) : name === 'Edit' ? str(input.new_string) : name === 'NotebookEdit' ? str(input.new_source) : undefined
  if (v !== undefined) return v.slice(0, 300)
  if (name === 'MultiEdit' && Array.isArray(input.edits)) {
    return input.edits
      .map((e) => (isObject(e) ? (str(e.new_string) ?? '') : ''))
      .join('\n')
      .slice(0, 300)
  }
  return undefined
}

/** A call as it waits for its result, every text in it redacted (it is kept with the checkpoint). */
function callOf(name: string, input: Record<string, unknown>, line: number, ts: string | undefined, sub: boolean): PendingCall {
  const call: PendingCall = { name, line }
  if (ts !== undefined) call.ts = ts
  if (sub) call.sub = true
  let what: string | undefined
  if (SHELL_TOOLS.has(name)) {
    const command = str(input.command)
    if (command !== undefined) {
      what = command
      // Only a git command needs its words at the result (the commit's message and hash).
      if (/\bgit\b/.test(command)) call.command = cutRedacted(command.slice(0, COMMAND_KEEP), COMMAND_KEEP)
    }
  } else if (FILE_TOOLS.has(name)) {
    if (name === 'apply_patch') call.files = patchFiles(input)
    else {
      const path = pathsOf(input)[0]
      const detail = fileDetail(name, input)
      if (path !== undefined) call.files = [{ path: cleanPath(path), op: 'modified', ...(detail !== undefined ? { detail: cutRedacted(detail, 300) } : {}) }]
    }
  }
  const target = targetOf(input)
  if (target !== '') call.target = cutRedacted(oneLine(target), 600)
  what ??= target
  if (what !== '') call.what = cutRedacted(oneLine(what.slice(0, 1_000)), 200)
  return call
}

function addPending(carry: EventCarry, id: string, call: PendingCall): void {
  carry.pending[id] = call
  const ids = Object.keys(carry.pending)
  // A call whose result never comes must not grow the checkpoint: the oldest go first.
  for (let i = 0; ids.length - i > PENDING_CAP; i++) delete carry.pending[ids[i]!]
}

function shellOutput(result: unknown, text: string): string {
  if (isObject(result)) {
    const out = [result.stdout, result.stderr].filter((v): v is string => typeof v === 'string' && v !== '').join('\n')
    if (out !== '') return out.slice(0, 8_000)
  }
  return text
}

/**
 * The events of one entry, in order. `carry` holds what the lines before left open; it is updated in place.
 * Subagent lines give their calls, changes, commits and errors (counted under the parent session), not their words.
 */
export function eventsOf(entry: TranscriptEntry, source: EventSource, carry: EventCarry): SearchEvent[] {
  if (!entry.sidechain && entry.cwd && entry.cwd.length <= 4096 && carry.project === undefined) carry.project = cleanPath(entry.cwd)
  const out: SearchEvent[] = []
  if (carry.at !== entry.line) {
    carry.at = entry.line
    carry.n = 0
  }
  const emit = (
    kind: EventKind,
    text: string,
    line = entry.line,
    extra: { ts?: string; tool?: string; paths?: string[]; sub?: boolean; key?: string } = {},
  ): void => {
    const body = cutRedacted(oneLine(text), TEXT_CAP)
    if (body === '') return
    const event: SearchEvent = {
      id: eventId(source.transcript, line, extra.key ?? (carry.n = (carry.n ?? 0) + 1)),
      kind,
      project: carry.project ?? '',
      session: source.session,
      host: source.host,
      text: body,
      transcript: source.transcript,
      line,
    }
    const ts = extra.ts ?? entry.timestamp
    if (ts) event.ts = ts
    if (extra.tool) event.tool = extra.tool
    if (extra.paths && extra.paths.length > 0) event.paths = extra.paths.map(cleanPath)
    if (extra.sub ?? entry.sidechain) event.sub = true
    out.push(event)
  }

  switch (entry.kind) {
    case 'prompt':
      if (!entry.sidechain) emit('request', entry.text)
      break
    case 'assistant': {
      if (entry.apiError) {
        if (entry.block.type === 'text') emit('error', `API error: ${entry.block.text}`)
        break
      }
      const block = entry.block
      if (block.type === 'text') {
        if (!entry.sidechain) emit('reply', block.text)
      } else if (block.type === 'tool_use') {
        const input = block.input
        const call = callOf(block.name, input, entry.line, entry.timestamp, entry.sidechain)
        if (SHELL_TOOLS.has(block.name)) {
          const desc = str(input.description)
          emit('command', `${str(input.command) ?? ''}${desc ? ` # ${desc}` : ''}`, entry.line, { tool: block.name })
        } else if (block.name === 'Task' || block.name === 'Agent') {
          const head = [str(input.subagent_type), str(input.description)].filter(Boolean).join(': ')
          emit('subagent', `${head ? `${head}: ` : ''}${str(input.prompt) ?? ''}`, entry.line, { tool: block.name })
        } else if (!FILE_TOOLS.has(block.name)) {
          emit('tool', `${block.name} ${call.target ?? ''}`, entry.line, { tool: block.name, paths: pathsOf(input) })
        }
        addPending(carry, block.id, call)
      }
      break
    }
    case 'tool_result': {
      const call = carry.pending[entry.toolUseId]
      if (call === undefined) break
      delete carry.pending[entry.toolUseId]
      const sub = call.sub === true
      if (entry.isError) {
        const what = call.what ?? ''
        emit('error', `${call.name}${what ? ` (${what})` : ''} failed: ${entry.text}`, entry.line, {
          tool: call.name,
          paths: call.files?.map((f) => f.path) ?? [],
          sub,
        })
      }
      if (call.command !== undefined && /\bgit\b/.test(call.command)) {
        let git: ReturnType<typeof gitEvents> = []
        try {
          git = gitEvents(call.command, shellOutput(entry.result, entry.text), entry.isError)
        } catch {
          git = []
        }
        for (const g of git) {
          if (g.kind !== 'commit') continue
          emit('commit', `${g.hash ? `${g.hash.slice(0, 12)} ` : ''}${g.message.split('\n')[0] ?? ''}`, entry.line, { tool: call.name, sub })
        }
      }
      if (call.files && !entry.isError) {
        const recorded = call.name === 'apply_patch' && isObject(entry.result) ? changedFiles(entry.result.changes) : undefined
        const created = call.name === 'Write' && isObject(entry.result) && entry.result.type === 'create'
        const files = recorded
          ? recorded.map((f) => ({
              path: f.moveTo ?? f.path,
              op: (f.op === 'add' ? 'created' : f.op === 'delete' ? 'deleted' : f.moveTo !== undefined ? 'moved' : 'modified') as FileOperation,
              detail: undefined as string | undefined,
            }))
          : call.files
        files.forEach((f, k) => {
          const op = created ? 'created' : f.op
          const key = `${entry.toolUseId}:${k}`
          emit('file', `${op} ${f.path}${f.detail ? ` ${f.detail}` : ''}`, call.line, { tool: call.name, paths: [f.path], ts: call.ts, sub, key })
        })
      }
      break
    }
    case 'compact_summary':
      emit('compaction', entry.text ?? 'Conversation compacted')
      break
    case 'title': {
      const title = oneLine(entry.title)
      if (title !== '' && title !== carry.title) {
        carry.title = title
        emit('title', title)
      }
      break
    }
    default:
      break
  }
  return out
}
