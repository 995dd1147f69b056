/**
 * Large transcripts made of real ones: the sessions of ../shared/corpus/claude repeated until a size is
 * reached, each repetition re-id'd and relocated into the bench project, written as a stream (a repetition
 * at a time, so generation never holds more than one source file and a 4 MB buffer). Also the "one new
 * turn" a Stop hook sees: a real request, the Edit it led to, its result and the reply, re-id'd each time.
 *
 * What a repetition changes, consistently within itself (a fresh map of old id -> new id per repetition):
 * - every UUID (uuid, parentUuid, leafUuid, logicalParentUuid, messageId, promptId, toolUseID, ...), and
 *   the source's own session id becomes the one bench session id;
 * - API ids: message ids `msg_…`, tool_use ids `toolu_…`/`srvtoolu_…`, request ids `req_…` (same length);
 * - short hex agent and background-task ids (`agentId`, `task_id`, ...);
 * - the source session's project folder (its first main-thread cwd) becomes the bench project folder,
 *   wherever it appears (cwd, file paths, commands, tool output), so file paths fall inside the project;
 * - timestamps are shifted so the repetitions follow each other in time and the transcript ends an hour
 *   before the run (one long session, going forward).
 * Windows sessions (cwd like `D:\oh-my-posh`) are left out: their backslash paths cannot be relocated onto
 * a POSIX project folder, and the bench says so.
 *
 * A "whole" transcript (`buildTranscript(…, { whole: true })`, for the first captures) is the corpus as it is:
 * every session, Windows ones included (their paths stay where they were), each repetition a session whole
 * (the file ends at the end of one) with its own fresh session id, the same ids renewed and the POSIX
 * sessions' project folders moved into the project.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { closeSync, existsSync, openSync, readFileSync, readdirSync, writeSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'

const UUID_SRC = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
const API_ID_SRC = '\\b(?:srvtoolu|toolu|msg|req)_[A-Za-z0-9]{12,}'
const UUID = new RegExp(`^${UUID_SRC}$`)
const API_ID = /^(srvtoolu|toolu|msg|req)_/
/** Fields whose short hex values are ids (agents, background tasks); TaskCreate's numeric ids stay. */
const SHORT_ID_KEYS = new Set(['agentId', 'resumedAgentId', 'task_id', 'taskId'])
const SHORT_ID = /^[0-9a-f]{7,17}$/
const TIMESTAMP = /"timestamp":"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)"/g
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const FLUSH_BYTES = 4 << 20

export function corpusDir(repoRoot, env = process.env) {
  return env.BOOKMARK_CORPUS ? resolve(env.BOOKMARK_CORPUS) : resolve(repoRoot, '..', 'shared', 'corpus')
}

/** A folder of a Windows session: `D:\repo`, `C:/repo`, or any path with a backslash. */
export function isWindowsPath(p) {
  return /^[A-Za-z]:[\\/]/.test(p) || p.includes('\\')
}

/** The text of a path inside a JSON string. */
function jsonEscaped(s) {
  return JSON.stringify(s).slice(1, -1)
}

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function collectShortIds(v, out) {
  if (Array.isArray(v)) {
    for (const x of v) collectShortIds(x, out)
  } else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (SHORT_ID_KEYS.has(k) && typeof x === 'string' && SHORT_ID.test(x)) out.add(x)
      else collectShortIds(x, out)
    }
  }
}

/** What repeating one corpus file needs: its project folder, session ids, short ids, time span and size. */
export function describeSource(path) {
  const text = readFileSync(path, 'utf8')
  const source = {
    name: basename(path),
    path,
    bytes: Buffer.byteLength(text),
    root: undefined,
    sessionIds: new Set(),
    shortIds: new Set(),
    minTs: Infinity,
    maxTs: -Infinity,
    lines: 0,
  }
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    source.lines++
    let o
    try {
      o = JSON.parse(line)
    } catch {
      continue // repeated as it is: the CLI must skip it, as it skips it in the original
    }
    if (o === null || typeof o !== 'object') continue
    if (source.root === undefined && typeof o.cwd === 'string' && o.isSidechain !== true) source.root = o.cwd
    if (typeof o.sessionId === 'string') source.sessionIds.add(o.sessionId)
    const ts = typeof o.timestamp === 'string' ? Date.parse(o.timestamp) : Number.NaN
    if (Number.isFinite(ts)) {
      source.minTs = Math.min(source.minTs, ts)
      source.maxTs = Math.max(source.maxTs, ts)
    }
    collectShortIds(o, source.shortIds)
  }
  return source
}

/** Whether a session's project folder can be moved into the bench project (a POSIX path). */
function relocatable(source) {
  return source.root !== undefined && !isWindowsPath(source.root)
}

/**
 * The corpus files (sorted by name): `sources`, the ones that can be relocated (the hook cases' transcripts),
 * `skipped`, the others with the reason, and `whole`, all of them (the first captures' transcripts).
 */
export function loadSources(dir) {
  const claude = join(dir, 'claude')
  if (!existsSync(claude)) return { sources: [], skipped: [], whole: [], missing: claude }
  const whole = readdirSync(claude)
    .filter((n) => n.endsWith('.jsonl'))
    .sort()
    .map((name) => describeSource(join(claude, name)))
  const sources = whole.filter(relocatable)
  const skipped = whole
    .filter((s) => !relocatable(s))
    .map(({ name, root }) => ({
      name,
      reason: root === undefined ? 'no working directory to relocate' : `Windows paths (${root}) cannot be relocated onto a POSIX project`,
    }))
  return { sources, skipped, whole }
}

function randomChars(n, alphabet) {
  const bytes = randomBytes(n)
  let out = ''
  for (let i = 0; i < n; i++) out += alphabet[bytes[i] % alphabet.length]
  return out
}

/** A new id of the same kind and length as `old`. */
function freshId(old) {
  if (UUID.test(old)) return randomUUID()
  const api = API_ID.exec(old)
  if (api) return api[0] + randomChars(old.length - api[0].length, BASE62)
  return randomChars(old.length, '0123456789abcdef')
}

/**
 * The line transform of one repetition of `source`: every id renewed (one map for the whole repetition,
 * so references stay consistent), the session id set, the project folder moved (unless it cannot be, or
 * `projectDir` is undefined), timestamps shifted.
 */
export function repetition(source, { sessionId, projectDir, offsetMs = 0 }) {
  const ids = new Map([...source.sessionIds].map((s) => [s, sessionId]))
  const short = [...source.shortIds].sort((a, b) => b.length - a.length)
  const idRe = new RegExp([UUID_SRC, API_ID_SRC, ...(short.length > 0 ? [`\\b(?:${short.join('|')})\\b`] : [])].join('|'), 'g')
  const move = projectDir !== undefined && relocatable(source)
  const rootRe = move ? new RegExp(`${escapeRe(jsonEscaped(source.root))}(?![A-Za-z0-9_.-])`, 'g') : undefined
  const to = move ? jsonEscaped(projectDir) : undefined
  const renew = (old) => {
    let id = ids.get(old)
    if (id === undefined) {
      id = freshId(old)
      ids.set(old, id)
    }
    return id
  }
  const shift = (_, ts) => `"timestamp":"${new Date(Date.parse(ts) + offsetMs).toISOString()}"`
  return (line) => {
    let out = line.replace(idRe, renew)
    if (rootRe) out = out.replace(rootRe, () => to)
    if (offsetMs !== 0) out = out.replace(TIMESTAMP, shift)
    return out
  }
}

/** The bytes `source` takes once relocated into `projectDir` (ids keep their length; blank lines go). */
function relocatedBytes(source, projectDir) {
  const transform = repetition(source, { sessionId: randomUUID(), projectDir, offsetMs: 1 })
  let n = 0
  for (const raw of readFileSync(source.path, 'utf8').split('\n')) if (raw.trim() !== '') n += Buffer.byteLength(transform(raw)) + 1
  return n
}

/** The sources in order, cycled, until their relocated sizes add up to `targetBytes`. */
function plan(sources, targetBytes, projectDir) {
  const sizes = new Map()
  const seq = []
  let total = 0
  for (let i = 0; total < targetBytes; i++) {
    const s = sources[i % sources.length]
    if (!sizes.has(s)) sizes.set(s, relocatedBytes(s, projectDir))
    seq.push(s)
    total += sizes.get(s)
  }
  return seq
}

/** The last main-thread line's uuid and the last assistant text, from the tail of the written lines. */
function chainEnd(tail) {
  let lastUuid
  let lastAssistantText
  for (let i = tail.length - 1; i >= 0 && (lastUuid === undefined || lastAssistantText === undefined); i--) {
    let o
    try {
      o = JSON.parse(tail[i])
    } catch {
      continue
    }
    if (o?.isSidechain === true) continue
    if (lastUuid === undefined && typeof o?.uuid === 'string') lastUuid = o.uuid
    if (lastAssistantText === undefined && o?.type === 'assistant' && Array.isArray(o.message?.content)) {
      const text = o.message.content.find((c) => c?.type === 'text' && typeof c.text === 'string' && c.text.trim() !== '')
      if (text) lastAssistantText = text.text
    }
  }
  return { lastUuid, lastAssistantText }
}

/**
 * Writes a transcript of at least `targetBytes` (cut at the first line end past it) to `path`: repetitions
 * of `sources` for session `sessionId` in `projectDir`. Returns its size, lines and repetitions (each with
 * its source, session id and line range), the last main-thread uuid (to chain new turns to) and last
 * assistant text. With `whole`, no session is cut (the file ends with the repetition that reached the size)
 * and each repetition gets a session id of its own (`sessionId` is ignored).
 */
export function buildTranscript(path, { sources, targetBytes, projectDir, sessionId, whole = false, now = Date.now(), gapMs = 60_000 }) {
  const seq = plan(sources, targetBytes, projectDir)
  const span = (s) => (Number.isFinite(s.minTs) ? s.maxTs - s.minTs : 0)
  let start = now - 3_600_000 - seq.reduce((sum, s) => sum + span(s) + gapMs, 0)
  const fd = openSync(path, 'w', 0o600)
  let chunk = []
  let chunkBytes = 0
  let bytes = 0
  let lines = 0
  const repetitions = []
  let tail = []
  const flush = () => {
    if (chunk.length > 0) writeSync(fd, chunk.join(''))
    chunk = []
    chunkBytes = 0
  }
  try {
    for (const s of seq) {
      const sid = whole ? randomUUID() : sessionId
      const transform = repetition(s, { sessionId: sid, projectDir, offsetMs: Number.isFinite(s.minTs) ? start - s.minTs : 0 })
      const rep = { source: s.name, sessionId: sid, firstLine: lines, lines: 0 }
      repetitions.push(rep)
      for (const raw of readFileSync(s.path, 'utf8').split('\n')) {
        if (raw.trim() === '') continue
        const line = `${transform(raw)}\n`
        const n = Buffer.byteLength(line)
        chunk.push(line)
        chunkBytes += n
        bytes += n
        lines++
        rep.lines++
        tail.push(line)
        if (tail.length > 400) tail = tail.slice(-200)
        if (chunkBytes >= FLUSH_BYTES) flush()
        if (!whole && bytes >= targetBytes) break
      }
      if (bytes >= targetBytes) break
      start += span(s) + gapMs
    }
    flush()
  } finally {
    closeSync(fd)
  }
  if (bytes < targetBytes) throw new Error(`generated ${bytes} bytes of the ${targetBytes} planned for ${path}`)
  return { path, sessionId, projectDir, bytes, lines, repetitions, ...chainEnd(tail) }
}

function contentOf(o) {
  return Array.isArray(o?.message?.content) ? o.message.content : []
}

/** A request the user typed: not meta, not a command wrapper, not a tool result or compact summary. */
function isPrompt(o) {
  if (o?.type !== 'user' || o.isSidechain === true || o.isMeta === true || o.isCompactSummary === true) return false
  const c = o.message?.content
  if (typeof c === 'string') return c.trim() !== '' && !c.trimStart().startsWith('<')
  return Array.isArray(c) && c.length > 0 && c.every((b) => b?.type === 'text' && typeof b.text === 'string' && !b.text.trimStart().startsWith('<'))
}

/**
 * The template of "one new turn": the first place in the corpus where a typed request is followed by an
 * Edit or Write inside the project, its successful result and a text reply (other lines in between are
 * dropped), at most 16 KB. Returns the four parsed lines and the source they came from.
 */
export function findTurn(sources) {
  for (const s of sources) {
    const lines = readFileSync(s.path, 'utf8')
      .split('\n')
      .map((l) => {
        try {
          return JSON.parse(l)
        } catch {
          return undefined
        }
      })
    for (let i = 0; i < lines.length; i++) {
      if (!isPrompt(lines[i])) continue
      let tool
      let result
      for (let j = i + 1; j < lines.length && !isPrompt(lines[j]); j++) {
        const o = lines[j]
        if (o?.isSidechain === true) continue
        if (!tool && o?.type === 'assistant') {
          const use = contentOf(o).find(
            (b) => b?.type === 'tool_use' && (b.name === 'Edit' || b.name === 'Write') && String(b.input?.file_path ?? '').startsWith(`${s.root}/`),
          )
          if (use) tool = { line: o, id: use.id }
        } else if (
          tool &&
          !result &&
          o?.type === 'user' &&
          o.toolUseResult &&
          contentOf(o).some((b) => b?.type === 'tool_result' && b.tool_use_id === tool.id && b.is_error !== true)
        ) {
          result = o
        } else if (result && o?.type === 'assistant' && contentOf(o).some((b) => b?.type === 'text' && typeof b.text === 'string' && b.text.trim() !== '')) {
          const turn = [lines[i], tool.line, result, o]
          if (turn.reduce((n, x) => n + JSON.stringify(x).length, 0) <= 16_384) return { source: s, lines: turn }
          break
        }
      }
    }
  }
  return undefined
}

/**
 * One new turn as JSONL text, for session `sessionId` in `projectDir`: fresh ids every call, chained after
 * `parentUuid`, timestamps one second apart from `at`. Returns the text, its last uuid and its reply.
 */
export function newTurn(turn, { sessionId, projectDir, parentUuid, at = Date.now() }) {
  const lines = structuredClone(turn.lines)
  lines.forEach((o, i) => {
    if (i > 0) o.parentUuid = lines[i - 1].uuid
    o.timestamp = new Date(at + i * 1000).toISOString()
  })
  if ('sourceToolAssistantUUID' in lines[2]) lines[2].sourceToolAssistantUUID = lines[1].uuid
  const transform = repetition(turn.source, { sessionId, projectDir })
  const out = lines.map((o) => JSON.parse(transform(JSON.stringify(o))))
  out[0].parentUuid = parentUuid ?? null
  const reply = contentOf(out[3]).find((b) => b?.type === 'text')
  return { text: out.map((o) => `${JSON.stringify(o)}\n`).join(''), lastUuid: out[3].uuid, lastAssistantText: reply?.text }
}
