/**
 * The form of the hooks setup writes (exec from Claude Code 2.1.139, shell before and when unknown), the
 * guard that makes a hook whose package is gone exit 0 silently, and doctor running the hooks the way
 * the installed version would. Against the built CLI (run `npm run build` first), in a private HOME.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { HOOK_TABLE } from '../src/hooks/table.js'
import { GUARD, desiredHandler, hookEntry, ourHookName, shellQuote, shellWords } from '../src/setup/hooks.js'
import { type Run, type Sandbox, fakeClaude, gitProject, runCli, sandbox } from './helpers/cli.js'
import { REPO_ROOT } from './helpers/corpus.js'
import { assistantText, call, jsonl, prompt } from './helpers/jsonl.js'

type Handler = { type: string; command: string; args?: string[]; timeout?: number }
type Hooks = Record<string, { hooks: Handler[] }[]>

let sb: Sandbox
let settings: string
let project: string

beforeEach(async () => {
  sb = await sandbox()
  settings = join(sb.env.CLAUDE_CONFIG_DIR!, 'settings.json')
  project = await gitProject(sb)
})

const hooksOf = async (): Promise<Hooks> => (JSON.parse(await readFile(settings, 'utf8')) as { hooks: Hooks }).hooks

/** Runs a handler as Claude Code would: exec form spawned with its args, shell form through `sh -c`. */
function runHandler(h: Handler, payload: object, cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = h.args ? spawn(h.command, h.args, { cwd, env }) : spawn('/bin/sh', ['-c', h.command], { cwd, env })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c))
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(JSON.stringify(payload))
  })
}

/** A copy of the built package in a folder whose name needs quoting, with its dependencies linked in. */
async function packageCopy(): Promise<string> {
  const dir = join(sb.dir, `my "tools" & it's here`, 'session-bookmark')
  await mkdir(dir, { recursive: true })
  for (const part of ['bin', 'dist', 'templates', 'package.json']) await cp(join(REPO_ROOT, part), join(dir, part), { recursive: true })
  await symlink(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'))
  return dir
}

async function session(): Promise<{ transcript: string; sessionId: string }> {
  const sessionId = '9b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8'
  const transcript = join(sb.dir, `${sessionId}.jsonl`)
  await writeFile(
    transcript,
    jsonl([
      prompt('Write the parser for the log format', { cwd: project, sessionId }),
      call('t1', 'Write', { file_path: join(project, 'parser.ts'), content: 'x' }, { type: 'create' }, { cwd: project, sessionId }),
      assistantText('Wrote parser.ts.', { cwd: project, sessionId }),
    ]),
  )
  return { transcript, sessionId }
}

describe('the handler setup writes', () => {
  it('quotes every word of the shell form so sh reads back exactly the words of the exec form', () => {
    const launch = { node: '/opt/node 20/bin/node', entry: `/home/o'neil/my "tools"/bin/bookmark.cjs` }
    const exec = desiredHandler('Stop', { ...launch, form: 'exec' }) as Handler
    const shell = desiredHandler('Stop', { ...launch, form: 'shell' }) as Handler
    expect(exec).toEqual({ type: 'command', command: launch.node, args: ['-e', GUARD, launch.entry, 'stop'], timeout: 60 })
    expect(shell.args).toBeUndefined()
    expect(shellWords(shell.command)).toEqual([launch.node, '-e', GUARD, launch.entry, 'stop'])
    for (const h of [exec, shell]) {
      expect(ourHookName(h)).toBe('stop')
      expect(hookEntry(h)).toBe(launch.entry)
    }
    expect(shellQuote('/usr/bin/node')).toBe('/usr/bin/node')
    expect(shellQuote("it's")).toBe(`'it'\\''s'`)
    // Older installs' shapes stay ours; another tool's `-e` script is not.
    expect(ourHookName({ type: 'command', command: 'node', args: ['/x/bin/bookmark.cjs', 'check'] })).toBe('check')
    expect(ourHookName({ type: 'command', command: 'node', args: ['-e', 'x', '/x/bin/other.cjs', 'check'] })).toBeUndefined()
    expect(GUARD).not.toMatch(/[$'`]/)
  })

  it('templates/settings.hooks.json is exactly what setup writes in the exec form', async () => {
    const template = JSON.parse(await readFile(join(REPO_ROOT, 'templates', 'settings.hooks.json'), 'utf8')) as { hooks: Hooks }
    const launch = { node: '{{node}}', entry: '{{entry}}', form: 'exec' as const }
    for (const event of ['SessionStart', 'UserPromptSubmit', 'PreCompact', 'Stop'] as const)
      expect(template.hooks[event]).toEqual([{ hooks: [desiredHandler(event, launch)] }])
  })

  it('the plugin manifest and the per-hook entries follow the hook table', async () => {
    const plugin = JSON.parse(await readFile(join(REPO_ROOT, 'hooks', 'hooks.json'), 'utf8')) as { hooks: Record<string, { hooks: Handler[] }[]> }
    expect(Object.keys(plugin.hooks)).toEqual(HOOK_TABLE.map((h) => h.event))
    for (const h of HOOK_TABLE) {
      expect(plugin.hooks[h.event]).toEqual([
        { hooks: [{ type: 'command', command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/bin/bookmark.cjs', h.name], timeout: h.timeout }] },
      ])
      expect(existsSync(join(REPO_ROOT, 'src', 'cli', `hook-${h.name}.ts`)), h.name).toBe(true)
    }
  })

  it('is the exec form for Claude Code 2.1.139 and later, the shell form before and when no claude answers', async () => {
    const form = async (): Promise<{ form: string; claude: string | null; notes: string[] }> => {
      const r = await runCli(['setup', '--json'], { env: sb.env })
      expect(r.code, r.stderr).toBe(0)
      return JSON.parse(r.stdout) as { form: string; claude: string | null; notes: string[] }
    }
    await fakeClaude(sb, '2.1.139')
    expect(await form()).toMatchObject({ form: 'exec', claude: '2.1.139', notes: [] })
    expect((await hooksOf()).Stop![0]!.hooks[0]!.args).toHaveLength(4)
    await fakeClaude(sb, '2.1.138')
    const old = await form()
    expect(old).toMatchObject({ form: 'shell', claude: '2.1.138' })
    expect(old.notes).toEqual(['Claude Code 2.1.138 runs only shell-form hooks (exec form needs 2.1.139): wrote that form (later versions run it too)'])
    const hooks = await hooksOf()
    for (const [event, hook] of [
      ['SessionStart', 'restore'],
      ['UserPromptSubmit', 'check'],
      ['PreCompact', 'precompact'],
      ['Stop', 'stop'],
    ] as const) {
      expect(hooks[event]).toHaveLength(1)
      const h = hooks[event]![0]!.hooks[0]!
      expect(h.args).toBeUndefined()
      expect(shellWords(h.command).slice(1)).toEqual(['-e', GUARD, join(REPO_ROOT, 'bin', 'bookmark.cjs'), hook])
    }
    await fakeClaude(sb, null)
    const unknown = await form()
    expect(unknown).toMatchObject({ form: 'shell', claude: null })
    expect(unknown.notes[0]).toMatch(/no `claude` on PATH answered --version: wrote shell-form hooks/)
    const forced = JSON.parse((await runCli(['setup', '--json', '--hook-form', 'exec'], { env: sb.env })).stdout) as {
      form: string
      events: Record<string, string>
    }
    expect(forced.form).toBe('exec')
    expect(Object.values(forced.events)).toEqual(['updated', 'updated', 'updated', 'updated'])
    const bad = await runCli(['setup', '--hook-form', 'bash'], { env: sb.env })
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/--hook-form.*bash.*exec, shell/)
  })

  it('gives the settings back byte for byte after a shell-form setup', async () => {
    const before = '{\n  "model": "opus",\n  "hooks": {}\n}\n'
    await mkdir(sb.env.CLAUDE_CONFIG_DIR!, { recursive: true })
    await writeFile(settings, before)
    await fakeClaude(sb, '2.0.76')
    expect((await runCli(['setup'], { env: sb.env })).code).toBe(0)
    expect(await readFile(settings, 'utf8')).not.toBe(before)
    expect((await runCli(['uninstall'], { env: sb.env })).stdout).toMatch(/removed 4 hooks/)
    expect(await readFile(settings, 'utf8')).toBe(before)
  })
})

describe('a hook whose package is gone', () => {
  for (const form of ['exec', 'shell'] as const) {
    it(`captures from a folder that needs quoting, then exits 0 silently once the package is deleted (${form} form)`, async () => {
      const pkg = await packageCopy()
      const r = await runCli(['setup', '--hook-form', form], { env: sb.env, bin: join(pkg, 'bin', 'bookmark.cjs') })
      expect(r.code, r.stderr).toBe(0)
      const hooks = await hooksOf()
      const { transcript, sessionId } = await session()
      const payload = (event: string, extra: object): object => ({
        session_id: sessionId,
        transcript_path: transcript,
        cwd: project,
        hook_event_name: event,
        ...extra,
      })
      const stop = hooks.Stop![0]!.hooks[0]!
      expect(hookEntry(stop)).toBe(join(pkg, 'bin', 'bookmark.cjs'))
      const first = await runHandler(stop, payload('Stop', { stop_hook_active: false }), project, sb.env)
      expect(first.code, first.stderr).toBe(0)
      expect(await readdir(join(project, '.bookmark', 'snapshots'))).toHaveLength(1)
      const restored = await runHandler(
        hooks.SessionStart![0]!.hooks[0]!,
        payload('SessionStart', { source: 'startup', session_id: 'a1b2c3d4-0000-4000-8000-000000000001' }),
        project,
        sb.env,
      )
      expect(restored.code).toBe(0)
      expect(restored.stdout).toContain('parser.ts')

      await rm(join(sb.dir, `my "tools" & it's here`), { recursive: true })
      for (const [event, extra] of [
        ['SessionStart', { source: 'startup' }],
        ['UserPromptSubmit', { prompt: 'go on' }],
        ['PreCompact', { trigger: 'auto' }],
        ['Stop', { stop_hook_active: false }],
      ] as const) {
        const run = await runHandler(hooks[event]![0]!.hooks[0]!, payload(event, extra), project, sb.env)
        expect(run, event).toEqual({ code: 0, stdout: '', stderr: '' })
      }
      expect(await readdir(join(project, '.bookmark', 'snapshots'))).toHaveLength(1)
      // doctor (from an installed package) names the hooks and says how to clean up.
      const d = await runCli(['doctor', '--json'], { env: sb.env, cwd: project })
      const checks = (JSON.parse(d.stdout) as { checks: { status: string; message: string; fix?: string }[] }).checks.filter((c) => c.status === 'error')
      expect(checks).toHaveLength(4)
      expect(checks[0]!.message).toContain(`${join(pkg, 'bin', 'bookmark.cjs')}, which is not there: the hook does nothing`)
      expect(checks[0]!.fix).toMatch(/`bookmark setup` again .* or `bookmark uninstall`/)
    })
  }
})

describe('a hook line written before the guard ran the entry as a script', () => {
  // Until `bookmark setup` runs again, settings keep the older guard, which loads bin/bookmark.cjs with `require`.
  const OLD_GUARD = 'const f=process.argv[1];require("fs").existsSync(f)&&require(f)'

  it('still captures through the older line, and setup replaces that line with the current guard', async () => {
    const pkg = await packageCopy()
    const bin = join(pkg, 'bin', 'bookmark.cjs')
    expect((await runCli(['setup', '--hook-form', 'exec'], { env: sb.env, bin })).code).toBe(0)
    const written = JSON.parse(await readFile(settings, 'utf8')) as { hooks: Hooks }
    written.hooks.Stop![0]!.hooks[0]!.args = ['-e', OLD_GUARD, bin, 'stop']
    await writeFile(settings, JSON.stringify(written, null, 2))
    const { transcript, sessionId } = await session()
    const payload = { session_id: sessionId, transcript_path: transcript, cwd: project, hook_event_name: 'Stop', stop_hook_active: false }
    const run = await runHandler((await hooksOf()).Stop![0]!.hooks[0]!, payload, project, sb.env)
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toBe('')
    expect(await readdir(join(project, '.bookmark', 'snapshots'))).toHaveLength(1)
    expect((await runCli(['setup', '--hook-form', 'exec'], { env: sb.env, bin })).code).toBe(0)
    expect((await hooksOf()).Stop).toEqual([{ hooks: [{ type: 'command', command: process.execPath, args: ['-e', GUARD, bin, 'stop'], timeout: 60 }] }])
  })

  it('the current guard runs the entry as a script, not through the module loader', () => {
    // A require from `node -e` costs a hook several percent of a bare Node start (docs/BENCHMARKS.md).
    expect(GUARD).not.toMatch(/require\(f\)/)
    expect(GUARD).toContain('runInThisContext(')
  })
})

describe('doctor runs each wired hook as the installed Claude Code would', () => {
  it('passes hooks that work, and fails exec-form hooks under a version that ignores args', async () => {
    await fakeClaude(sb, '2.1.332')
    expect((await runCli(['setup'], { env: sb.env })).code).toBe(0)
    const json = async (): Promise<{ ok: boolean; checks: { id: string; status: string; message: string; fix?: string }[] }> =>
      JSON.parse((await runCli(['doctor', '--json'], { env: sb.env, cwd: project })).stdout)
    const good = await json()
    expect(good.checks.filter((c) => c.id === 'hooks' && c.status !== 'ok')).toEqual([])
    // The probe leaves nothing behind in the user's project or bookmark home.
    expect(await readdir(project)).toEqual(['.git'])

    await fakeClaude(sb, '2.0.76')
    const old = await json()
    expect(old.ok).toBe(false)
    const errors = old.checks.filter((c) => c.id === 'hooks' && c.status === 'error')
    expect(errors.map((c) => c.message.split(' ')[0]).sort()).toEqual(['PreCompact', 'SessionStart', 'Stop', 'UserPromptSubmit'])
    expect(errors[0]!.message).toMatch(
      /run as Claude Code 2\.0\.76 runs it, exited 1: SyntaxError.*\(Claude Code before 2\.1\.139 ignores "args" and runs .*node alone\)/,
    )
    expect(errors[0]!.fix).toMatch(/run `bookmark setup` again/)

    expect((await runCli(['setup'], { env: sb.env })).stdout).toMatch(/updated .*SessionStart updated/)
    expect((await json()).checks.filter((c) => c.id === 'hooks' && c.status !== 'ok')).toEqual([])
  })

  it('finds a hook that exits 0 but does nothing', async () => {
    await mkdir(sb.env.CLAUDE_CONFIG_DIR!, { recursive: true })
    const hollow = (hook: string, timeout: number): object => ({ hooks: [{ type: 'command', command: `true bookmark ${hook}`, timeout }] })
    await writeFile(
      settings,
      JSON.stringify({
        hooks: {
          SessionStart: [hollow('restore', 15)],
          UserPromptSubmit: [hollow('check', 15)],
          PreCompact: [hollow('precompact', 60)],
          Stop: [hollow('stop', 60)],
        },
      }),
    )
    const d = JSON.parse((await runCli(['doctor', '--json'], { env: sb.env, cwd: project })).stdout) as { checks: { status: string; message: string }[] }
    const messages = d.checks.filter((c) => c.status === 'error').map((c) => c.message)
    expect(messages).toContainEqual(expect.stringMatching(/^Stop in .* ran, but captured nothing/))
    expect(messages).toContainEqual(expect.stringMatching(/^PreCompact in .* ran, but captured nothing/))
  })
})
