import { describe, expect, it, vi } from 'vitest'
import { testDeps } from '../../test/helpers/deps.js'
import { INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR, RpcError, type RpcHandler, handleLine } from './protocol.js'
import { createHandler } from './server.js'

/** A handler that echoes its params for `echo`, and throws what each other method names. */
function fakeHandler(): RpcHandler & { requests: [string, unknown][]; notifications: [string, unknown][] } {
  const requests: [string, unknown][] = []
  const notifications: [string, unknown][] = []
  return {
    requests,
    notifications,
    request(method, params) {
      requests.push([method, params])
      switch (method) {
        case 'echo':
          return Promise.resolve({ echoed: params ?? null })
        case 'bad-params':
          throw new RpcError(INVALID_PARAMS, 'needs a name')
        case 'with-data':
          return Promise.reject(new RpcError(-32001, 'busy', { retryAfterMs: 50 }))
        case 'crash':
          throw new Error('disk on fire')
        default:
          throw new RpcError(METHOD_NOT_FOUND, `method not found: ${method}`)
      }
    },
    notification(method, params) {
      notifications.push([method, params])
      if (method === 'explode') throw new Error('a notification that throws')
    },
  }
}

/** Feeds one line and returns every response sent for it, parsed. */
async function answer(line: string, handler: RpcHandler = fakeHandler()): Promise<unknown[]> {
  const sent: string[] = []
  await handleLine(line, handler, (t) => sent.push(t))
  return sent.map((t) => JSON.parse(t) as unknown)
}

const req = (id: unknown, method: string, params?: unknown): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) })

describe('error codes', () => {
  it('are the JSON-RPC 2.0 reserved codes', () => {
    expect([PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR]).toEqual([-32700, -32600, -32601, -32602, -32603])
  })
})

describe('framing', () => {
  it('a line that is not JSON gets -32700 with id null and the parser message', async () => {
    let why = ''
    try {
      JSON.parse('{"jsonrpc": "2.0", "id": 1,')
    } catch (e) {
      why = (e as Error).message
    }
    expect(await answer('{"jsonrpc": "2.0", "id": 1,')).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32700, message: `parse error: ${why}` } }])
  })

  it('the parse error response carries no data key', async () => {
    const sent: string[] = []
    await handleLine('nope', fakeHandler(), (t) => sent.push(t))
    expect(sent).toHaveLength(1)
    const r = JSON.parse(sent[0]!) as { error: Record<string, unknown> }
    expect(Object.keys(r)).toEqual(['jsonrpc', 'id', 'error'])
    expect(Object.keys(r.error)).toEqual(['code', 'message'])
  })

  it.each(['', '   ', '\t\r'])('a blank line %j is skipped: no response, no call', async (line) => {
    const h = fakeHandler()
    expect(await answer(line, h)).toEqual([])
    expect(h.requests).toEqual([])
    expect(h.notifications).toEqual([])
  })

  it('surrounding whitespace and a trailing CR are tolerated', async () => {
    expect(await answer(`  ${req(4, 'echo', { a: 1 })}\r`)).toEqual([{ jsonrpc: '2.0', id: 4, result: { echoed: { a: 1 } } }])
  })

  it('each response is one line of JSON (no newline inside)', async () => {
    const sent: string[] = []
    await handleLine(req(1, 'echo', { text: 'two\nlines' }), fakeHandler(), (t) => sent.push(t))
    expect(sent).toEqual(['{"jsonrpc":"2.0","id":1,"result":{"echoed":{"text":"two\\nlines"}}}'])
  })
})

describe('requests', () => {
  it.each([
    [1, 1],
    [0, 0],
    [-7, -7],
    [2.5, 2.5],
    ['abc', 'abc'],
    ['', ''],
  ])('the id %j is echoed in the result', async (id, echoed) => {
    expect(await answer(req(id, 'echo', [1, 2]))).toEqual([{ jsonrpc: '2.0', id: echoed, result: { echoed: [1, 2] } }])
  })

  it('the handler gets the method and the params as sent (undefined when absent)', async () => {
    const h = fakeHandler()
    await answer(req(1, 'echo', { x: [true] }), h)
    await answer(req(2, 'echo'), h)
    expect(h.requests).toEqual([
      ['echo', { x: [true] }],
      ['echo', undefined],
    ])
    expect(h.notifications).toEqual([])
  })

  it('an unknown method: the handler’s -32601, with the id', async () => {
    expect(await answer(req('q-9', 'nope/nothing'))).toEqual([
      { jsonrpc: '2.0', id: 'q-9', error: { code: -32601, message: 'method not found: nope/nothing' } },
    ])
  })

  it('bad params: -32602 with the id, thrown synchronously by the handler', async () => {
    expect(await answer(req(12, 'bad-params'))).toEqual([{ jsonrpc: '2.0', id: 12, error: { code: -32602, message: 'needs a name' } }])
  })

  it('an RpcError with data keeps its code, message and data', async () => {
    expect(await answer(req(3, 'with-data'))).toEqual([{ jsonrpc: '2.0', id: 3, error: { code: -32001, message: 'busy', data: { retryAfterMs: 50 } } }])
  })

  it('any other error is -32603 with its message', async () => {
    expect(await answer(req(5, 'crash'))).toEqual([{ jsonrpc: '2.0', id: 5, error: { code: -32603, message: 'internal error: disk on fire' } }])
  })

  it('a handler that rejects with a string or null still gets an answer, naming what it threw', async () => {
    for (const thrown of ['plain words', null]) {
      const h: RpcHandler = { request: () => Promise.reject(thrown), notification: () => {} }
      expect(await answer(req(6, 'any'), h)).toEqual([{ jsonrpc: '2.0', id: 6, error: { code: -32603, message: `internal error: ${String(thrown)}` } }])
    }
  })

  it('a result of null is sent as null, not dropped', async () => {
    const h: RpcHandler = { request: () => Promise.resolve(null), notification: () => {} }
    expect(await answer(req(1, 'x'), h)).toEqual([{ jsonrpc: '2.0', id: 1, result: null }])
  })
})

describe('invalid requests', () => {
  it.each([
    ['5', 'a number'],
    ['"hello"', 'a string'],
    ['null', 'null'],
    ['true', 'a boolean'],
  ])('%s (%s) is not a request object: -32600, id null', async (line) => {
    expect(await answer(line)).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: expected a JSON-RPC 2.0 object' } }])
  })

  it('a wrong or missing jsonrpc version: -32600 with the id echoed', async () => {
    const expected = (id: unknown) => [{ jsonrpc: '2.0', id, error: { code: -32600, message: 'invalid request: expected jsonrpc "2.0" and a string method' } }]
    expect(await answer(JSON.stringify({ jsonrpc: '1.0', id: 7, method: 'echo' }))).toEqual(expected(7))
    expect(await answer(JSON.stringify({ id: 'k', method: 'echo' }))).toEqual(expected('k'))
  })

  it('a method that is not a string: -32600, and the handler is not called', async () => {
    const h = fakeHandler()
    expect(await answer(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 42 }), h)).toEqual([
      { jsonrpc: '2.0', id: 8, error: { code: -32600, message: 'invalid request: expected jsonrpc "2.0" and a string method' } },
    ])
    expect(h.requests).toEqual([])
  })

  it('a malformed message without an id is still answered (id null): it is not a valid notification', async () => {
    expect(await answer(JSON.stringify({ jsonrpc: '2.0', method: 3 }))).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: expected jsonrpc "2.0" and a string method' } },
    ])
  })

  it.each([null, true, { n: 1 }, [1]])('an id %j that is neither string nor number: -32600 with id null, handler not called', async (id) => {
    const h = fakeHandler()
    expect(await answer(req(id, 'echo'), h)).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: id must be a string or a number' } },
    ])
    expect(h.requests).toEqual([])
    expect(h.notifications).toEqual([])
  })

  it('a response from the client (result or error, no method) gets no answer', async () => {
    const h = fakeHandler()
    expect(await answer(JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }), h)).toEqual([])
    expect(await answer(JSON.stringify({ jsonrpc: '2.0', id: 2, error: { code: 1, message: 'x' } }), h)).toEqual([])
    expect(h.requests).toEqual([])
    expect(h.notifications).toEqual([])
  })
})

describe('notifications', () => {
  it('get no response, and the handler sees method and params', async () => {
    const h = fakeHandler()
    expect(await answer(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized', params: { a: 1 } }), h)).toEqual([])
    expect(h.notifications).toEqual([['notifications/initialized', { a: 1 }]])
    expect(h.requests).toEqual([])
  })

  it('an unknown notification or one whose handler throws gets no response either', async () => {
    const h = fakeHandler()
    expect(await answer(JSON.stringify({ jsonrpc: '2.0', method: 'explode' }), h)).toEqual([])
    expect(await answer(JSON.stringify({ jsonrpc: '2.0', method: 'whatever/else' }), h)).toEqual([])
    expect(h.notifications).toEqual([
      ['explode', undefined],
      ['whatever/else', undefined],
    ])
  })
})

describe('batches', () => {
  it('an empty batch: one -32600 error, not an array', async () => {
    expect(await answer('[]')).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: empty batch' } }])
  })

  it('a mixed batch: one array of responses in request order, notifications left out', async () => {
    const h = fakeHandler()
    const line = JSON.stringify([
      { jsonrpc: '2.0', id: 'a', method: 'echo', params: 1 },
      { jsonrpc: '2.0', method: 'note' },
      { jsonrpc: '2.0', id: 'b', method: 'missing' },
      7,
      { jsonrpc: '2.0', id: 'c', method: 'crash' },
    ])
    expect(await answer(line, h)).toEqual([
      [
        { jsonrpc: '2.0', id: 'a', result: { echoed: 1 } },
        { jsonrpc: '2.0', id: 'b', error: { code: -32601, message: 'method not found: missing' } },
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: expected a JSON-RPC 2.0 object' } },
        { jsonrpc: '2.0', id: 'c', error: { code: -32603, message: 'internal error: disk on fire' } },
      ],
    ])
    expect(h.notifications).toEqual([['note', undefined]])
  })

  it('a batch of notifications only: nothing is sent', async () => {
    const sent = vi.fn()
    await handleLine(
      JSON.stringify([
        { jsonrpc: '2.0', method: 'a' },
        { jsonrpc: '2.0', method: 'b' },
      ]),
      fakeHandler(),
      sent,
    )
    expect(sent).not.toHaveBeenCalled()
  })
})

describe('concurrency', () => {
  it('a slow request does not hold up a later one; each answer carries its own id', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const h: RpcHandler = {
      request: async (method) => {
        if (method === 'slow') await gate
        return { method }
      },
      notification: () => {},
    }
    const sent: unknown[] = []
    const send = (t: string): number => sent.push(JSON.parse(t))
    const slow = handleLine(req(1, 'slow'), h, send)
    await handleLine(req(2, 'fast'), h, send)
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 2, result: { method: 'fast' } }])
    release()
    await slow
    expect(sent).toEqual([
      { jsonrpc: '2.0', id: 2, result: { method: 'fast' } },
      { jsonrpc: '2.0', id: 1, result: { method: 'slow' } },
    ])
  })
})

describe('with the server handler (server.ts)', () => {
  async function server(): Promise<RpcHandler> {
    const deps = await testDeps()
    return createHandler({ deps, cwd: deps.dir, version: '9.9.9', log: () => {} })
  }

  it('an unknown method is -32601 naming it, before and after initialize', async () => {
    const h = await server()
    const expected = [{ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'method not found: resources/list' } }]
    expect(await answer(req(1, 'resources/list'), h)).toEqual(expected)
    await answer(req(0, 'initialize', { protocolVersion: '2025-06-18' }), h)
    expect(await answer(req(1, 'resources/list'), h)).toEqual(expected)
  })

  it('ping works before initialize; tools/list and tools/call are refused until then', async () => {
    const h = await server()
    expect(await answer(req('p', 'ping'), h)).toEqual([{ jsonrpc: '2.0', id: 'p', result: {} }])
    for (const method of ['tools/list', 'tools/call'])
      expect(await answer(req(2, method, { name: 'bookmark_status' }), h)).toEqual([
        { jsonrpc: '2.0', id: 2, error: { code: -32600, message: 'not initialized: send initialize first' } },
      ])
  })

  it('initialize answers the requested version when supported, else the latest', async () => {
    const h = await server()
    const init = (await answer(req(1, 'initialize', { protocolVersion: '2024-11-05' }), h))[0] as { result: Record<string, unknown> }
    expect(init.result.protocolVersion).toBe('2024-11-05')
    expect(init.result.serverInfo).toEqual({ name: 'session-bookmark', title: 'session-bookmark', version: '9.9.9' })
    expect(init.result.capabilities).toEqual({ tools: { listChanged: false } })
    const other = (await answer(req(2, 'initialize', { protocolVersion: '1999-01-01' }), h))[0] as { result: Record<string, unknown> }
    expect(other.result.protocolVersion).toBe('2025-11-25')
  })

  it('bad tools/call params are -32602 with a reason, with the id', async () => {
    const h = await server()
    await answer(req(0, 'initialize', {}), h)
    const err = (id: number, message: string) => [{ jsonrpc: '2.0', id, error: { code: -32602, message } }]
    expect(await answer(req(1, 'tools/call', {}), h)).toEqual(err(1, 'tools/call needs params.name (a string)'))
    expect(await answer(req(2, 'tools/call', { name: 5 }), h)).toEqual(err(2, 'tools/call needs params.name (a string)'))
    expect(await answer(req(3, 'tools/call', ['bookmark_status']), h)).toEqual(err(3, 'tools/call needs params.name (a string)'))
    for (const [id, args] of [
      [4, []],
      [5, null],
      [6, 'cwd'],
    ] as const)
      expect(await answer(req(id, 'tools/call', { name: 'bookmark_status', arguments: args }), h)).toEqual(
        err(id, 'tools/call params.arguments must be an object'),
      )
    expect(await answer(req(7, 'tools/call', { name: 'bookmark_nope' }), h)).toEqual(
      err(
        7,
        'unknown tool: bookmark_nope (tools: bookmark_snapshot, bookmark_restore, bookmark_status, bookmark_list, bookmark_show, bookmark_export, bookmark_search, bookmark_get, bookmark_wrapup)',
      ),
    )
  })

  it('notifications/initialized gets no response and unlocks tools/list', async () => {
    const h = await server()
    expect(await answer(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), h)).toEqual([])
    const [list] = (await answer(req(9, 'tools/list'), h)) as [{ id: number; result: { tools: { name: string }[] } }]
    expect(list.id).toBe(9)
    expect(list.result.tools.map((t) => t.name)).toEqual([
      'bookmark_snapshot',
      'bookmark_restore',
      'bookmark_status',
      'bookmark_list',
      'bookmark_show',
      'bookmark_export',
      'bookmark_search',
      'bookmark_get',
      'bookmark_wrapup',
    ])
  })
})
