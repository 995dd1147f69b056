/**
 * The MCP tools: each calls the same functions the CLI calls. Bad input is a tool error (isError) with a
 * clear message; annotations are honest (readOnlyHint only where nothing is written).
 */
import { claudeHost } from '../hosts/claude/host.js'
import type { Host } from '../hosts/host.js'
import { resolve } from 'node:path'
import { restoreText } from '../hooks/restore.js'
import { hookContext } from '../hooks/run.js'
import { capture } from '../capture/capture.js'
import { type Deps, configured } from '../shared/deps.js'
import { InputError, isUserError } from '../shared/errors.js'
import { exportHandoff } from '../commands/export.js'
import { listAll, listProject, show, status } from '../commands/query.js'
import { snapshotRefusal } from '../commands/switch.js'
import { captureOff } from '../config/resolve.js'
import { redact } from '../redact/secrets.js'
import { renderLatest } from '../snapshot/render.js'
import { type SearchCache, type SearchOptions, hitsText, orientText, runOrient, runSearch, scopeNote } from '../memory/commands.js'
import { eventText, getEvent } from '../memory/log-commands.js'
import { EVENT_KINDS } from '../memory/events.js'
import { FILES, ITEMS, digestText, parseWrapupInput, wrapupText } from '../memory/wrapup.js'
import { digestNone, recordWrapup, wrapupDigest } from '../memory/wrapup-command.js'

export interface ToolContext {
  deps: Deps
  cwd: string
  /**
   * Send `structuredContent` with the text (default true). False for a client that gives its model the
   * structured content in place of the text (Claude Code: see server.ts), so that the model reads the text.
   */
  structured?: boolean
  /** The search index a long-lived server keeps open between calls. */
  memory?: SearchCache
  /** The agent whose sessions the server captures (default Claude Code). */
  host?: Host
}

type Args = Record<string, unknown>

interface PropSpec {
  type: 'string' | 'boolean' | 'integer' | 'array'
  description: string
  /** For an array: its items' schema (checked by the tool itself, with one clear error each). */
  items?: Record<string, unknown>
  maxItems?: number
  enum?: readonly string[]
  minimum?: number
  maximum?: number
}

export interface Tool {
  name: string
  title: string
  description: string
  inputSchema: { type: 'object'; properties: Record<string, PropSpec>; additionalProperties: false }
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean }
  run: (args: Args, ctx: ToolContext) => Promise<{ text: string; data: Record<string, unknown> }>
}

const CWD: PropSpec = { type: 'string', description: 'the project folder (absolute); default: the folder the server was started in' }
const SOURCES = ['startup', 'clear', 'compact', 'resume', 'fork'] as const

function schema(properties: Record<string, PropSpec>): Tool['inputSchema'] {
  return { type: 'object', properties, additionalProperties: false }
}

/** Checks arguments against a tool's schema: unknown keys, types, enums and ranges, one clear line each. */
export function validate(tool: Tool, args: Args): void {
  const props = tool.inputSchema.properties
  for (const [key, value] of Object.entries(args)) {
    const spec = props[key]
    if (!spec) throw new InputError(`${tool.name}: unknown argument "${key}" (expected: ${Object.keys(props).join(', ') || 'none'})`)
    if (value === undefined || value === null) continue
    const ok = spec.type === 'integer' ? Number.isInteger(value) : spec.type === 'array' ? Array.isArray(value) : typeof value === spec.type
    if (!ok)
      throw new InputError(
        `${tool.name}: argument "${key}" must be ${spec.type === 'integer' ? 'a whole number' : spec.type === 'array' ? 'a list' : `a ${spec.type}`}, got ${JSON.stringify(value)}`,
      )
    if (spec.enum && !spec.enum.includes(value as string))
      throw new InputError(`${tool.name}: argument "${key}" must be one of ${spec.enum.join(', ')}, got ${JSON.stringify(value)}`)
    if (typeof value === 'number' && ((spec.minimum !== undefined && value < spec.minimum) || (spec.maximum !== undefined && value > spec.maximum))) {
      throw new InputError(`${tool.name}: argument "${key}" must be from ${spec.minimum} to ${spec.maximum}, got ${value}`)
    }
  }
}

function cwdOf(args: Args, ctx: ToolContext): string {
  const c = args.cwd
  if (typeof c === 'string') {
    if (!c.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(c)) throw new InputError(`argument "cwd" must be an absolute path, got ${JSON.stringify(c)}`)
    return resolve(c)
  }
  return ctx.cwd
}

export const TOOLS: Tool[] = [
  {
    name: 'bookmark_snapshot',
    title: 'Capture the session now',
    description:
      "Capture a Claude Code session of the project now (trigger manual): reads what its transcript gained since the last capture and writes a snapshot, LATEST.md and the trail. Without session_id, the project's most recently written session is used, and the result says so.",
    inputSchema: schema({
      cwd: CWD,
      session_id: { type: 'string', description: 'the session to capture' },
      transcript: { type: 'string', description: 'absolute path of the session transcript (.jsonl), when it is not in the usual place' },
    }),
    annotations: { title: 'Capture the session now', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: async (args, ctx) => {
      const cwd = cwdOf(args, ctx)
      const { deps, resolved, projectRoot } = await configured(ctx.deps, cwd)
      // The model calls this tool: it never overrides the user's switch (no force here).
      const refused = snapshotRefusal(resolved, typeof args.session_id === 'string' ? args.session_id : undefined, 'this tool does not override it')
      if (refused)
        return { text: `No snapshot written: ${refused}.`, data: { written: false, snapshotId: null, snapshotFile: null, projectRoot, reason: refused } }
      const r = await capture(
        {
          cwd,
          trigger: 'manual',
          ...(ctx.host ? { host: ctx.host } : {}),
          ...(typeof args.session_id === 'string' ? { sessionId: args.session_id } : {}),
          ...(typeof args.transcript === 'string' ? { transcript: args.transcript } : {}),
        },
        deps,
      )
      const data = {
        written: r.written,
        snapshotId: r.snapshot?.id ?? null,
        snapshotFile: r.snapshotFile ?? null,
        projectRoot: r.projectRoot,
        sessionId: r.sessionId,
        transcript: r.transcript,
        bytesRead: r.stats.bytesRead,
        files: r.snapshot?.files.length ?? 0,
        notes: r.notes,
      }
      const lines = [
        r.written ? `Snapshot ${r.snapshot?.id} written for session ${r.sessionId} (${data.files} files changed).` : `No snapshot written: ${r.reason}.`,
        ...r.notes,
      ]
      return { text: lines.join('\n'), data }
    },
  },
  {
    name: 'bookmark_restore',
    title: 'What a new session would receive',
    description:
      'The text a new session of the project would receive at SessionStart for the given source (startup, clear, compact, resume, fork), within the restore budget. Read-only: nothing is written, no counter changes.',
    inputSchema: schema({
      cwd: CWD,
      source: { type: 'string', description: 'the SessionStart source (default startup)', enum: SOURCES },
      session_id: { type: 'string', description: 'the session (needed for compact and resume)' },
    }),
    annotations: { title: 'What a new session would receive', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (args, ctx) => {
      const cwd = cwdOf(args, ctx)
      const source = typeof args.source === 'string' ? args.source : 'startup'
      const hc = await hookContext(
        ctx.host ?? claudeHost,
        { cwd, source, eventName: 'SessionStart', ...(typeof args.session_id === 'string' ? { sessionId: args.session_id } : {}) },
        {},
        ctx.deps,
        cwd,
      )
      // While capture is off the SessionStart hook gives nothing, and this tool shows what it would give.
      const text = captureOff(hc.cfg.resolved, hc.sessionId) === undefined ? await restoreText(hc) : undefined
      const out = text === undefined ? '' : redact(text)
      return {
        text: out === '' ? `Nothing to restore for source ${source} in ${hc.cfg.projectRoot}.` : out,
        data: { projectRoot: hc.cfg.projectRoot, source, text: out, characters: out.length, budget: hc.cfg.resolved.config.restoreBudget },
      }
    },
  },
  {
    name: 'bookmark_status',
    title: 'Store status',
    description: "The project's bookmark store: snapshot count, the latest snapshot, sessions, narrative blocks, compactions and registry entries.",
    inputSchema: schema({ cwd: CWD }),
    annotations: { title: 'Store status', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (args, ctx) => {
      const s = await status(cwdOf(args, ctx), ctx.deps)
      const text = [
        `Project ${s.projectRoot}: ${s.snapshots} snapshots, ${s.sessions} sessions.`,
        s.latest
          ? `Latest: ${s.latest.id} (${s.latest.trigger}) ${s.latest.createdAt}${s.latest.task ? `: ${s.latest.task.slice(0, 160)}` : ''}`
          : 'No snapshot yet.',
        `Narrative blocks: ${s.narrativeBlocks}; compactions: ${s.compactions}.`,
        ...s.problems.map((p) => `Problem: ${p}`),
      ].join('\n')
      return { text, data: { ...s } }
    },
  },
  {
    name: 'bookmark_list',
    title: 'List snapshots',
    description: "Snapshots of the project, newest first; with all=true, every project's from the cross-project registry.",
    inputSchema: schema({
      cwd: CWD,
      all: { type: 'boolean', description: 'list every project (registry)' },
      limit: { type: 'integer', description: 'how many (default 10)', minimum: 1, maximum: 500 },
    }),
    annotations: { title: 'List snapshots', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (args, ctx) => {
      const limit = typeof args.limit === 'number' ? args.limit : 10
      if (args.all === true) {
        const r = await listAll(limit, ctx.deps)
        return {
          text: r.entries.length
            ? r.entries.map((e) => `${e.snapshotId} ${e.project}${e.task ? ` — ${e.task.slice(0, 80)}` : ''}`).join('\n')
            : 'No snapshots registered yet.',
          data: { all: true, total: r.total, entries: r.entries },
        }
      }
      const r = await listProject(cwdOf(args, ctx), limit, ctx.deps)
      return {
        text: r.entries.length
          ? r.entries.map((e) => `${e.id} ${e.trigger} ${e.files} files${e.task ? ` — ${e.task.slice(0, 80)}` : ''}`).join('\n')
          : `No snapshots in ${r.projectRoot} yet.`,
        data: { all: false, projectRoot: r.projectRoot, total: r.total, entries: r.entries },
      }
    },
  },
  {
    name: 'bookmark_show',
    title: 'Show a snapshot',
    description: 'One snapshot of the project (by id, else the latest) as Markdown, with its full JSON as structured content.',
    inputSchema: schema({ cwd: CWD, id: { type: 'string', description: 'snapshot id (SNAP_yyyymmdd_hhmmss_mmm_hhhh); default: the latest' } }),
    annotations: { title: 'Show a snapshot', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (args, ctx) => {
      const snap = await show(cwdOf(args, ctx), typeof args.id === 'string' ? args.id : undefined, ctx.deps)
      return { text: renderLatest(snap), data: { snapshot: snap } }
    },
  },
  {
    name: 'bookmark_export',
    title: 'Export the handoff',
    description:
      "One self-contained Markdown handoff of the project to paste into another tool or a ticket: the narrative a session wrote (when it is sealed for this project) and the latest snapshot's facts (task, last request, open tasks, changed files, last commit, unresolved errors, last assistant message), redacted. Nothing is cut unless budget is given. Read-only.",
    inputSchema: schema({
      cwd: CWD,
      budget: { type: 'integer', description: 'cut to this many characters as the restore does (default: nothing is cut)', minimum: 1, maximum: 1_000_000 },
    }),
    annotations: { title: 'Export the handoff', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (args, ctx) => {
      const e = await exportHandoff(cwdOf(args, ctx), ctx.deps, typeof args.budget === 'number' ? args.budget : undefined)
      return { text: e.text, data: { ...e } }
    },
  },
  {
    name: 'bookmark_search',
    title: 'Search past sessions',
    description:
      'Search every past session of this machine (Claude Code and Codex): user requests, replies, shell commands, file changes, commits, errors, subagent prompts, compaction summaries. Returns ranked pointers: date, project, kind, session, a one-line snippet and transcript:line; read that transcript line (or bookmark_get with the id) for the detail. For "latest", "last time", "yesterday" or "this week" questions, pass since (e.g. "1d", "7d", a date) or recent=true (newest first): relevance ranking alone does not know what is recent. Inside a project it searches that project; all=true searches every project. With project and no query, it orients on the project: its latest requests, commits, errors and compactions.',
    inputSchema: schema({
      cwd: CWD,
      query: { type: 'string', description: 'words, a file name (resume.go), an identifier, an error message; omit with project to orient on it' },
      project: {
        type: 'string',
        description: "only this project: its folder name, its repository's name (for a worktree), an alias set with `bookmark config --alias`, or its path",
      },
      all: { type: 'boolean', description: 'every project, though the server runs inside one' },
      kind: { type: 'string', description: `only these kinds, comma-separated: ${EVENT_KINDS.join(', ')}` },
      since: { type: 'string', description: 'only events since then: 12h, 1d, 7d, 2w, or a date (2025-11-02)' },
      before: { type: 'string', description: 'only events before then: a date or a duration' },
      recent: { type: 'boolean', description: 'the newest events holding every word, newest first (for "latest" questions)' },
      limit: { type: 'integer', description: 'how many hits (default 10; orientation: per section)', minimum: 1, maximum: 100 },
    }),
    annotations: { title: 'Search past sessions', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (args, ctx) => {
      const cwd = cwdOf(args, ctx)
      const opts: SearchOptions = {}
      for (const k of ['project', 'kind', 'since', 'before'] as const) if (typeof args[k] === 'string') opts[k] = args[k]
      if (args.all === true) opts.all = true
      if (args.recent === true) opts.recent = true
      if (typeof args.limit === 'number') opts.limit = args.limit
      const query = typeof args.query === 'string' ? args.query : ''
      // No query: orientation on the named project, or on the one the server runs in (as the CLI does).
      if (query.trim() === '' && (opts.project !== undefined || (!opts.all && opts.kind === undefined && !opts.recent))) {
        const o = await runOrient(opts, cwd, ctx.deps, ctx.memory)
        return { text: orientText(o), data: { ...o } }
      }
      const r = await runSearch(query, opts, cwd, ctx.deps, ctx.memory)
      const note = scopeNote(r)
      const body =
        r.hits.length === 0
          ? `No events match "${query}"${note || opts.project || opts.kind || opts.since || opts.before ? ' with these filters' : ''}.`
          : hitsText(r.hits)
      return { text: note ? `${note}\n${body}` : body, data: { ...r } }
    },
  },
  {
    name: 'bookmark_get',
    title: 'One past event in full',
    description:
      'One event found by bookmark_search, by its id (12 hex digits): its full recorded text (redacted), when, project, session, and the transcript file and line to read for more.',
    inputSchema: schema({ id: { type: 'string', description: 'the event id, as bookmark_search prints it' } }),
    annotations: { title: 'One past event in full', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (args, ctx) => {
      if (typeof args.id !== 'string') throw new InputError('bookmark_get needs id (12 hex digits, as bookmark_search prints it)')
      const e = await getEvent(args.id.trim(), ctx.deps)
      return { text: eventText(e), data: { event: e } }
    },
  },
  {
    name: 'bookmark_wrapup',
    title: 'Wrap up the session',
    description:
      'Record an end-of-session milestone for the project when the user says "wrap up" or a productive session ends: a one-line summary, the decisions taken (each with why), discoveries, open threads, and the files and commits that matter. Call it first with digest=true (records nothing): it shows what the session did (span, requests, files, commits, open tasks) from its latest snapshot; write the wrap-up from that and the conversation, then call again with summary and the lists. The wrap-up is stored in the project\'s .bookmark/, is searchable at once (bookmark_search), is shown first when orienting on the project, and is part of what the next session receives.',
    inputSchema: schema({
      cwd: CWD,
      digest: { type: 'boolean', description: 'only show the digest of the session to ground the wrap-up on; nothing is recorded' },
      summary: { type: 'string', description: 'one line: what the session achieved' },
      decisions: {
        type: 'array',
        description: 'decisions taken, each with its why',
        items: {
          type: 'object',
          properties: { decision: { type: 'string' }, why: { type: 'string' } },
          required: ['decision', 'why'],
          additionalProperties: false,
        },
        maxItems: ITEMS,
      },
      discoveries: { type: 'array', description: 'facts learned that the next session should know', items: { type: 'string' }, maxItems: ITEMS },
      open_threads: { type: 'array', description: 'what is left to do or decide', items: { type: 'string' }, maxItems: ITEMS },
      files: { type: 'array', description: 'files that matter (paths)', items: { type: 'string' }, maxItems: FILES },
      commits: { type: 'array', description: 'commits that matter: a hash, optionally followed by its subject', items: { type: 'string' }, maxItems: ITEMS },
      session_id: { type: 'string', description: "the session wrapped up (default: the project's latest snapshot's)" },
    }),
    annotations: { title: 'Wrap up the session', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: async (args, ctx) => {
      const cwd = cwdOf(args, ctx)
      const { cwd: _cwd, digest, ...rest } = args
      if (digest === true) {
        const others = Object.keys(rest).filter((k) => k !== 'session_id')
        if (others.length > 0) throw new InputError(`bookmark_wrapup: digest=true records nothing; call it without ${others.join(', ')}, then again to record`)
        const sessionId = typeof args.session_id === 'string' ? args.session_id : undefined
        const r = await wrapupDigest(cwd, sessionId, ctx.deps)
        const prev = r.previous ? `\nThe last wrap-up recorded here (${r.previous.createdAt}): ${r.previous.summary}` : ''
        return { text: `${r.digest ? digestText(r.digest) : digestNone(r, sessionId)}${prev}`, data: { ...r } }
      }
      const input = parseWrapupInput(rest, 'bookmark_wrapup')
      const r = await recordWrapup(input, cwd, ctx.deps)
      const tail = r.indexed ? `Searchable now: event ${r.eventId} (bookmark_get).` : `Not in the search index: ${r.note}`
      return { text: `${wrapupText(r.wrapup, r.file)}\n${tail}`, data: { ...r } }
    },
  },
]

export async function callTool(name: string, args: Args, ctx: ToolContext): Promise<object> {
  const tool = TOOLS.find((t) => t.name === name)!
  try {
    validate(tool, args)
    const { text, data } = await tool.run(args, ctx)
    return result(text, data, false, ctx)
  } catch (e) {
    if (isUserError(e)) {
      return result(e.message, { error: e.message }, true, ctx)
    }
    const message = `${name} failed: ${(e as Error).message}`
    return result(message, { error: message }, true, ctx)
  }
}

/** `content[0].text` is always the readable text; the data rides along as `structuredContent` where it is not read in its place. */
function result(text: string, data: Record<string, unknown>, isError: boolean, ctx: ToolContext): object {
  return { content: [{ type: 'text', text }], ...(ctx.structured === false ? {} : { structuredContent: data }), isError }
}
