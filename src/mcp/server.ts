/**
 * The MCP server behind `bookmark mcp`: lifecycle (initialize, version negotiation, ping), tools/list and
 * tools/call over the line protocol. Logs go to stderr; stdout carries only protocol messages.
 */
import type { Readable, Writable } from 'node:stream'
import type { Deps } from '../shared/deps.js'
import { INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, RpcError, type RpcHandler, handleLine } from './protocol.js'
import { TOOLS, callTool } from './tools.js'
import type { SearchCache } from '../memory/commands.js'
import type { Host } from '../hosts/host.js'

export const SUPPORTED_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const
export const LATEST_VERSION = SUPPORTED_VERSIONS[0]

export interface ServerOptions {
  deps: Deps
  cwd: string
  version: string
  input: Readable
  output: Writable
  log: (m: string) => void
  /** The agent that started the server (`bookmark mcp --host gemini`): whose sessions bookmark_snapshot captures. */
  host?: Host
}

/**
 * Clients (by `clientInfo.name`) that hand their model `JSON.stringify(structuredContent)` instead of
 * `content` whenever a result has both. Claude Code does (anthropics/claude-code#54450, #55677, #79944:
 * with or without an outputSchema, the content text never reaches the model; an error result shows the
 * text). The MCP spec makes `structuredContent` optional for a tool without an `outputSchema` (ours declare
 * none), so these clients get the readable text alone: otherwise `bookmark_show` hands the model 2,806
 * characters of JSON instead of its 896 characters of Markdown. Every other client (the SDK's, which
 * passes both through) gets both.
 */
export const TEXT_ONLY_CLIENTS: readonly string[] = ['claude-code']

export function wantsStructured(clientInfo: unknown): boolean {
  const name = typeof clientInfo === 'object' && clientInfo !== null ? (clientInfo as { name?: unknown }).name : undefined
  return !(typeof name === 'string' && TEXT_ONLY_CLIENTS.includes(name.trim().toLowerCase()))
}

export function negotiate(requested: unknown): string {
  return typeof requested === 'string' && (SUPPORTED_VERSIONS as readonly string[]).includes(requested) ? requested : LATEST_VERSION
}

export function createHandler(o: Omit<ServerOptions, 'input' | 'output'>): RpcHandler & { initialized: () => boolean } {
  let initialized = false
  let structured = true
  // The search index stays open between calls (reopened when its manifest changes).
  const memory: SearchCache = {}
  return {
    initialized: () => initialized,
    notification(method) {
      if (method === 'notifications/initialized') initialized = true
    },
    async request(method, params) {
      const p = (typeof params === 'object' && params !== null && !Array.isArray(params) ? params : {}) as Record<string, unknown>
      switch (method) {
        case 'initialize':
          initialized = true
          structured = wantsStructured(p.clientInfo)
          return {
            protocolVersion: negotiate(p.protocolVersion),
            capabilities: { tools: { listChanged: false } },
            serverInfo: { name: 'session-bookmark', title: 'session-bookmark', version: o.version },
            instructions:
              'Session continuity for this project: bookmark_restore gives what a new session should know; bookmark_snapshot captures the session now; bookmark_search finds past sessions (since/recent for latest questions) and bookmark_get shows one event.',
          }
        case 'ping':
          return {}
        case 'tools/list':
          if (!initialized) throw new RpcError(INVALID_REQUEST, 'not initialized: send initialize first')
          return { tools: TOOLS.map(({ run: _run, ...t }) => t) }
        case 'tools/call': {
          if (!initialized) throw new RpcError(INVALID_REQUEST, 'not initialized: send initialize first')
          if (typeof p.name !== 'string') throw new RpcError(INVALID_PARAMS, 'tools/call needs params.name (a string)')
          if (p.arguments !== undefined && (typeof p.arguments !== 'object' || p.arguments === null || Array.isArray(p.arguments))) {
            throw new RpcError(INVALID_PARAMS, 'tools/call params.arguments must be an object')
          }
          if (!TOOLS.some((t) => t.name === p.name))
            throw new RpcError(INVALID_PARAMS, `unknown tool: ${p.name} (tools: ${TOOLS.map((t) => t.name).join(', ')})`)
          return callTool(p.name, (p.arguments ?? {}) as Record<string, unknown>, {
            deps: o.deps,
            cwd: o.cwd,
            structured,
            memory,
            ...(o.host ? { host: o.host } : {}),
          })
        }
        default:
          throw new RpcError(METHOD_NOT_FOUND, `method not found: ${method}`)
      }
    },
  }
}

/** Serves until stdin closes; requests still running then are answered before it resolves. */
export function serve(o: ServerOptions): Promise<void> {
  const handler = createHandler(o)
  const pending = new Set<Promise<void>>()
  const send = (text: string): void => {
    o.output.write(`${text}\n`)
  }
  return new Promise((resolve) => {
    let buffer = ''
    o.input.setEncoding('utf8')
    o.input.on('data', (chunk: string) => {
      buffer += chunk
      let nl = buffer.indexOf('\n')
      while (nl !== -1) {
        const line = buffer.slice(0, nl)
        buffer = buffer.slice(nl + 1)
        const p = handleLine(line, handler, send).catch((e: unknown) => o.log(`mcp: ${e instanceof Error ? e.message : String(e)}`))
        pending.add(p)
        void p.finally(() => pending.delete(p))
        nl = buffer.indexOf('\n')
      }
    })
    const finish = (): void => {
      const last = buffer
      buffer = ''
      if (last.trim() !== '') {
        const p = handleLine(last, handler, send).catch((e: unknown) => o.log(`mcp: ${e instanceof Error ? e.message : String(e)}`))
        pending.add(p)
      }
      void Promise.allSettled([...pending]).then(() => resolve())
    }
    o.input.on('end', finish)
    o.input.on('error', finish)
  })
}
