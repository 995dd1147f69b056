/**
 * `bookmark mcp` driven by the official MCP SDK client over stdio, and by raw JSON-RPC lines.
 */
import { spawn } from 'node:child_process'
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Sandbox, BIN, gitProject, sandbox } from './helpers/cli.js'
import { call, jsonl, prompt } from './helpers/jsonl.js'

let sb: Sandbox
let project: string
let transcript: string
let client: Client | undefined

beforeEach(async () => {
  sb = await sandbox()
  project = await gitProject(sb)
  transcript = join(sb.dir, 'sess-1.jsonl')
  await writeFile(
    transcript,
    jsonl([
      prompt('add the importer for CSV notes', { cwd: project }),
      call('w1', 'Write', { file_path: join(project, 'src/import.ts'), content: 'export function importCsv() {}\n' }, { type: 'create' }, { cwd: project }),
    ]),
  )
})

afterEach(async () => {
  await client?.close()
  client = undefined
})

/** `name`: the clientInfo name the server sees (Claude Code says `claude-code`). */
async function connect(name = 'bookmark-test'): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    env: sb.env as Record<string, string>,
    cwd: project,
    stderr: 'pipe',
  })
  client = new Client({ name, version: '1.0.0' })
  await client.connect(transport)
  return client
}

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, any> }

describe('bookmark mcp with the official SDK client', () => {
  it('negotiates, lists the tools with honest annotations', async () => {
    const c = await connect()
    expect(c.getServerVersion()).toMatchObject({ name: 'session-bookmark' })
    expect(c.getServerCapabilities()).toMatchObject({ tools: {} })
    const { tools } = await c.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual([
      'bookmark_export',
      'bookmark_get',
      'bookmark_list',
      'bookmark_restore',
      'bookmark_search',
      'bookmark_show',
      'bookmark_snapshot',
      'bookmark_status',
      'bookmark_wrapup',
    ])
    const ro = Object.fromEntries(tools.map((t) => [t.name, t.annotations?.readOnlyHint]))
    expect(ro).toEqual({
      bookmark_export: true,
      bookmark_get: true,
      bookmark_list: true,
      bookmark_restore: true,
      bookmark_search: true,
      bookmark_show: true,
      bookmark_snapshot: false,
      bookmark_status: true,
      bookmark_wrapup: false,
    })
    for (const t of tools) if (t.name !== 'bookmark_get') expect(t.inputSchema.properties).toHaveProperty('cwd')
    await c.ping()
  })

  it('every tool works on good arguments, checked against the files on disk', async () => {
    const c = await connect()
    const snap = (await c.callTool({ name: 'bookmark_snapshot', arguments: { cwd: project, transcript, session_id: 'sess-1' } })) as ToolResult
    expect(snap.isError).toBe(false)
    const id = snap.structuredContent!.snapshotId as string
    expect(await readdir(join(project, '.bookmark', 'snapshots'))).toEqual([`${id}.json`])
    expect(snap.content[0]!.text).toContain(`Snapshot ${id} written for session sess-1`)

    const st = (await c.callTool({ name: 'bookmark_status', arguments: { cwd: project } })) as ToolResult
    expect(st.structuredContent).toMatchObject({ projectRoot: project, snapshots: 1, latest: { id } })

    const list = (await c.callTool({ name: 'bookmark_list', arguments: { cwd: project, limit: 5 } })) as ToolResult
    expect(list.structuredContent!.entries.map((e: { id: string }) => e.id)).toEqual([id])
    const all = (await c.callTool({ name: 'bookmark_list', arguments: { all: true } })) as ToolResult
    expect(all.structuredContent!.entries).toEqual([expect.objectContaining({ project, snapshotId: id })])

    const shown = (await c.callTool({ name: 'bookmark_show', arguments: { cwd: project, id } })) as ToolResult
    const { mac, ...onDisk } = JSON.parse(await readFile(join(project, '.bookmark', 'snapshots', `${id}.json`), 'utf8'))
    expect(mac).toMatch(/^[0-9a-f]{64}$/) // the seal: only what this user's bookmark wrote is shown
    expect(shown.structuredContent!.snapshot).toEqual(onDisk)
    expect(shown.content[0]!.text).toContain('add the importer for CSV notes')

    const before = await readdir(join(project, '.bookmark'), { recursive: true })
    const restored = (await c.callTool({ name: 'bookmark_restore', arguments: { cwd: project, source: 'startup' } })) as ToolResult
    expect(restored.content[0]!.text).toContain('add the importer for CSV notes')
    expect(restored.structuredContent!.characters).toBeLessThanOrEqual(6_000)
    expect(await readdir(join(project, '.bookmark'), { recursive: true })).toEqual(before) // read-only

    const exported = (await c.callTool({ name: 'bookmark_export', arguments: { cwd: project } })) as ToolResult
    expect(exported.isError).toBe(false)
    expect(exported.content[0]!.text.split('\n')[0]).toBe('# Bookmark handoff of `proj`')
    expect(exported.content[0]!.text).toContain('add the importer for CSV notes')
    expect(exported.content[0]!.text).toContain('`src/import.ts` created')
    expect(exported.structuredContent).toMatchObject({ projectRoot: project, snapshotId: id, narrative: false, text: exported.content[0]!.text })
    expect(await readdir(join(project, '.bookmark'), { recursive: true })).toEqual(before) // read-only too
  })

  it('bookmark_show: the text is the snapshot as Markdown (short), structuredContent its JSON', async () => {
    const c = await connect()
    await c.callTool({ name: 'bookmark_snapshot', arguments: { cwd: project, transcript, session_id: 'sess-1' } })
    const shown = (await c.callTool({ name: 'bookmark_show', arguments: { cwd: project } })) as ToolResult
    const text = shown.content[0]!.text
    expect(shown.content).toHaveLength(1)
    expect(text.split('\n')[0]).toBe('# Bookmark: proj')
    expect(text).toContain('## Current task')
    expect(() => JSON.parse(text)).toThrow() // not the JSON again
    const json = JSON.stringify(shown.structuredContent)
    expect(shown.structuredContent!.snapshot).toMatchObject({ project: { root: project }, session: { id: 'sess-1' }, task: 'add the importer for CSV notes' })
    expect(text.length).toBeLessThan(json.length / 2)
  })

  it('a client that reads structuredContent in place of the text (Claude Code) gets the readable text alone', async () => {
    const c = await connect('claude-code')
    const snap = (await c.callTool({ name: 'bookmark_snapshot', arguments: { cwd: project, transcript, session_id: 'sess-1' } })) as ToolResult
    expect(snap.content[0]!.text).toMatch(/^Snapshot SNAP_\S+ written for session sess-1/)
    const results = [snap]
    for (const name of ['bookmark_show', 'bookmark_status', 'bookmark_list', 'bookmark_restore', 'bookmark_export']) {
      results.push((await c.callTool({ name, arguments: { cwd: project } })) as ToolResult)
    }
    const bad = (await c.callTool({ name: 'bookmark_show', arguments: { id: 'nope' } })) as ToolResult
    expect(bad.isError).toBe(true)
    expect(bad.content[0]!.text).toMatch(/not a snapshot id/)
    for (const r of [...results, bad]) {
      expect(r.structuredContent).toBeUndefined()
      expect(r.content).toHaveLength(1)
    }
    expect(results[1]!.content[0]!.text.split('\n')[0]).toBe('# Bookmark: proj')
    expect(results[5]!.content[0]!.text).toContain('add the importer for CSV notes')
  })

  it('without session_id, snapshot takes the newest session and says so', async () => {
    const dir = join(sb.env.CLAUDE_CONFIG_DIR!, 'projects', project.replace(/[^A-Za-z0-9]/g, '-'))
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'newest-session.jsonl'), await readFile(transcript, 'utf8'))
    const c = await connect()
    const r = (await c.callTool({ name: 'bookmark_snapshot', arguments: { cwd: project } })) as ToolResult
    expect(r.isError).toBe(false)
    expect(r.structuredContent!.sessionId).toBe('newest-session')
    expect(r.content[0]!.text).toContain('picked the most recently written transcript')
  })

  it.each([
    ['bookmark_show', { cwd: '/x', id: '../../etc/passwd' }, /not a snapshot id/],
    ['bookmark_show', { id: 5 }, /argument "id" must be a string/],
    ['bookmark_list', { limit: 'ten' }, /argument "limit" must be a whole number/],
    ['bookmark_list', { limit: 0 }, /must be from 1 to 500/],
    ['bookmark_restore', { source: 'reboot' }, /must be one of startup, clear, compact, resume, fork/],
    ['bookmark_status', { colour: 'red' }, /unknown argument "colour"/],
    ['bookmark_status', { cwd: 'relative/dir' }, /must be an absolute path/],
    ['bookmark_export', { budget: 0 }, /must be from 1 to 1000000/],
    ['bookmark_export', {}, /no snapshot yet \(capture first/],
    ['bookmark_snapshot', { transcript: '/nope/missing.jsonl' }, /transcript not found/],
  ])('%s with bad arguments %j is a tool error', async (name, args, message) => {
    const c = await connect()
    const r = (await c.callTool({ name, arguments: args })) as ToolResult
    expect(r.isError).toBe(true)
    expect(r.content[0]!.text).toMatch(message)
  })

  it('an unknown tool is a protocol error', async () => {
    const c = await connect()
    await expect(c.callTool({ name: 'bookmark_delete_everything', arguments: {} })).rejects.toThrow(/unknown tool/)
  })
})

/** A raw server: write lines, collect response lines. */
function raw() {
  const child = spawn(process.execPath, [BIN, 'mcp'], { env: sb.env, cwd: project, stdio: ['pipe', 'pipe', 'pipe'] })
  const responses: any[] = []
  let buf = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    buf += d
    let nl = buf.indexOf('\n')
    while (nl !== -1) {
      responses.push(JSON.parse(buf.slice(0, nl)))
      buf = buf.slice(nl + 1)
      nl = buf.indexOf('\n')
    }
  })
  const exited = new Promise<number | null>((r) => child.on('close', r))
  const until = async (n: number) => {
    for (let i = 0; i < 400 && responses.length < n; i++) await new Promise((r) => setTimeout(r, 25))
    return responses
  }
  return { child, responses, until, exited, send: (o: unknown) => child.stdin.write(`${typeof o === 'string' ? o : JSON.stringify(o)}\n`) }
}

const init = (id: number, version = '2025-06-18') => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
})

describe('raw JSON-RPC stream', () => {
  it('negotiates the protocol version', async () => {
    const s = raw()
    for (const [i, v] of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '1999-01-01'].entries()) s.send(init(i + 1, v))
    const r = await s.until(5)
    const byId = Object.fromEntries(r.map((x) => [x.id, x.result.protocolVersion]))
    expect(byId).toEqual({ 1: '2024-11-05', 2: '2025-03-26', 3: '2025-06-18', 4: '2025-11-25', 5: '2025-11-25' })
    s.child.stdin.end()
    expect(await s.exited).toBe(0)
  })

  it('answers a malformed line with -32700 and goes on', async () => {
    const s = raw()
    s.send('{"jsonrpc":"2.0","id":1,"method":')
    s.send(init(2))
    s.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    s.send({ jsonrpc: '2.0', id: 3, method: 'ping' })
    const r = await s.until(3)
    expect(r[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } })
    expect(r.find((x) => x.id === 3)).toEqual({ jsonrpc: '2.0', id: 3, result: {} })
    expect(r.length).toBe(3) // the notification got no response
    s.child.stdin.end()
    expect(await s.exited).toBe(0)
  })

  it('answers a batch of 50 requests written at once, each with its id', async () => {
    const s = raw()
    s.send(init(0))
    const lines = Array.from({ length: 50 }, (_, i) =>
      JSON.stringify(
        i % 2
          ? { jsonrpc: '2.0', id: `r${i}`, method: 'tools/list' }
          : { jsonrpc: '2.0', id: i + 100, method: 'tools/call', params: { name: 'bookmark_status', arguments: { cwd: project } } },
      ),
    )
    s.child.stdin.write(`${lines.join('\n')}\n`)
    const r = await s.until(51)
    expect(r.length).toBe(51)
    const ids = r.map((x) => x.id).filter((id) => id !== 0)
    expect(new Set(ids)).toEqual(new Set(Array.from({ length: 50 }, (_, i) => (i % 2 ? `r${i}` : i + 100))))
    for (const x of r) expect(x.error).toBeUndefined()
    s.child.stdin.end()
    expect(await s.exited).toBe(0)
  })

  it('unknown methods get -32601, bad params -32602, and requests before initialize are refused (ping allowed)', async () => {
    const s = raw()
    s.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    s.send({ jsonrpc: '2.0', id: 2, method: 'ping' })
    s.send(init(3))
    s.send({ jsonrpc: '2.0', id: 4, method: 'resources/list' })
    s.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { arguments: {} } })
    s.send({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'bookmark_status', arguments: [1] } })
    const r = await s.until(6)
    const byId = Object.fromEntries(r.map((x) => [x.id, x]))
    expect(byId[1].error.code).toBe(-32600)
    expect(byId[1].error.message).toContain('initialize')
    expect(byId[2].result).toEqual({})
    expect(byId[4].error.code).toBe(-32601)
    expect(byId[5].error.code).toBe(-32602)
    expect(byId[6].error.code).toBe(-32602)
    s.child.stdin.end()
    expect(await s.exited).toBe(0)
  })

  it('stdin closed mid-request: the request is still answered, then the server exits cleanly', async () => {
    const s = raw()
    s.send(init(1))
    s.child.stdin.end(
      `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'bookmark_snapshot', arguments: { cwd: project, transcript } } })}\n`,
    )
    expect(await s.exited).toBe(0)
    const done = s.responses.find((x) => x.id === 2)
    expect(done.result.isError).toBe(false)
    expect(done.result.structuredContent.written).toBe(true)
  })
})
