/**
 * `bookmark setup` / `bookmark uninstall` and scripts/postinstall.mjs against the built CLI, in a
 * private HOME / CLAUDE_CONFIG_DIR / BOOKMARK_HOME (run `npm run build` first).
 */
import { spawn } from 'node:child_process'
import { constants, existsSync } from 'node:fs'
import { access, chmod, copyFile, lstat, mkdir, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { Readable } from 'node:stream'
import { defaultDeps } from '../src/shared/deps.js'
import { runUninstall } from '../src/setup/command.js'
import { GUARD } from '../src/setup/hooks.js'
import { inspectSettings } from '../src/setup/inspect.js'
import { type Run, type Sandbox, BIN, gitProject, runCli, sandbox } from './helpers/cli.js'
import { REPO_ROOT } from './helpers/corpus.js'

const EVENTS = { SessionStart: ['restore', 15], UserPromptSubmit: ['check', 15], PreCompact: ['precompact', 60], Stop: ['stop', 60] } as const
const ENTRY = BIN
const NODE = process.execPath
const POSTINSTALL = join(REPO_ROOT, 'scripts', 'postinstall.mjs')

let sb: Sandbox
let claudeDir: string
let settings: string

beforeEach(async () => {
  sb = await sandbox()
  claudeDir = sb.env.CLAUDE_CONFIG_DIR!
  settings = join(claudeDir, 'settings.json')
})

const setup = (args: string[] = [], cwd?: string): Promise<Run> => runCli(['setup', ...args], { env: sb.env, ...(cwd ? { cwd } : {}) })
const uninstall = (args: string[] = [], cwd?: string): Promise<Run> => runCli(['uninstall', ...args], { env: sb.env, ...(cwd ? { cwd } : {}) })

async function writeSettings(text: string): Promise<void> {
  await mkdir(claudeDir, { recursive: true })
  await writeFile(settings, text)
}

type Handler = { type: string; command: string; args?: string[]; timeout?: number }
type Hooks = Record<string, { matcher?: string; hooks: Handler[] }[]>

async function hooksOf(path = settings): Promise<Hooks> {
  return (JSON.parse(await readFile(path, 'utf8')) as { hooks: Hooks }).hooks
}

const ours = (event: keyof typeof EVENTS, node = NODE, entry = ENTRY): Handler => ({
  type: 'command',
  command: node,
  args: ['-e', GUARD, entry, EVENTS[event][0]],
  timeout: EVENTS[event][1],
})

async function backups(dir = claudeDir): Promise<string[]> {
  return (await readdir(dir)).filter((n) => n.includes('.bookmark-backup-'))
}

/** The permission rule user-scope setup adds so the model may write its handoff (docs/PERMISSIONS.md). */
const RULE = 'Edit(//**/.bookmark/bookmark.context.md)'
const ALLOWED = `allowed the model to write its handoff without asking (permissions.allow): ${RULE}\n`

const OTHER = { type: 'command', command: '/usr/local/bin/other-tool', args: ['hook', 'x'], timeout: 5 }

/** Odd but valid formatting: 4-space indent, compact arrays, unicode escapes, unusual key order, other tools' hooks. */
const RICH = [
  '{',
  '    "permissions": {"allow": ["Bash(git *)","Read"], "deny": [ ]},',
  '    "env": { "GREETING": "caf\\u00e9 \\ud83d\\ude00", "PATHS": "a\\/b" },',
  '    "hooks": {',
  '        "Stop": [{"hooks": [{"type": "command", "command": "/usr/local/bin/other-tool", "args": ["hook", "x"], "timeout": 5}]}],',
  '        "SessionStart": [',
  '            {',
  '                "matcher": "startup",',
  '                "hooks": [ { "type": "command", "command": "echo hi" } ]',
  '            }',
  '        ],',
  '        "PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "fmt"}]}]',
  '    },',
  '    "zeta": 1.50, "alpha": [1,2,3],',
  '    "model": "opus"',
  '}',
  '',
].join('\n')

describe('bookmark setup', () => {
  it('creates a missing settings file and folder with the four hooks, exec form, timeouts in seconds', async () => {
    expect(existsSync(claudeDir)).toBe(false)
    const r = await setup()
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(`wired 4 hooks into ${settings} (new file)\n${ALLOWED}`)
    expect(JSON.parse(await readFile(settings, 'utf8')).permissions).toEqual({ allow: [RULE] })
    const hooks = await hooksOf()
    for (const event of Object.keys(EVENTS) as (keyof typeof EVENTS)[]) expect(hooks[event]).toEqual([{ hooks: [ours(event)] }])
    expect(Object.keys(hooks)).toEqual(Object.keys(EVENTS))
    expect((await stat(settings)).mode & 0o777).toBe(0o600)
    expect(await readFile(settings, 'utf8')).toMatch(/^\{\n {2}"hooks": \{\n {4}"SessionStart": \[\n/)
    expect(await backups()).toEqual([]) // nothing existed to back up
    expect(await readdir(claudeDir)).toEqual(['settings.json']) // no lock left behind
  })

  it("keeps other tools' hooks and every other key byte for byte, in the file's own indentation", async () => {
    await writeSettings(RICH)
    const r = await setup()
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(new RegExp(`^wired 4 hooks into ${settings} \\(backup: ${settings}\\.bookmark-backup-\\d{8}T\\d{6}\\.\\d{3}Z\\)\\n`))
    expect(r.stdout.split('\n')[1]).toBe(ALLOWED.trimEnd())
    const after = await readFile(settings, 'utf8')
    // Exactly the original bytes plus our text, laid out as JSON.stringify(…, null, 4) would at that depth,
    // and on one line inside the array the user wrote on one line.
    const block = (v: unknown, indent: string): string => JSON.stringify(v, null, 4).replace(/\n/g, `\n${indent}`)
    const inline = (v: unknown): string => JSON.stringify(v).replace(/":/g, '": ').replace(/,"/g, ', "')
    const expected = RICH.replace('"allow": ["Bash(git *)","Read"]', `"allow": ["Bash(git *)","Read",${JSON.stringify(RULE)}]`)
      .replace('"timeout": 5}]}],', `"timeout": 5}]},${inline({ hooks: [ours('Stop')] })}],`)
      .replace('            }\n        ],', `            },\n            ${block({ hooks: [ours('SessionStart')] }, '            ')}\n        ],`)
      .replace(
        '"command": "fmt"}]}]\n',
        `"command": "fmt"}]}],\n        "UserPromptSubmit": ${block([{ hooks: [ours('UserPromptSubmit')] }], '        ')},\n        "PreCompact": ${block([{ hooks: [ours('PreCompact')] }], '        ')}\n`,
      )
    expect(after).toBe(expected)
    const value = JSON.parse(after)
    const original = JSON.parse(RICH)
    expect(Object.keys(value)).toEqual(Object.keys(original))
    for (const k of Object.keys(original)) if (k !== 'hooks' && k !== 'permissions') expect(value[k]).toEqual(original[k])
    expect(after).toContain('"GREETING": "caf\\u00e9 \\ud83d\\ude00", "PATHS": "a\\/b"')
    expect(after).toContain(`"permissions": {"allow": ["Bash(git *)","Read",${JSON.stringify(RULE)}], "deny": [ ]},`)
    expect(after).toContain('"zeta": 1.50, "alpha": [1,2,3],')
    const hooks = value.hooks as Hooks
    expect(Object.keys(hooks)).toEqual(['Stop', 'SessionStart', 'PostToolUse', 'UserPromptSubmit', 'PreCompact'])
    expect(hooks.Stop).toEqual([{ hooks: [OTHER] }, { hooks: [ours('Stop')] }])
    expect(hooks.SessionStart).toEqual([original.hooks.SessionStart[0], { hooks: [ours('SessionStart')] }])
    expect(hooks.PostToolUse).toEqual(original.hooks.PostToolUse)
    // The backup holds the previous bytes.
    const [backup] = await backups()
    expect(await readFile(join(claudeDir, backup!), 'utf8')).toBe(RICH)
  })

  it('running it twice changes nothing the second time and says so', async () => {
    await writeSettings('{\n  "model": "opus"\n}\n')
    expect((await setup()).code).toBe(0)
    const first = await readFile(settings)
    const firstStat = await stat(settings)
    const again = await setup()
    expect(again.code).toBe(0)
    expect(again.stdout).toBe(`already set up ${settings}\n`)
    expect((await readFile(settings)).equals(first)).toBe(true)
    expect((await stat(settings)).mtimeMs).toBe(firstStat.mtimeMs)
    expect(await backups()).toHaveLength(1)
  })

  it.each([
    ['a // comment', '{\n  "model": "opus",\n  // my note\n  "theme": "dark"\n}\n', /is not valid JSON \(line 3, column 3: a comment/],
    ['a trailing comma', '{\n  "model": "opus",\n}\n', /is not valid JSON \(line 3, column 1: a trailing comma/],
  ])('refuses a file with %s and leaves it untouched', async (_name, text, message) => {
    await writeSettings(text)
    const before = await stat(settings)
    const r = await setup()
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).toContain(settings)
    expect(r.stderr).toMatch(message)
    expect(r.stderr).toMatch(/left untouched/)
    expect(await readFile(settings, 'utf8')).toBe(text)
    expect((await stat(settings)).mtimeMs).toBe(before.mtimeMs)
    expect(await readdir(claudeDir)).toEqual(['settings.json'])
  })

  it('refuses a read-only file (by its mode, even for root) and leaves it untouched', async () => {
    await writeSettings('{"model": "opus"}\n')
    await chmod(settings, 0o444)
    // As root, chmod does not stop writes (and an atomic rename would bypass it for anyone):
    // setup must refuse because of the mode itself. Show that the refusal is not the OS's doing.
    const osWouldAllow = await access(settings, constants.W_OK).then(
      () => true,
      () => false,
    )
    if (process.getuid?.() === 0) expect(osWouldAllow).toBe(true)
    const r = await setup()
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(new RegExp(`${settings} is read-only \\(mode 0444\\): left untouched`))
    expect(await readFile(settings, 'utf8')).toBe('{"model": "opus"}\n')
    expect((await stat(settings)).mode & 0o777).toBe(0o444)
    expect(await readdir(claudeDir)).toEqual(['settings.json'])
  })

  it('updates an older install in place (node moved, shell form) instead of adding duplicates', async () => {
    const oldNode = '/opt/old-node/bin/node'
    const oldEntry = '/opt/old/lib/node_modules/session-bookmark/bin/bookmark.cjs'
    const text = JSON.stringify(
      {
        theme: 'dark',
        hooks: {
          SessionStart: [{ hooks: [ours('SessionStart', oldNode, oldEntry)] }],
          UserPromptSubmit: [{ hooks: [OTHER, ours('UserPromptSubmit', oldNode, oldEntry)] }],
          PreCompact: [{ hooks: [ours('PreCompact', oldNode, oldEntry)] }],
          Stop: [{ hooks: [ours('Stop', oldNode, oldEntry)] }],
        },
      },
      null,
      2,
    )
    await writeSettings(text)
    const r = await setup()
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(new RegExp(`^updated ${settings}: SessionStart updated, UserPromptSubmit updated, PreCompact updated, Stop updated \\(backup: `))
    const after = await readFile(settings, 'utf8')
    // Only the two values changed, where they were; the permission rule came after them.
    expect(after.split(JSON.stringify(NODE)).join(JSON.stringify(oldNode)).split(JSON.stringify(ENTRY)).join(JSON.stringify(oldEntry))).toBe(
      text.replace(/\n}$/, `,\n  "permissions": {\n    "allow": [\n      ${JSON.stringify(RULE)}\n    ]\n  }\n}`),
    )
    const hooks = await hooksOf()
    expect(hooks.UserPromptSubmit).toEqual([{ hooks: [OTHER, ours('UserPromptSubmit')] }])
    expect(hooks.Stop).toEqual([{ hooks: [ours('Stop')] }])
    expect((await setup()).stdout).toBe(`already set up ${settings}\n`)
  })

  it('--project writes <project root>/.claude/settings.local.json, not the user settings', async () => {
    const project = await gitProject(sb)
    await mkdir(join(project, 'src'), { recursive: true })
    const r = await setup(['--project', '--json'], join(project, 'src'))
    expect(r.code).toBe(0)
    const local = join(project, '.claude', 'settings.local.json')
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'wired', path: local, scope: 'project', changed: true, dryRun: false })
    expect((await hooksOf(local)).Stop).toEqual([{ hooks: [ours('Stop')] }])
    // Project settings allow exactly this project's handoff, by its absolute path.
    const rule = `Edit(/${join(project, '.bookmark', 'bookmark.context.md')})`
    expect(JSON.parse(r.stdout).permissions).toEqual({ rules: [rule], added: [rule] })
    expect(JSON.parse(await readFile(local, 'utf8')).permissions).toEqual({ allow: [rule] })
    expect(existsSync(settings)).toBe(false)
    const out = await uninstall(['--project'], project)
    expect(out.stdout).toBe(`removed 4 hooks from ${local} and deleted it (setup had created it)\nremoved the handoff permission: ${rule}\n`)
    expect(existsSync(join(project, '.claude'))).toBe(false)
    const outside = await setup(['--project'], sb.home)
    expect(outside.code).toBe(1)
    expect(outside.stderr).toMatch(/is not a project/)
  })

  it('writes absolute commands that exist and run (empty stdin: exit 0)', async () => {
    expect((await setup()).code).toBe(0)
    const hooks = await hooksOf()
    const workdir = join(sb.dir, 'work')
    await mkdir(workdir)
    for (const event of Object.keys(EVENTS)) {
      const h = hooks[event]![0]!.hooks[0]!
      expect(isAbsolute(h.command)).toBe(true)
      expect(existsSync(h.command)).toBe(true)
      expect(h.args!.slice(0, 2)).toEqual(['-e', GUARD])
      expect(isAbsolute(h.args![2]!)).toBe(true)
      expect(existsSync(h.args![2]!)).toBe(true)
      const run = await new Promise<number | null>((done, fail) => {
        const child = spawn(h.command, h.args!, { env: sb.env, cwd: workdir, stdio: ['pipe', 'ignore', 'ignore'] })
        child.on('error', fail)
        child.on('close', done)
        child.stdin.end()
      })
      expect(run).toBe(0)
    }
    const seen = await inspectSettings(settings, sb.env)
    expect(seen.exists).toBe(true)
    expect(Object.values(seen.events).every((e) => e.wired && e.resolves)).toBe(true)
    expect(seen.events.Stop).toEqual({ wired: true, command: NODE, args: ['-e', GUARD, ENTRY, 'stop'], timeout: 60, resolves: true })
  })

  it('writes through a symlinked settings file (dotfiles) and keeps the link', async () => {
    const dotfiles = join(sb.dir, 'dotfiles')
    await mkdir(dotfiles)
    await writeFile(join(dotfiles, 'settings.json'), '{"model": "opus"}\n')
    await mkdir(claudeDir, { recursive: true })
    await symlink(join(dotfiles, 'settings.json'), settings)
    expect((await setup()).code).toBe(0)
    expect((await lstat(settings)).isSymbolicLink()).toBe(true)
    expect((await hooksOf(join(dotfiles, 'settings.json'))).Stop).toEqual([{ hooks: [ours('Stop')] }])
    expect((await uninstall()).code).toBe(0)
    expect(await readFile(join(dotfiles, 'settings.json'), 'utf8')).toBe('{"model": "opus"}\n')
  })

  it('two setups at once wire each hook once (the lock serialises them)', async () => {
    await writeSettings('{}\n')
    const [a, b] = await Promise.all([setup(), setup()])
    expect([a.code, b.code]).toEqual([0, 0])
    const outs = [a.stdout, b.stdout]
    expect(outs.filter((o) => o === `already set up ${settings}\n`)).toHaveLength(1)
    expect(outs.filter((o) => o.startsWith(`wired 4 hooks into ${settings}`))).toHaveLength(1)
    const hooks = await hooksOf()
    for (const event of Object.keys(EVENTS) as (keyof typeof EVENTS)[]) expect(hooks[event]).toEqual([{ hooks: [ours(event)] }])
  })

  it('allows the handoff write once; --dry-run and --json show the rule; a rule the user had stays after uninstall', async () => {
    const text = `{\n  "permissions": {\n    "allow": [${JSON.stringify(RULE)}]\n  }\n}\n`
    await writeSettings('{}')
    const dry = await setup(['--dry-run', '--json'])
    expect(JSON.parse(dry.stdout)).toMatchObject({ action: 'wired', dryRun: true, permissions: { rules: [RULE], added: [RULE] } })
    expect(JSON.parse(JSON.parse(dry.stdout).preview).permissions).toEqual({ allow: [RULE] })
    expect((await setup(['--dry-run'])).stdout).toContain(`would allow the model to write its handoff without asking (permissions.allow): ${RULE}\n`)
    expect(await readFile(settings, 'utf8')).toBe('{}')
    // The user wrote the same rule before setup: not added twice, not recorded as ours, kept by uninstall.
    await writeSettings(text)
    const r = await setup(['--json'])
    expect(JSON.parse(r.stdout).permissions).toEqual({ rules: [RULE], added: [] })
    expect(JSON.parse(await readFile(settings, 'utf8')).permissions).toEqual({ allow: [RULE] })
    const u = await uninstall(['--json'])
    expect(JSON.parse(u.stdout)).toMatchObject({ action: 'removed', removed: 4, rules: [] })
    expect(await readFile(settings, 'utf8')).toBe(text)
  })

  it('adds the rule to an install from before it (hooks only) and says what changed', async () => {
    await writeSettings('{}\n')
    await setup()
    const wired = JSON.parse(await readFile(settings, 'utf8'))
    delete wired.permissions
    await writeFile(settings, `${JSON.stringify(wired, null, 2)}\n`)
    const r = await setup()
    expect(r.stdout).toMatch(new RegExp(`^updated ${settings} \\(backup: [^)]+\\)\\n${ALLOWED.replace(/[()*/.]/g, '\\$&')}$`))
    expect(JSON.parse(await readFile(settings, 'utf8')).permissions).toEqual({ allow: [RULE] })
    expect((await uninstall()).code).toBe(0)
    expect(await readFile(settings, 'utf8')).toBe('{}\n')
  })

  it('--dry-run writes nothing and shows the text', async () => {
    await writeSettings('{}')
    const r = await setup(['--dry-run'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(new RegExp(`^would wire 4 hooks into ${settings}\\n`))
    expect(r.stdout).toContain('"precompact"')
    expect(await readFile(settings, 'utf8')).toBe('{}')
    expect(await readdir(claudeDir)).toEqual(['settings.json'])
  })
})

describe('bookmark uninstall', () => {
  it.each([
    ['a missing file', undefined],
    ['{}', '{}'],
    ['{} with a newline', '{}\n'],
    ['a rich file with other hooks in the same events', RICH],
    ['an empty hooks object', '{\n  "hooks": {},\n  "x": 1\n}\n'],
  ])('setup then uninstall leaves %s byte-identical', async (_name, text) => {
    if (text !== undefined) await writeSettings(text)
    expect((await setup()).code).toBe(0)
    const r = await uninstall()
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(new RegExp(`^removed 4 hooks from ${settings}`))
    if (text === undefined) {
      expect(existsSync(settings)).toBe(false)
      expect(existsSync(claudeDir)).toBe(false)
    } else {
      expect(await readFile(settings, 'utf8')).toBe(text)
    }
    expect(existsSync(join(sb.env.BOOKMARK_HOME!, 'setup-state.json'))).toBe(false)
    const again = await uninstall()
    expect(again.stdout).toBe(`no bookmark hooks in ${settings}\n`)
  })

  it("keeps the user's changes made after setup and removes only our handlers", async () => {
    await writeSettings('{}\n')
    await setup()
    const wired = JSON.parse(await readFile(settings, 'utf8'))
    wired.hooks.Stop.push({ hooks: [OTHER] })
    wired.model = 'opus'
    await writeFile(settings, JSON.stringify(wired, null, 2))
    const r = await uninstall(['--json'])
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'removed', removed: 4, deletedFile: false })
    expect(JSON.parse(await readFile(settings, 'utf8'))).toEqual({ hooks: { Stop: [{ hooks: [OTHER] }] }, model: 'opus' })
  })

  it('--purge refuses without a terminal or --yes, and deletes the stores with --yes', async () => {
    const project = await gitProject(sb)
    await mkdir(join(project, '.bookmark'), { recursive: true })
    await setup([], project)
    const before = await readFile(settings, 'utf8')
    const refused = await uninstall(['--purge'], project)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/--purge deletes .*: confirm in a terminal, or add --yes/)
    expect(await readFile(settings, 'utf8')).toBe(before)
    expect(existsSync(join(project, '.bookmark'))).toBe(true)
    const r = await uninstall(['--purge', '--yes'], project)
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(
      `removed 4 hooks from ${settings} and deleted it (setup had created it)\nremoved the handoff permission: ${RULE}\ndeleted ${join(project, '.bookmark')}\ndeleted ${sb.env.BOOKMARK_HOME}\n`,
    )
    expect(existsSync(join(project, '.bookmark'))).toBe(false)
    expect(existsSync(sb.env.BOOKMARK_HOME!)).toBe(false)
  })
})

describe('uninstall refusals', () => {
  it('never deletes a folder it did not fill, nor a bookmark home that holds HOME', async () => {
    const foreign = join(sb.dir, 'notes')
    await mkdir(foreign)
    await writeFile(join(foreign, 'todo.txt'), 'mine')
    const r = await runCli(['uninstall', '--purge', '--yes'], { env: { ...sb.env, BOOKMARK_HOME: foreign } })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/holds files bookmark did not write: --purge will not delete it/)
    expect(await readFile(join(foreign, 'todo.txt'), 'utf8')).toBe('mine')
    const atHome = await runCli(['uninstall', '--purge', '--yes'], { env: { ...sb.env, BOOKMARK_HOME: sb.home } })
    expect(atHome.code).toBe(1)
    expect(atHome.stderr).toMatch(/holds your home folder or the current folder/)
  })

  it('refuses to edit a settings file that is not valid JSON', async () => {
    await writeSettings('{"hooks": {}, /* x */}')
    const r = await uninstall()
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/is not valid JSON \(line 1, column 15: a comment/)
    expect(await readFile(settings, 'utf8')).toBe('{"hooks": {}, /* x */}')
  })
})

describe('uninstall --purge on a terminal (in process, with the question answered)', () => {
  it.each([
    [false, /cancelled: nothing was changed/],
    [true, undefined],
  ])('answer %s', async (answer, error) => {
    expect((await setup()).code).toBe(0)
    const before = await readFile(settings, 'utf8')
    const deps = defaultDeps(sb.env, () => undefined)
    const questions: string[] = []
    const confirm = async (q: string): Promise<boolean> => {
      questions.push(q)
      return answer
    }
    const run = runUninstall({ purge: true }, { cwd: sb.home, deps, stdin: Readable.from([]), confirm })
    if (error) {
      await expect(run).rejects.toThrow(error)
      expect(await readFile(settings, 'utf8')).toBe(before)
      expect(existsSync(sb.env.BOOKMARK_HOME!)).toBe(true)
    } else {
      await expect(run).resolves.toMatchObject({ action: 'removed', removed: 4, deletedFile: true, purged: [sb.env.BOOKMARK_HOME] })
      expect(existsSync(sb.env.BOOKMARK_HOME!)).toBe(false)
    }
    expect(questions).toEqual([`Remove bookmark's hooks from ${settings} and delete ${sb.env.BOOKMARK_HOME} (snapshots, narratives, registry)? [y/N] `])
  })
})

function postinstall(env: NodeJS.ProcessEnv, script = POSTINSTALL): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [script], { env, cwd: sb.home, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', fail)
    child.on('close', (code) => done({ code, stdout, stderr }))
  })
}

describe('scripts/postinstall.mjs', () => {
  it.each([
    ['CI is set', { CI: 'true', npm_config_global: 'true' }, /skipped hook setup \(CI is set\)/],
    ['the install is not global', { npm_config_global: 'false' }, /skipped hook setup \(not a global install\)/],
    ['the install is not global (unset)', {}, /skipped hook setup \(not a global install\)/],
    ['BOOKMARK_SKIP_SETUP=1', { BOOKMARK_SKIP_SETUP: '1', npm_config_global: 'true' }, /skipped hook setup \(BOOKMARK_SKIP_SETUP=1\)/],
  ])('skips when %s: one line, exit 0, nothing wired', async (_name, extra, message) => {
    const r = await postinstall({ ...sb.env, ...extra })
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(message)
    expect(r.stdout.trim().split('\n')).toHaveLength(1)
    expect(r.stdout).toMatch(/^session-bookmark: .*`(npx )?bookmark setup`/)
    expect(existsSync(claudeDir)).toBe(false)
  })

  it('wires the hooks on a global install', async () => {
    const r = await postinstall({ ...sb.env, npm_config_global: 'true' })
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(`session-bookmark: wired 4 hooks into ${settings} (new file)\n`)
    expect((await hooksOf()).Stop).toEqual([{ hooks: [ours('Stop')] }])
  })

  it('never fails the install: a broken settings file or a missing dist/ give one line and exit 0', async () => {
    await writeSettings('{ "a": 1, }')
    const broken = await postinstall({ ...sb.env, npm_config_global: 'true' })
    expect(broken.code).toBe(0)
    expect(broken.stdout).toMatch(/^session-bookmark: hooks not wired: .*is not valid JSON.*; fix that and run `bookmark setup`\n$/)
    expect(await readFile(settings, 'utf8')).toBe('{ "a": 1, }')
    const pkg = join(sb.dir, 'pkg')
    await mkdir(join(pkg, 'scripts'), { recursive: true })
    await mkdir(join(pkg, 'bin'), { recursive: true })
    await copyFile(POSTINSTALL, join(pkg, 'scripts', 'postinstall.mjs'))
    await copyFile(BIN, join(pkg, 'bin', 'bookmark.cjs'))
    const unbuilt = await postinstall({ ...sb.env, npm_config_global: 'true' }, join(pkg, 'scripts', 'postinstall.mjs'))
    expect(unbuilt.code).toBe(0)
    expect(unbuilt.stdout).toMatch(/^session-bookmark: skipped hook setup \(the package is not built: dist\/ is missing\)/)
  })
})
