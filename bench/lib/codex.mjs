/**
 * The bench's Codex CLI world and cases (issue 19: the hook latency goals hold for the Codex hooks too).
 *
 * - A world as world.mjs makes it, plus CODEX_HOME, with the session's rollout where Codex writes it
 *   (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`).
 * - The rollout is made of the real ones in ../shared/corpus (codex/: 0.140 to 0.142, host-samples/: 0.171): one
 *   `session_meta` of the bench session, then the sources' records (their own session_meta left out) repeated
 *   until the size is reached, each source's folder moved into the project.
 * - "One new turn" is the real 0.171 turn of host-samples/…-rollout-2-patch-file.jsonl (a request, an apply_patch,
 *   its FileChange and output, token counts, the reply), without the session's instructions and environment
 *   records, every id renewed and its times now.
 * - The cases run through run.mjs's hookCase, restoreCase and stopTurnCase with Codex's payloads and the hook line
 *   setup writes for Codex (`… <hook> --host codex`).
 */
import { randomUUID } from 'node:crypto'
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { captureOnce } from './capture.mjs'
import { writeNarrative } from './history.mjs'
import { BenchError, nodeCommand, runShell } from './measure.mjs'
import { checkHookRun, stateDirOf, world } from './world.mjs'

export const CODEX_ARGS = ['--host', 'codex']
const MiB = 2 ** 20
const TURN_SOURCE = 'codex-0.171-exec-rollout-2-patch-file.jsonl'
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g
/** The sample's API-style ids (`call_fake_3`, `ctc_3`, `msg_fake_4`, `resp_fake_3` …). */
const API_ID = /\b(call_fake|ctc|ctco|msg_fake|resp_fake|fc)_\d+\b/g

const jsonLines = (path) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')

/** The corpus rollouts, each with the folder its session ran in (from its session_meta). */
export function codexSources(corpus) {
  const files = [
    ...['codex', 'host-samples'].flatMap((d) =>
      existsSync(join(corpus, d))
        ? readdirSync(join(corpus, d))
            .filter((n) => /^codex-.*rollout.*\.jsonl$|^codex-0\.14.*\.jsonl$/.test(n))
            .sort()
            .map((n) => join(corpus, d, n))
        : [],
    ),
  ]
  return files.flatMap((path) => {
    const first = JSON.parse(jsonLines(path)[0] ?? '{}')
    const cwd = first.type === 'session_meta' ? first.payload?.cwd : undefined
    return typeof cwd === 'string' && cwd.startsWith('/') ? [{ path, cwd }] : []
  })
}

/** A world for a Codex session: world.mjs's, with CODEX_HOME and the rollout path; no CLAUDE_PROJECT_DIR (Codex sets none). */
export function codexWorld(root, name) {
  const w = world(root, name)
  const codexHome = join(w.home, '.codex')
  const day = join(codexHome, 'sessions', '2026', '12', '02')
  mkdirSync(day, { recursive: true })
  const env = { ...w.env, CODEX_HOME: codexHome }
  delete env.CLAUDE_PROJECT_DIR
  return { ...w, env, transcript: join(day, `rollout-2026-12-02T01-00-00-${w.sessionId}.jsonl`) }
}

/** The source's folder moved into the project, as raw text and inside JSON strings. */
const relocate = (text, from, to) => text.split(from).join(to)

/** The bench rollout: this session's session_meta, then the sources' records until `targetBytes`. */
export function buildRollout(path, { sources, targetBytes, projectDir, sessionId }) {
  const meta = {
    timestamp: new Date(Date.now() - 3_600_000).toISOString(),
    ordinal: 0,
    type: 'session_meta',
    payload: {
      id: sessionId,
      session_id: sessionId,
      cwd: projectDir,
      cli_version: '0.171.0',
      originator: 'codex-tui',
      source: 'cli',
      model_provider: 'openai',
    },
  }
  const fd = openSync(path, 'w')
  let bytes = 0
  let lines = 0
  const write = (text) => {
    bytes += writeSync(fd, text)
  }
  try {
    write(`${JSON.stringify(meta)}\n`)
    lines++
    for (let round = 0; bytes < targetBytes; round++) {
      for (const s of sources) {
        const body = jsonLines(s.path).slice(1)
        write(`${relocate(body.join('\n'), s.cwd, projectDir)}\n`)
        lines += body.length
        if (bytes >= targetBytes) break
      }
      if (round > 10_000) throw new BenchError('the Codex sources add no bytes')
    }
  } finally {
    closeSync(fd)
  }
  return { path, bytes, lines }
}

/** The real turn of the 0.171 sample, as its lines and the folder and session it ran in. */
export function loadCodexTurn(corpus) {
  const path = join(corpus, 'host-samples', TURN_SOURCE)
  if (!existsSync(path)) return undefined
  const all = jsonLines(path)
  const meta = JSON.parse(all[0]).payload
  const lines = all.slice(1).filter((l) => {
    const r = JSON.parse(l)
    if (r.type === 'world_state') return false
    if (r.type === 'event_msg' && r.payload?.type === 'thread_settings_applied') return false
    const p = r.type === 'response_item' ? r.payload : undefined
    return !(p?.type === 'message' && (p.role === 'developer' || /^<environment_context>/.test(p.content?.[0]?.text ?? '')))
  })
  return { lines, cwd: meta.cwd, sessionId: meta.id }
}

/** One new turn of `turn`: every id renewed, the session and folder the bench's, times from `at`, a second apart. */
export function newCodexTurn(turn, { sessionId, projectDir, at = Date.now() }) {
  const ids = new Map([[turn.sessionId, sessionId]])
  const renew = (id, fresh) => {
    if (!ids.has(id)) ids.set(id, fresh())
    return ids.get(id)
  }
  const suffix = randomUUID().slice(0, 8)
  let reply
  const text = turn.lines
    .map((l, i) => {
      const r = JSON.parse(
        relocate(l, turn.cwd, projectDir)
          .replace(UUID, (u) => renew(u, randomUUID))
          .replace(API_ID, (id) => renew(id, () => `${id}_${suffix}`)),
      )
      r.timestamp = new Date(at + i * 1000).toISOString()
      const item = r.type === 'event_msg' && r.payload?.type === 'item_completed' ? r.payload.item : undefined
      if (item?.type === 'AgentMessage') reply = item.content?.[0]?.text
      return `${JSON.stringify(r)}\n`
    })
    .join('')
  return { text, lastAssistantText: reply }
}

/** The Stop payload Codex 0.171 sends (host-samples hook log). */
export function codexStopPayload(w, lastAssistantMessage) {
  return {
    session_id: w.sessionId,
    turn_id: randomUUID(),
    transcript_path: w.transcript,
    cwd: w.project,
    hook_event_name: 'Stop',
    model: 'gpt-5.5',
    permission_mode: 'default',
    stop_hook_active: false,
    last_assistant_message: lastAssistantMessage ?? null,
  }
}

/** A new Codex session's SessionStart: Codex names a rollout that may not be written yet. */
export function codexStartPayload(w) {
  return {
    session_id: randomUUID(),
    transcript_path: null,
    cwd: w.project,
    hook_event_name: 'SessionStart',
    model: 'gpt-5.5',
    permission_mode: 'default',
    source: 'startup',
  }
}

/**
 * The Codex cases: a Stop with nothing new, a SessionStart restore (the answer the last Stop prepared), a Stop
 * after one new turn; on a rollout of `smallMb`, first captured (untimed) as its first Stop would, with a fresh
 * handoff written in a turn a Stop captured. The case functions are run.mjs's.
 */
export function codexCases(ctx, { hookCase, restoreCase, stopTurnCase, unchangedIndex, size, budget }) {
  const { s } = ctx
  const sources = codexSources(s.corpus)
  const turn = loadCodexTurn(s.corpus)
  if (sources.length === 0 || !turn) throw new BenchError(`no Codex rollouts in ${s.corpus} (codex/, host-samples/${TURN_SOURCE})`)
  const w = codexWorld(ctx.root, 'codex')
  ctx.progress(`generating the Codex rollout (${s.smallMb} MB) in ${w.transcript}`)
  const gen = buildRollout(w.transcript, { sources, targetBytes: s.smallMb * MiB, projectDir: w.project, sessionId: w.sessionId })
  captureOnce(ctx, w, gen, 'first capture of the Codex rollout')
  const name = `${size(gen.bytes)} rollout`

  // The turn in which the model wrote the handoff, and the Stop that captured it and prepared the next restore.
  const handoffTurn = newCodexTurn(turn, { sessionId: w.sessionId, projectDir: w.project, at: Date.now() - 20_000 })
  appendFileSync(w.transcript, handoffTurn.text)
  writeNarrative(w.project, { sessionId: w.sessionId, branch: w.branch, head: w.head, bookmarkHome: w.env.BOOKMARK_HOME })
  const payload = join(w.dir, 'payload-codex-handoff-turn.json')
  writeFileSync(payload, JSON.stringify(codexStopPayload(w, handoffTurn.lastAssistantText)))
  const stop = runShell(nodeCommand([s.bin, 'stop', ...CODEX_ARGS], { stdin: payload }), {
    env: { ...w.env, BOOKMARK_MAX_NARRATIVE_BLOCKS: '0' },
    cwd: w.project,
  })
  checkHookRun('Codex stop (the turn that wrote the handoff)', 'stop', stop)
  const prepared = join(stateDirOf(w), 'restore.prepared.json')
  if (!existsSync(prepared)) throw new BenchError(`Codex stop (the turn that wrote the handoff): no ${prepared} written`)

  hookCase(ctx, {
    id: 'codex-stop-idle',
    label: `Codex stop, nothing new (${name})`,
    w,
    hook: 'stop',
    args: CODEX_ARGS,
    payload: codexStopPayload(w, handoffTurn.lastAssistantText),
    expect: (r) => {
      if (r.stdout.trim() !== '') throw new BenchError(`Codex stop, nothing new: printed ${r.stdout.slice(0, 120)}`)
    },
    after: unchangedIndex('Codex stop, nothing new', w),
  })
  restoreCase(ctx, {
    id: 'codex-restore',
    label: `Codex restore, startup (${name})`,
    w,
    budget,
    args: CODEX_ARGS,
    payload: codexStartPayload(w),
    note: 'the answer the last capture prepared, after the line saying it supersedes earlier ones',
    after: () => {
      if (!existsSync(prepared)) throw new BenchError(`Codex restore, startup: ${prepared} is gone: this case measures the prepared answer`)
    },
  })
  stopTurnCase(ctx, w, {
    id: 'codex-stop-turn',
    label: `Codex stop, one new turn on ${size(gen.bytes)}`,
    args: CODEX_ARGS,
    nextTurn: () => newCodexTurn(turn, { sessionId: w.sessionId, projectDir: w.project }),
    payload: (reply) => codexStopPayload(w, reply),
  })
  return gen.bytes
}
