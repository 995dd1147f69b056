/**
 * `bookmark setup --host gemini`, `uninstall --host gemini` and `doctor` on a sandboxed GEMINI_CLI_HOME: our three
 * hooks on Gemini's events in settings.json, named (Gemini dedupes by `name:command`, `hooksConfig.disabled` lists
 * names), `bookmark mcp` in `mcpServers`, every other byte of the user's file kept, and byte-identical undo.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { GUARD, shellQuote } from '../src/setup/hooks.js'
import { BIN, type Sandbox, gitRepo, runCli, sandbox } from './helpers/cli.js'

let sb: Sandbox
let gemini: string
let settings: string
let env: NodeJS.ProcessEnv

beforeEach(async () => {
  sb = await sandbox()
  gemini = join(sb.dir, 'gemini-home')
  settings = join(gemini, '.gemini', 'settings.json')
  env = { ...sb.env, GEMINI_CLI_HOME: gemini }
})

const line = (hook: string): string => `${[process.execPath, '-e', GUARD, BIN].map(shellQuote).join(' ')} ${hook} --host gemini`
const EVENTS = [
  ['SessionStart', 'restore', 15000],
  ['BeforeAgent', 'check', 15000],
  ['AfterAgent', 'stop', 60000],
] as const

// The user's own file, as the harness's recipe writes one: a hook of theirs on AfterAgent, an MCP server, tabs.
const USER =
  '{\n\t"security": { "auth": { "selectedType": "gemini-api-key" } },\n\t"mcpServers": { "bm": { "command": "node", "args": ["/abs/mcp-echo.mjs"] } },\n\t"hooks": {\n\t\t"AfterAgent": [ { "matcher": "*", "hooks": [ { "name": "mine", "type": "command", "command": "echo user" } ] } ]\n\t}\n}\n'

describe('bookmark setup --host gemini', () => {
  it("merges three named hooks and the MCP server into the user's settings.json; uninstall gives it back byte for byte", async () => {
    await mkdir(join(gemini, '.gemini'), { recursive: true })
    await writeFile(settings, USER)
    const r = await runCli(['setup', '--host', 'gemini'], { env })
    expect(r.stderr).toBe('')
    const out = r.stdout.split('\n')
    expect(out[0]).toMatch(new RegExp(`^wired 3 hooks into ${settings} \\(backup: `))
    expect(out[1]).toBe('registered `bookmark mcp` as Gemini\'s MCP server "bookmark" (mcpServers, user scope)')
    const s = JSON.parse(await readFile(settings, 'utf8')) as {
      security: object
      mcpServers: Record<string, object>
      hooks: Record<string, object[]>
    }
    expect(s.security).toEqual({ auth: { selectedType: 'gemini-api-key' } })
    expect(s.mcpServers.bm).toEqual({ command: 'node', args: ['/abs/mcp-echo.mjs'] })
    expect(s.mcpServers.bookmark).toEqual({ command: process.execPath, args: [BIN, 'mcp', '--host', 'gemini'] })
    expect(s.hooks.AfterAgent![0]).toEqual({ matcher: '*', hooks: [{ name: 'mine', type: 'command', command: 'echo user' }] })
    for (const [event, hook, timeout] of EVENTS) {
      const group = event === 'AfterAgent' ? 1 : 0
      expect(s.hooks[event]![group]).toEqual({ matcher: '*', hooks: [{ name: `bookmark-${hook}`, type: 'command', command: line(hook), timeout }] })
    }
    expect(Object.keys(s.hooks)).toEqual(['AfterAgent', 'SessionStart', 'BeforeAgent']) // no PreCompress, no SessionEnd
    expect((await runCli(['setup', '--host', 'gemini'], { env })).stdout).toBe(`already set up ${settings}\n`)

    const u = await runCli(['uninstall', '--host', 'gemini'], { env })
    expect(u.stdout.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(new RegExp(`^removed 3 hooks from ${settings} \\(backup: `)),
      `took the MCP server "bookmark" out of ${settings}`,
    ])
    expect(await readFile(settings, 'utf8')).toBe(USER)
  })

  it('creates the file and its folders when there is none, and uninstall deletes what it created', async () => {
    const r = await runCli(['setup', '--host', 'gemini'], { env })
    expect(r.stdout).toMatch(new RegExp(`^wired 3 hooks into ${settings} \\(new file\\)`))
    expect((await runCli(['uninstall', '--host', 'gemini'], { env })).stdout).toContain(`and deleted it (setup had created it)`)
    expect(existsSync(settings)).toBe(false)
    expect(await readdir(sb.dir)).not.toContain('gemini-home')
  })

  it('the hook line it writes runs as Gemini runs it (bash -c, in the session folder)', async () => {
    await runCli(['setup', '--host', 'gemini'], { env })
    const project = await gitRepo(join(sb.dir, 'proj'))
    const s = JSON.parse(await readFile(settings, 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> }
    const payload = { session_id: 's1', transcript_path: join(sb.dir, 'none.jsonl'), cwd: project, hook_event_name: 'SessionStart', source: 'startup' }
    const run = spawnSync('/bin/bash', ['-c', s.hooks.SessionStart![0]!.hooks[0]!.command], {
      cwd: project,
      env,
      input: JSON.stringify(payload),
      encoding: 'utf8',
    })
    // Nothing recorded yet: nothing to say; and it ran bookmark's restore (a missing bundle would say so on stderr).
    expect([run.status, run.stdout, run.stderr]).toEqual([0, '', ''])
    const note = spawnSync('/bin/bash', ['-c', s.hooks.SessionStart![0]!.hooks[0]!.command], { cwd: project, env, input: '{', encoding: 'utf8' })
    expect(note.stderr).toBe('bookmark: hook payload is not JSON (1 characters; it ends before its JSON does)\n')
  })

  it('doctor: wired, then a hook disabled by name, a hook missing, the MCP server gone', async () => {
    await runCli(['setup', '--host', 'gemini'], { env })
    const ok = await runCli(['doctor'], { env })
    expect(ok.stdout).toContain(
      `✔ gemini-hooks Gemini CLI hooks wired for SessionStart, BeforeAgent, AfterAgent and \`bookmark mcp\` registered in ${settings}`,
    )
    const s = JSON.parse(await readFile(settings, 'utf8')) as Record<string, unknown> & { hooks: Record<string, unknown>; mcpServers: Record<string, unknown> }
    delete s.hooks.BeforeAgent
    delete s.mcpServers.bookmark
    s.hooksConfig = { disabled: ['bookmark-stop'] }
    await writeFile(settings, JSON.stringify(s, null, 2))
    const bad = await runCli(['doctor'], { env })
    expect(bad.code).toBe(1)
    expect(bad.stdout).toContain(`${settings}: "hooksConfig.disabled" lists bookmark-stop: Gemini CLI skips it`)
    expect(bad.stdout).toContain(`Gemini CLI hooks missing for BeforeAgent in ${settings}`)
    expect(bad.stdout).toContain(`Gemini CLI has no \`bookmark mcp\` server in ${settings} (mcpServers.bookmark)`)
    // setup says what stops the hooks, and puts back what is missing.
    const again = await runCli(['setup', '--host', 'gemini'], { env })
    expect(again.stdout).toContain('note: "hooksConfig.disabled" lists bookmark-stop: Gemini CLI skips it')
    expect(again.stdout).toContain('registered `bookmark mcp`')
    expect((JSON.parse(await readFile(settings, 'utf8')) as { hooks: object }).hooks).toHaveProperty('BeforeAgent')
  })

  it('refuses --project: bookmark wires Gemini in the user settings', async () => {
    const r = await runCli(['setup', '--host', 'gemini', '--project'], { env })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('--project wires Claude Code only')
  })
})

describe('bookmark setup without --host, and Gemini', () => {
  it('leaves Gemini out when it is nowhere (no gemini on PATH, no ~/.gemini)', async () => {
    const r = await runCli(['setup'], { env: sb.env })
    expect(r.code).toBe(0)
    expect(r.stdout).not.toContain('Gemini')
    expect(existsSync(join(sb.home, '.gemini'))).toBe(false)
  })

  it('wires Gemini CLI too when `gemini` is on PATH, or ~/.gemini exists, and says why', async () => {
    const bin = join(sb.dir, 'bin', 'gemini')
    await writeFile(bin, '#!/bin/sh\necho 0.61.0\n')
    await chmod(bin, 0o755)
    const r = await runCli(['setup'], { env: sb.env })
    const lines = r.stdout.split('\n')
    expect(lines[0]).toMatch(/^wired 4 hooks into .*\/\.claude\/settings\.json/)
    expect(lines).toContain(`Gemini CLI found (\`gemini\` on PATH (${bin})):`)
    expect(r.stdout).toContain(`wired 3 hooks into ${join(sb.home, '.gemini', 'settings.json')} (new file)`)
    const other = await sandbox()
    await mkdir(join(other.home, '.gemini'))
    const r2 = await runCli(['setup'], { env: other.env })
    expect(r2.stdout.split('\n')).toContain(`Gemini CLI found (${join(other.home, '.gemini')}):`)
  })
})
