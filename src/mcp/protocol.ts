/**
 * JSON-RPC 2.0 over stdio, one message per line. A malformed line gets a -32700 error and the stream
 * goes on; requests are handled concurrently and every response carries its request's id;
 * notifications get no response. Pure framing and dispatch: the transport is given in.
 */

export const PARSE_ERROR = -32700
export const INVALID_REQUEST = -32600
export const METHOD_NOT_FOUND = -32601
export const INVALID_PARAMS = -32602
export const INTERNAL_ERROR = -32603

export type JsonRpcId = string | number | null

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

export interface RpcHandler {
  /** Handles a request (id present); returns its result or throws RpcError. */
  request(method: string, params: unknown): Promise<unknown>
  /** Handles a notification (no id). */
  notification(method: string, params: unknown): void
}

function errorResponse(id: JsonRpcId, code: number, message: string, data?: unknown): object {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined ? { data } : {}) } }
}

function validId(v: unknown): v is string | number {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))
}

/** One message (already parsed): a response object, or undefined for notifications. */
async function handleMessage(msg: unknown, handler: RpcHandler): Promise<object | undefined> {
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg))
    return errorResponse(null, INVALID_REQUEST, 'invalid request: expected a JSON-RPC 2.0 object')
  const m = msg as Record<string, unknown>
  const hasId = 'id' in m && m.id !== undefined
  const id: JsonRpcId = validId(m.id) ? m.id : null
  if (m.jsonrpc !== '2.0' || typeof m.method !== 'string') {
    // A response from the client (result/error, no method) needs no answer.
    if (m.jsonrpc === '2.0' && m.method === undefined && ('result' in m || 'error' in m)) return undefined
    return errorResponse(id, INVALID_REQUEST, 'invalid request: expected jsonrpc "2.0" and a string method')
  }
  if (!hasId) {
    try {
      handler.notification(m.method, m.params)
    } catch {
      // notifications never answer
    }
    return undefined
  }
  if (!validId(m.id)) return errorResponse(null, INVALID_REQUEST, 'invalid request: id must be a string or a number')
  try {
    const result = await handler.request(m.method, m.params)
    return { jsonrpc: '2.0', id, result }
  } catch (e) {
    if (e instanceof RpcError) return errorResponse(id, e.code, e.message, e.data)
    return errorResponse(id, INTERNAL_ERROR, `internal error: ${e instanceof Error ? e.message : String(e)}`)
  }
}

/**
 * Handles one line of input. `send` is called with each response line (without the newline), possibly
 * later than this function returns for slow requests.
 */
export function handleLine(line: string, handler: RpcHandler, send: (text: string) => void): Promise<void> {
  const text = line.trim()
  if (text === '') return Promise.resolve()
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (e) {
    send(JSON.stringify(errorResponse(null, PARSE_ERROR, `parse error: ${(e as Error).message}`)))
    return Promise.resolve()
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) {
      send(JSON.stringify(errorResponse(null, INVALID_REQUEST, 'invalid request: empty batch')))
      return Promise.resolve()
    }
    return Promise.all(parsed.map((m) => handleMessage(m, handler))).then((all) => {
      const responses = all.filter((r): r is object => r !== undefined)
      if (responses.length > 0) send(JSON.stringify(responses))
    })
  }
  return handleMessage(parsed, handler).then((r) => {
    if (r !== undefined) send(JSON.stringify(r))
  })
}
