/**
 * `bookmark explorer`: a read-only page over the events log and the stores, served by node:http on 127.0.0.1.
 * Guards (../shared/docs/search-notes.md, "Explorer page"): a one-time 128-bit token traded for an HttpOnly
 * SameSite=Strict cookie, Host pinned to this port (DNS rebinding), foreign Origin and cross-site fetches refused,
 * GET/HEAD only, a strict CSP, ids (never paths) as handles.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type SearchCache, parseKinds, readyIndex, runSearch } from '../memory/commands.js'
import { memoryLayout } from '../memory/log.js'
import type { SearchEvent } from '../memory/events.js'
import type { Hit } from '../memory/query.js'
import { readdir } from '../shared/fsp.js'
import type { Deps } from '../shared/deps.js'
import { isUserError } from '../shared/errors.js'
import { StoreReader } from '../store/reader.js'
import { Catalogue, ID, type SessionInfo } from './model.js'
import { continuityOf } from './continuity.js'
import { freshFor, handoffOf, storeRootOf } from './handoff.js'
import { APP_CSS, APP_JS, PAGE_HTML } from './page.js'

export const IDLE_MS = 30 * 60_000
const COOKIE = 'bm_explorer'
export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

export interface ExplorerOptions {
  deps: Deps
  port?: number
  idleMs?: number
}

export interface Explorer {
  url: string
  port: number
  server: Server
  /** Settles when the server has stopped (idle time-out or close()). */
  closed: Promise<void>
  close: () => Promise<void>
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

const same = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

function cookieOf(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=')
    if (k === COOKIE) return v.join('=')
  }
  return undefined
}

export async function startExplorer(opts: ExplorerOptions): Promise<Explorer> {
  const { deps } = opts
  let token: string | undefined = randomBytes(16).toString('hex')
  const secret = randomBytes(32).toString('hex')
  const m = memoryLayout(deps.bookmarkHome)
  const catalogue = new Catalogue(m)
  const cache: SearchCache = {}
  let port = 0
  let stop: () => void = () => undefined
  const closed = new Promise<void>((resolve) => (stop = resolve))

  /** Catches up as `bookmark search` does, then reads the log on. */
  const ready = async (): Promise<void> => {
    if ((await readdir(m.dir).catch(() => undefined)) === undefined) return
    await readyIndex(m, deps, cache)
    await catalogue.refresh()
  }

  const headers = (res: ServerResponse, type: string): void => {
    res.setHeader('Content-Type', type)
    res.setHeader('Content-Security-Policy', CSP)
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader('Referrer-Policy', 'no-referrer')
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin')
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin')
    res.setHeader('X-Frame-Options', 'DENY')
    res.setHeader('Cache-Control', 'no-store')
  }
  const send = (req: IncomingMessage, res: ServerResponse, status: number, type: string, body: string): void => {
    headers(res, type)
    res.statusCode = status
    res.setHeader('Content-Length', Buffer.byteLength(body))
    res.end(req.method === 'HEAD' ? undefined : body)
  }
  const json = (req: IncomingMessage, res: ServerResponse, value: unknown, status = 200): void =>
    send(req, res, status, 'application/json; charset=utf-8', JSON.stringify(value))

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const host = req.headers.host ?? ''
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) throw new HttpError(403, 'this host is not the explorer')
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`)
    const origin = req.headers.origin
    if (origin !== undefined && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) throw new HttpError(403, 'foreign origin')
    // same-site covers another port of 127.0.0.1, which a SameSite cookie does not tell apart: refused too.
    const site = req.headers['sec-fetch-site']
    if (site === 'cross-site' || site === 'same-site') throw new HttpError(403, 'cross-site request')
    const given = url.searchParams.get('token')
    if (given !== null && url.pathname === '/' && req.method === 'GET') {
      if (token === undefined || !same(given, token)) throw new HttpError(403, 'this token is not valid (it works once)')
      token = undefined
      res.setHeader('Set-Cookie', `${COOKIE}=${secret}; HttpOnly; SameSite=Strict; Path=/`)
      res.setHeader('Location', '/')
      send(req, res, 303, 'text/plain; charset=utf-8', 'see /')
      return
    }
    const cookie = cookieOf(req)
    if (cookie === undefined) throw new HttpError(401, 'open the address that `bookmark explorer` printed')
    if (!same(cookie, secret)) throw new HttpError(403, 'this cookie is not the explorer’s')
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD')
      throw new HttpError(405, 'the explorer only reads')
    }
    // The raw path, before URL() folds `..` away: a dot-segment or a path inside an id is a path, never an id.
    const raw = (req.url ?? '/').split('?')[0]!.split('/').slice(1)
    if (raw.some((seg) => /^\.\.?$|%2e%2e|%2f|%5c|\\/i.test(seg))) throw new HttpError(400, 'not an id (12 hex digits; never a path)')
    const parts = url.pathname.split('/').slice(1)
    if (parts[0] !== 'api') {
      if (url.pathname === '/') return send(req, res, 200, 'text/html; charset=utf-8', PAGE_HTML)
      if (url.pathname === '/app.js') return send(req, res, 200, 'text/javascript; charset=utf-8', APP_JS)
      if (url.pathname === '/app.css') return send(req, res, 200, 'text/css; charset=utf-8', APP_CSS)
      throw new HttpError(404, 'no such page')
    }
    return json(req, res, await api(parts.slice(1), url.searchParams))
  }

  const idOf = (raw: string | undefined): string => {
    let id: string
    try {
      id = decodeURIComponent(raw ?? '')
    } catch {
      throw new HttpError(400, 'not an id')
    }
    if (!ID.test(id)) throw new HttpError(400, 'not an id (12 hex digits; never a path)')
    return id
  }

  const sessionView = async (s: SessionInfo): Promise<Record<string, unknown>> => {
    const p = catalogue.project(s.projectId)
    const out: Record<string, unknown> = { ...s, project: p?.name ?? '', wrapUp: await catalogue.wrapUp(s.id), lastReply: await catalogue.lastReply(s.id) }
    if (!p) return out
    const handoff = await handoffOf(deps.bookmarkHome, p.path)
    out.handoff = { ...handoff, fresh: freshFor(handoff, s.last) }
    // Narrative blocks and compactions of this session, when a store of its project captured it.
    const root = await storeRootOf(deps.bookmarkHome, p.path)
    if (root !== undefined) {
      const hooks = await new StoreReader(root, deps.bookmarkHome).readSessionHooks(s.session).catch(() => undefined)
      if (hooks && (hooks.compactions > 0 || hooks.blocks > 0 || hooks.lastBlockAt !== undefined))
        out.store = { compactions: hooks.compactions, narrativeBlocks: hooks.blocks, lastBlockAt: hooks.lastBlockAt ?? null }
    }
    return out
  }

  const api = async (route: string[], q: URLSearchParams): Promise<unknown> => {
    await ready()
    const [what, rawId, sub, ...rest] = route
    // An id is checked before the route: `/api/sessions/../x` is a path in an id, not an unknown route.
    if ((what === 'projects' || what === 'sessions') && rawId !== undefined) idOf(rawId)
    if (rest.length > 0) throw new HttpError(404, 'no such route')
    if (what === 'projects' && rawId === undefined) return catalogue.projectList()
    if (what === 'projects' && (sub === 'sessions' || sub === 'continuity' || sub === undefined)) {
      const p = catalogue.project(idOf(rawId))
      if (!p) throw new HttpError(404, 'no such project')
      if (sub === undefined) return p
      if (sub === 'sessions') {
        const handoff = await handoffOf(deps.bookmarkHome, p.path)
        const out = []
        for (const s of catalogue.sessionsOf(p.id))
          out.push({
            ...s,
            wrapUp: await catalogue.wrapUp(s.id, 240),
            lastReply: await catalogue.lastReply(s.id, 240),
            handoffFresh: freshFor(handoff, s.last),
          })
        return out
      }
      return continuityOf(deps.bookmarkHome, p.path)
    }
    if (what === 'sessions' && (sub === undefined || sub === 'events')) {
      const s = catalogue.session(idOf(rawId))
      if (!s) throw new HttpError(404, 'no such session')
      if (sub === undefined) return sessionView(s)
      return ((await catalogue.events(s.id)) ?? []).map((e) => shown(e, s.id))
    }
    if (what === 'search' && rawId === undefined) return searchApi(q)
    throw new HttpError(404, 'no such route')
  }

  const searchApi = async (q: URLSearchParams): Promise<unknown> => {
    const query = (q.get('q') ?? '').trim()
    if (query === '') return []
    const opts: Parameters<typeof runSearch>[1] = { all: true, limit: 50 }
    const project = q.get('project')
    if (project) {
      const p = catalogue.project(idOf(project))
      if (!p) throw new HttpError(404, 'no such project')
      delete opts.all
      opts.project = p.path
    }
    const kind = q.get('kind')
    if (kind) opts.kind = parseKinds(kind).join(',')
    for (const k of ['since', 'before'] as const) {
      const v = q.get(k)
      if (v) opts[k] = v
    }
    if (q.get('recent') === '1') opts.recent = true
    const limit = Number(q.get('limit') ?? '50')
    if (Number.isInteger(limit) && limit > 0 && limit <= 200) opts.limit = limit
    const r = await runSearch(query, opts, deps.bookmarkHome, deps, cache)
    await catalogue.refresh()
    return r.hits.map((h) => hitShown(h, catalogue.sessionIdOf(h.host, h.session)))
  }

  const server = createServer((req, res) => {
    idle.refresh()
    handle(req, res).catch((e: unknown) => {
      const status = e instanceof HttpError ? e.status : isUserError(e) ? 400 : 500
      const message = e instanceof Error ? e.message : String(e)
      if (status === 500) deps.log(`explorer: ${message}`)
      if (!res.headersSent) json(req, res, { error: status === 500 ? 'the explorer failed on this request' : message }, status)
      else res.end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve())
  })
  port = (server.address() as AddressInfo).port
  const close = async (): Promise<void> => {
    clearTimeout(idle)
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    stop()
  }
  // Requests come only after listen() resolved and this line ran: refresh() never meets it unset.
  const idle = setTimeout(() => void close(), opts.idleMs ?? IDLE_MS)
  return { url: `http://127.0.0.1:${port}/?token=${token}`, port, server, closed, close }
}

/** An event as the page gets it: no transcript path, the session by its explorer id. */
function shown(e: SearchEvent, sessionId: string): Record<string, unknown> {
  const { transcript: _t, line, ...rest } = e
  return { ...rest, line, sessionId }
}

function hitShown(h: Hit, sessionId: string | undefined): Record<string, unknown> {
  const { transcript: _t, ...rest } = h
  return { ...rest, sessionId: sessionId ?? null }
}
