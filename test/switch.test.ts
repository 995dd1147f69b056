/**
 * `bookmark off` / `on` (issue 16), through the built CLI with real hook payloads: while off every hook exits 0
 * with nothing on stdout or stderr and writes nothing; `on` brings capture back from where the cursor stopped;
 * `--session` touches one session; BOOKMARK_DISABLE one run; a switch planted in the project's `.bookmark/` is
 * not read (a clone could bring one).
 */
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { type Sandbox, gitRepo, runCli, sandbox } from './helpers/cli.js'
import { assistantText, call, jsonl, prompt } from './helpers/jsonl.js'
import { stateDir } from './helpers/narrative.js'

let sb: Sandbox
let project: string
const SID = 'aaaaaaaa-1111-4222-8333-444444444444'
const SID2 = 'bbbbbbbb-1111-4222-8333-444444444444'

const transcriptOf = (sid: string) => join(sb.dir, `${sid}.jsonl`)

function payload(event: string, extra: Record<string, unknown> = {}, sid = SID): string {
  return JSON.stringify({ session_id: sid, transcript_path: transcriptOf(sid), cwd: project, hook_event_name: event, permission_mode: 'default', ...extra })
}

async function hook(cmd: string, input: string, env: NodeJS.ProcessEnv = {}) {
  const r = await runCli([cmd], { env: { ...sb.env, CLAUDE_PROJECT_DIR: project, ...env }, cwd: project, input })
  expect(r.code, r.stderr).toBe(0)
  return r
}

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { env: { ...sb.env, ...env }, cwd: project })

/** Appends a turn that changed a file: enough for a Stop to write a snapshot. */
async function work(sid: string, request: string, file: string): Promise<void> {
  await writeFile(
    transcriptOf(sid),
    jsonl([
      prompt(request, { cwd: project }),
      call(`w-${file}`, 'Write', { file_path: join(project, file), content: `${request}\n` }, { type: 'create' }, { cwd: project }),
      assistantText(`Done: ${request}.`, { cwd: project }),
    ]),
    { flag: 'a' },
  )
}

/** Every file under `dir` with its size and mtime, the V8 code cache aside (a machine-wide compile cache, not capture). */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  const walk = async (d: string): Promise<void> => {
    let names: string[]
    try {
      names = await readdir(d)
    } catch {
      return
    }
    for (const n of names) {
      const p = join(d, n)
      if (p === join(sb.env.BOOKMARK_HOME!, 'cache')) continue
      const s = await stat(p)
      if (s.isDirectory()) await walk(p)
      else out[p] = `${s.size}:${s.mtimeMs}`
    }
  }
  await walk(dir)
  return out
}

const world = async () => ({ ...(await tree(project)), ...(await tree(sb.env.BOOKMARK_HOME!)) })
const snapshots = async () => (await readdir(join(project, '.bookmark', 'snapshots'))).sort()

/** Every hook for one session, each asserted silent; returns nothing (the caller compares the files). */
async function allHooksSilent(sid: string, env: NodeJS.ProcessEnv = {}): Promise<void> {
  for (const [cmd, input] of [
    ['stop', payload('Stop', { stop_hook_active: false, last_assistant_message: 'more done' }, sid)],
    ['check', payload('UserPromptSubmit', { prompt: 'next' }, sid)],
    ['precompact', payload('PreCompact', { trigger: 'manual', custom_instructions: null }, sid)],
    ['restore', payload('SessionStart', { source: 'startup' }, sid)],
    ['restore', payload('SessionStart', { source: 'compact' }, sid)],
  ] as const) {
    const r = await hook(cmd, input, env)
    expect({ cmd, stdout: r.stdout, stderr: r.stderr }).toEqual({ cmd, stdout: '', stderr: '' })
  }
}

beforeEach(async () => {
  sb = await sandbox()
  project = await gitRepo(join(sb.dir, 'proj'))
  await work(SID, 'add a CSV export to the notes command', 'src/export.ts')
  await work(SID2, 'write the changelog entry', 'CHANGELOG.md')
})

describe('bookmark off / on for the project', () => {
  it('silences every hook and writes nothing; on captures what the transcript gained meanwhile', async () => {
    const first = await hook('stop', payload('Stop', { stop_hook_active: false }))
    expect(JSON.parse(first.stdout).decision).toBe('block') // on: captured, and asked for the handoff
    expect(await snapshots()).toHaveLength(1)
    const restored = await hook('restore', payload('SessionStart', { source: 'startup' }, SID2))
    expect(restored.stdout).toContain('add a CSV export')

    const off = await cli(['off'])
    expect(off.code, off.stderr).toBe(0)
    const config = join(await stateDir(sb.env.BOOKMARK_HOME!, project), 'config.json')
    expect(off.stdout.trim()).toBe(`Capture off for ${project} (kept in ${config}).`)
    expect(JSON.parse(await readFile(config, 'utf8')).values).toEqual({ disable: 1 })

    await work(SID, 'quote fields with newlines', 'src/quote.ts')
    const before = await world()
    await allHooksSilent(SID)
    await allHooksSilent(SID2)
    expect(await world()).toEqual(before) // no snapshot, cursor, session file, errors.log, LATEST.md or pointer

    const on = await cli(['on'])
    expect(on.stdout.trim()).toBe(`Capture on for ${project} (kept in ${config}).`)
    const back = await hook('stop', payload('Stop', { stop_hook_active: false }))
    expect(back.stderr).toBe('')
    const snaps = await snapshots()
    expect(snaps).toHaveLength(2)
    const latest = JSON.parse(await readFile(join(project, '.bookmark', 'snapshots', snaps[1]!), 'utf8'))
    expect(JSON.stringify(latest)).toContain('quote fields with newlines')
    expect(latest.files.map((f: { path: string }) => f.path)).toContain('src/quote.ts')
  })

  it('shows in status (text and JSON) and doctor, with how to turn it on', async () => {
    await cli(['off'])
    const text = await cli(['status'])
    expect(text.stdout).toContain('Capture:   capture is off for this project; `bookmark on` turns it on')
    const js = JSON.parse((await cli(['status', '--json'])).stdout)
    expect(js.capture).toEqual({ on: false, offBy: 'project', sessionsOff: [] })
    const doc = JSON.parse((await cli(['doctor', '--json'])).stdout)
    expect(doc.checks).toContainEqual({
      id: 'capture',
      status: 'info',
      message: 'capture is off for this project: the hooks do nothing and write nothing',
      fix: '`bookmark on`',
    })
    expect((await cli(['doctor'])).stdout).toMatch(/· capture +capture is off for this project/)

    await cli(['on'])
    expect((await cli(['status'])).stdout).toContain('Capture:   on\n')
    expect(JSON.parse((await cli(['doctor', '--json'])).stdout).checks.filter((c: { id: string }) => c.id === 'capture')).toEqual([])
  })

  it('refuses a manual snapshot with one line unless --force, and keeps the MCP tool from capturing', async () => {
    await cli(['off'])
    const args = ['snapshot', '--transcript', transcriptOf(SID), '--session-id', SID, '--cwd', project]
    const refused = await cli(args)
    expect(refused.code).toBe(0)
    expect(refused.stdout.trim()).toBe('No snapshot written: capture is off for this project; `bookmark on` turns it on; --force captures once anyway.')
    await expect(readdir(join(project, '.bookmark', 'snapshots'))).rejects.toThrow()
    const mcp = await runCli(['mcp'], {
      env: sb.env,
      cwd: project,
      input:
        [
          { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
          { jsonrpc: '2.0', method: 'notifications/initialized' },
          {
            jsonrpc: '2.0',
            id: 2,
            method: 'tools/call',
            params: { name: 'bookmark_snapshot', arguments: { cwd: project, session_id: SID, transcript: transcriptOf(SID) } },
          },
          { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'bookmark_restore', arguments: { cwd: project } } },
        ]
          .map((m) => JSON.stringify(m))
          .join('\n') + '\n',
    })
    const answers = mcp.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(answers.find((a) => a.id === 2).result.structuredContent).toMatchObject({
      written: false,
      reason: 'capture is off for this project; `bookmark on` turns it on; this tool does not override it',
    })
    expect(answers.find((a) => a.id === 3).result.structuredContent.text).toBe('')
    await expect(readdir(join(project, '.bookmark', 'snapshots'))).rejects.toThrow()

    const forced = await cli([...args, '--force', '--json'])
    expect(JSON.parse(forced.stdout).written).toBe(true)
  })
})

describe('bookmark off --session', () => {
  it('silences only that session until `on --session`', async () => {
    const off = await cli(['off', '--session', SID])
    const config = join(await stateDir(sb.env.BOOKMARK_HOME!, project), 'config.json')
    expect(off.stdout.trim()).toBe(`Capture off for session ${SID} in ${project} (kept in ${config}).`)
    const before = await world()
    await allHooksSilent(SID)
    expect(await world()).toEqual(before)

    await hook('stop', payload('Stop', { stop_hook_active: false }, SID2)) // the other session captures
    expect(await snapshots()).toHaveLength(1)
    expect((await cli(['status'])).stdout).toContain(`off for session ${SID} (\`bookmark on --session ID\`)`)
    expect(JSON.parse((await cli(['doctor', '--json'])).stdout).checks).toContainEqual({
      id: 'capture',
      status: 'info',
      message: `capture is off for session ${SID}`,
      fix: '`bookmark on --session ID`',
    })

    await cli(['on', '--session', SID])
    await hook('stop', payload('Stop', { stop_hook_active: false }, SID))
    expect(await snapshots()).toHaveLength(2)
  })

  it('says when turning a session on leaves it off because the whole project is', async () => {
    await cli(['off'])
    await cli(['off', '--session', SID])
    const on = await cli(['on', '--session', SID])
    expect(on.stdout.trim()).toMatch(/^Capture on for session .* Still: capture is off for this project; `bookmark on` turns it on\.$/)
  })
})

describe('BOOKMARK_DISABLE', () => {
  it('silences one run (installed hook and command form), the next one captures', async () => {
    const before = await world()
    await allHooksSilent(SID, { BOOKMARK_DISABLE: '1' })
    const viaCommand = await runCli(['stop', '--cwd', project], {
      env: { ...sb.env, BOOKMARK_DISABLE: 'true' },
      cwd: project,
      input: payload('Stop', { stop_hook_active: false }),
    })
    expect(viaCommand).toEqual({ code: 0, stdout: '', stderr: '' })
    expect(await world()).toEqual(before)
    await hook('stop', payload('Stop', { stop_hook_active: false }))
    expect(await snapshots()).toHaveLength(1)
  })
})

describe('a switch planted in the project', () => {
  it('has no effect: only the bookmark home holds the switch', async () => {
    await mkdir(join(project, '.bookmark'), { recursive: true })
    const planted = { version: 1, values: { disable: 1 }, sessionsOff: { [SID]: '2026-01-01T00:00:00.000Z' } }
    await writeFile(join(project, '.bookmark', 'config.json'), JSON.stringify(planted))
    await writeFile(join(project, '.bookmark', 'switch.json'), JSON.stringify({ version: 1, off: true, sessions: [SID] }))
    await hook('stop', payload('Stop', { stop_hook_active: false }))
    expect(await snapshots()).toHaveLength(1)
    expect(JSON.parse((await cli(['status', '--json'])).stdout).capture).toEqual({ on: true, offBy: null, sessionsOff: [] })
  })
})
