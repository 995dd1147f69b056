/**
 * `bookmark setup --host codex`, `uninstall --host codex` and `doctor` on a sandboxed CODEX_HOME: hooks.json with
 * Codex's `{"hooks": …}` wrapper, the trust Codex checks (the hash of exactly the command written; the hash
 * function itself is held to the real binary's values in src/setup/codex.test.ts), byte-identical undo.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { codexHookHash, trustHeader } from '../src/setup/codex.js'
import { GUARD, shellQuote } from '../src/setup/hooks.js'
import { BIN, type Sandbox, gitRepo, runCli, sandbox } from './helpers/cli.js'

let sb: Sandbox
let codex: string
let env: NodeJS.ProcessEnv

beforeEach(async () => {
  sb = await sandbox()
  codex = join(sb.dir, 'codex-home')
  env = { ...sb.env, CODEX_HOME: codex }
})

const line = (hook: string): string => `${[process.execPath, '-e', GUARD, BIN].map(shellQuote).join(' ')} ${hook} --host codex`
const EVENTS = [
  ['SessionStart', 'session_start', 'restore', 15],
  ['UserPromptSubmit', 'user_prompt_submit', 'check', 15],
  ['PreCompact', 'pre_compact', 'precompact', 60],
  ['Stop', 'stop', 'stop', 60],
] as const

const USER_HOOKS = '{\n  "description": "mine",\n  "hooks": {\n    "Stop": [ { "hooks": [ { "type": "command", "command": "echo user" } ] } ]\n  }\n}\n'
const USER_TOML = 'model = "gpt-5.5"  # mine\n\n[projects."/w"]\ntrust_level = "trusted"'

describe('bookmark setup --host codex', () => {
  it('wires the four hooks into hooks.json and trusts exactly their commands in config.toml; uninstall gives both files back byte for byte', async () => {
    await mkdir(codex, { recursive: true })
    await writeFile(join(codex, 'hooks.json'), USER_HOOKS)
    await writeFile(join(codex, 'config.toml'), USER_TOML)
    const r = await runCli(['setup', '--host', 'codex'], { env })
    expect(r.stderr).toBe('')
    const out = r.stdout.split('\n')
    expect(out[0]).toMatch(new RegExp(`^wired 4 hooks into ${join(codex, 'hooks.json')} \\(backup: `))
    expect(out[1]).toMatch(
      new RegExp(
        `^trusted them in ${join(codex, 'config.toml')} \\(SessionStart, UserPromptSubmit, PreCompact, Stop\\): Codex runs only hooks whose command it trusts`,
      ),
    )
    expect(out[2]).toBe('registered `bookmark mcp` as Codex\'s MCP server "bookmark" ([mcp_servers.bookmark])')

    const hooks = JSON.parse(await readFile(join(codex, 'hooks.json'), 'utf8')) as { description: string; hooks: Record<string, { hooks: object[] }[]> }
    expect(hooks.description).toBe('mine')
    expect(hooks.hooks.Stop![0]).toEqual({ hooks: [{ type: 'command', command: 'echo user' }] }) // the user's group first, as it was
    const toml = await readFile(join(codex, 'config.toml'), 'utf8')
    expect(toml.startsWith(`${USER_TOML}\n\n`)).toBe(true)
    for (const [event, label, hook, timeout] of EVENTS) {
      const group = event === 'Stop' ? 1 : 0
      expect(hooks.hooks[event]![group]).toEqual({ hooks: [{ type: 'command', command: line(hook), timeout }] })
      const hash = codexHookHash(event, undefined, { command: line(hook), timeout })
      expect(toml).toContain(`${trustHeader(`${join(codex, 'hooks.json')}:${label}:${group}:0`)}\ntrusted_hash = "${hash}"\n`)
    }
    expect(toml).toContain(`[mcp_servers.bookmark]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(BIN)}, "mcp"]\n`)
    // The user's own Stop hook is not ours to trust.
    expect(toml).not.toContain(':stop:0:0')

    const again = await runCli(['setup', '--host', 'codex'], { env })
    expect(again.stdout).toBe(
      `already set up ${join(codex, 'hooks.json')}\nCodex trusts them already in ${join(codex, 'config.toml')} (SessionStart, UserPromptSubmit, PreCompact, Stop)\n`,
    )

    const u = await runCli(['uninstall', '--host', 'codex'], { env })
    expect(u.stdout).toMatch(
      /^removed 4 hooks from .*hooks\.json \(backup: .*\)\ntook the hooks' trust and the MCP server out of .*config\.toml \(backup: .*\)\n$/,
    )
    expect(await readFile(join(codex, 'hooks.json'), 'utf8')).toBe(USER_HOOKS)
    expect(await readFile(join(codex, 'config.toml'), 'utf8')).toBe(USER_TOML)
  })

  it('creates both files when there are none, and uninstall deletes them again', async () => {
    const r = await runCli(['setup', '--host', 'codex'], { env })
    expect(r.stdout).toContain('(new file)')
    const u = await runCli(['uninstall', '--host', 'codex'], { env })
    expect(u.stdout).toContain('deleted it (setup had created it)')
    expect(existsSync(codex) ? await readdir(codex) : []).toEqual([])
  })

  it('the hook line it writes runs as Codex runs it (bash -c, in the session folder)', async () => {
    await runCli(['setup', '--host', 'codex'], { env })
    const hooks = JSON.parse(await readFile(join(codex, 'hooks.json'), 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> }
    const project = await gitRepo(join(sb.dir, 'proj'))
    const payload = {
      session_id: 's1',
      transcript_path: null,
      cwd: project,
      hook_event_name: 'SessionStart',
      model: 'gpt-5.5',
      permission_mode: 'default',
      source: 'startup',
    }
    const command = hooks.hooks.SessionStart![0]!.hooks[0]!.command
    const out = execFileSync('/bin/bash', ['-c', command], { cwd: project, env, input: JSON.stringify(payload), encoding: 'utf8' })
    // Nothing captured yet in this project: a restore with nothing to say prints nothing (not even an empty object).
    expect(out).toBe('')
  })

  it('doctor says when Codex would skip a hook: a changed command, no trust', async () => {
    await runCli(['setup', '--host', 'codex'], { env })
    const ok = await runCli(['doctor'], { env })
    expect(ok.stdout).toContain(
      `✔ codex-hooks Codex CLI hooks wired for SessionStart, UserPromptSubmit, PreCompact, Stop in ${join(codex, 'hooks.json')}, trusted in`,
    )
    const file = join(codex, 'hooks.json')
    await writeFile(file, (await readFile(file, 'utf8')).replace('restore --host codex', 'restore --host codex '))
    const toml = join(codex, 'config.toml')
    await writeFile(toml, (await readFile(toml, 'utf8')).replace(/\[hooks\.state\.[^\n]*:stop:0:0"\]\ntrusted_hash = "[^"]*"\n/, ''))
    const bad = await runCli(['doctor'], { env })
    expect(bad.code).toBe(1)
    expect(bad.stdout).toContain(`Codex skips the SessionStart hook in ${file}: its command or timeout changed since it was trusted (${toml})`)
    expect(bad.stdout).toContain(`Codex skips the Stop hook in ${file}: config.toml does not trust it (${toml})`)
    // setup puts its own command back and trusts it.
    await runCli(['setup', '--host', 'codex'], { env })
    expect((await runCli(['doctor'], { env })).stdout).toContain('✔ codex-hooks')
  })

  /** Our handler of `event` (group 0 after a fresh setup) runs `command` instead, trusted as Codex would trust it. */
  async function rewire(event: 'Stop' | 'SessionStart', command: string, timeout: number): Promise<void> {
    const file = join(codex, 'hooks.json')
    const hooks = JSON.parse(await readFile(file, 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> }
    hooks.hooks[event]![0]!.hooks[0]!.command = command
    await writeFile(file, JSON.stringify(hooks, null, 2))
    const toml = join(codex, 'config.toml')
    const key = trustHeader(`${file}:${event === 'Stop' ? 'stop' : 'session_start'}:0:0`)
    const text = await readFile(toml, 'utf8')
    const at = text.indexOf(key)
    expect(at).toBeGreaterThanOrEqual(0)
    const hash = codexHookHash(event, undefined, { command, timeout })
    await writeFile(toml, text.slice(0, at) + text.slice(at).replace(/trusted_hash = "[^"]*"/, `trusted_hash = "${hash}"`))
  }

  const codexChecks = async (): Promise<{ status: string; message: string }[]> =>
    (JSON.parse((await runCli(['doctor', '--json'], { env })).stdout) as { checks: { id: string; status: string; message: string }[] }).checks
      .filter((c) => c.id === 'codex-hooks')
      .map(({ status, message }) => ({ status, message }))

  it("doctor runs each hook as Codex does and holds its answer to Codex's schema, trusted or not", async () => {
    await runCli(['setup', '--host', 'codex'], { env })
    const file = join(codex, 'hooks.json')
    // Run for real: SessionStart, UserPromptSubmit, Stop (captures), PreCompact (the compact resume), a new SessionStart (restores).
    expect(await codexChecks()).toEqual([{ status: 'ok', message: expect.stringContaining('Codex CLI hooks wired for') }])

    // A Stop that answers as for Claude Code, trusted: only running it tells that Codex would drop its answer.
    const fake = join(sb.dir, 'other', 'bin', 'bookmark.cjs')
    await mkdir(join(sb.dir, 'other', 'bin'), { recursive: true })
    await writeFile(fake, "process.stdout.write(JSON.stringify({ decision: 'block', reason: 'r', hookSpecificOutput: { hookEventName: 'Stop' } }))\n")
    await rewire('Stop', `${[process.execPath, '-e', GUARD, fake].map(shellQuote).join(' ')} stop --host codex`, 60)
    expect(await codexChecks()).toEqual([
      {
        status: 'error',
        message: `Stop in ${file}, run as Codex CLI runs it, answered with hookSpecificOutput, which Codex's Stop schema does not allow: Codex drops the whole answer`,
      },
    ])

    // Our Stop wired as for Claude Code: it reads the rollout as a Claude Code transcript, which yields no file.
    await rewire('Stop', line('stop').replace(' --host codex', ''), 60)
    expect(await codexChecks()).toEqual([
      { status: 'warn', message: `Stop in ${file} runs bookmark as if for Claude Code` },
      {
        status: 'error',
        message: `Stop in ${file}, run as Codex CLI runs it, ran, but did not read the rollout (its capture misses the file the session created): is it wired with \`--host codex\`?`,
      },
    ])

    // An entry that is gone is said as such (and not run).
    const gone = join(sb.dir, 'gone', 'bin', 'bookmark.cjs')
    await rewire('SessionStart', `${[process.execPath, '-e', GUARD, gone].map(shellQuote).join(' ')} restore --host codex`, 15)
    await rewire('Stop', line('stop'), 60)
    expect(await codexChecks()).toEqual([{ status: 'error', message: `SessionStart in ${file} runs ${gone}, which is not there: the hook does nothing` }])
  })

  it('uninstall warns when a trusted hook after ours moves up (Codex keys trust by position)', async () => {
    await runCli(['setup', '--host', 'codex'], { env })
    const file = join(codex, 'hooks.json')
    const hooks = JSON.parse(await readFile(file, 'utf8')) as { hooks: Record<string, object[]> }
    hooks.hooks.Stop!.push({ hooks: [{ type: 'command', command: 'echo later' }] })
    await writeFile(file, JSON.stringify(hooks, null, 2))
    const toml = join(codex, 'config.toml')
    await writeFile(toml, `${await readFile(toml, 'utf8')}\n${trustHeader(`${file}:stop:1:0`)}\ntrusted_hash = "sha256:x"\n`)
    const u = await runCli(['uninstall', '--host', 'codex'], { env })
    expect(u.stdout).toContain(
      `note: Codex keys hook trust by position: trusted hooks after bookmark's moved up (${file}:stop:1:0); Codex skips it until you trust it again (/hooks)`,
    )
  })

  it('refuses --project: Codex reads its hooks from CODEX_HOME', async () => {
    const r = await runCli(['setup', '--host', 'codex', '--project'], { env })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('--project wires Claude Code only')
  })
})

describe('bookmark setup without --host', () => {
  it('wires Claude Code only when Codex is nowhere (no codex on PATH, no CODEX_HOME, no ~/.codex)', async () => {
    const r = await runCli(['setup'], { env: sb.env })
    expect(r.code).toBe(0)
    expect(r.stdout).not.toContain('Codex')
    expect(existsSync(join(sb.home, '.codex'))).toBe(false)
  })

  it('wires Codex CLI too when `codex` is on PATH, and says why', async () => {
    const bin = join(sb.dir, 'bin', 'codex')
    await writeFile(bin, '#!/bin/sh\necho "codex-cli 0.171.0"\n')
    await chmod(bin, 0o755)
    const r = await runCli(['setup'], { env: sb.env })
    const lines = r.stdout.split('\n')
    expect(lines[0]).toMatch(/^wired 4 hooks into .*\/\.claude\/settings\.json/)
    expect(lines).toContain(`Codex CLI found (\`codex\` on PATH (${bin})):`)
    expect(r.stdout).toMatch(new RegExp(`wired 4 hooks into ${join(sb.home, '.codex', 'hooks.json')}`))
    expect(existsSync(join(sb.home, '.codex', 'config.toml'))).toBe(true)
  })
})
