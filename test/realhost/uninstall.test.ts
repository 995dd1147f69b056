/**
 * Issue 16 in the real host: the package installed globally from its tarball (dependencies from a local
 * registry on 127.0.0.1), hooks wired by its own `bookmark setup`, a session captured by Claude Code
 * 2.1.332; then `npm uninstall -g session-bookmark` WITHOUT `bookmark uninstall` (npm runs no uninstall
 * scripts, so the four entries stay in settings). The next session must see no hook error at all.
 */
import { execFile } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { mkdir, stat } from 'node:fs/promises'
import { delimiter, dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LocalRegistry, startRegistry } from '../helpers/registry.js'
import { tempDir } from '../helpers/tmp.js'
import { type FakeAnthropic, say, startFakeAnthropic, write } from './fake-anthropic.js'
import { CLAUDE_BIN, REPO_ROOT, type Line, type World, claudeStatus, createWorld, newSessionId, readJsonl, runClaude, transcriptPath } from './harness.js'

const run = promisify(execFile)
const claude = claudeStatus()
if (!claude.available) console.warn(`real-host uninstall test skipped: ${claude.why}`)

let fake: FakeAnthropic
let world: World
let registry: LocalRegistry
let prefix: string
let npmEnv: NodeJS.ProcessEnv

/** Hook outcomes Claude Code recorded that are not a success: errors, failed starts, non-zero exits. */
function hookTrouble(lines: Line[]): unknown[] {
  const out: unknown[] = []
  for (const l of lines) {
    const a = l.attachment as { type?: string } | undefined
    if (l.type === 'attachment' && a?.type && /^hook_/.test(a.type) && a.type !== 'hook_success' && a.type !== 'hook_additional_context') out.push(a)
    if (l.type === 'system' && l.subtype === 'stop_hook_summary' && ((l.hookErrors as unknown[] | undefined)?.length ?? 0) > 0) out.push(l)
    if (l.type === 'system' && typeof l.content === 'string' && /hook/i.test(l.content) && /error|fail|cannot find/i.test(l.content)) out.push(l)
  }
  return out
}

describe.skipIf(!claude.available)('real host: npm uninstall -g without bookmark uninstall (issue 16)', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    fake = await startFakeAnthropic()
    world = createWorld(fake, 'bm-realhost-npm-')
    const out = tempDir('bm-tgz-')
    const packed = await run('npm', ['pack', '--pack-destination', out, '--ignore-scripts'], {
      cwd: REPO_ROOT,
      timeout: 120_000,
      env: { ...process.env, npm_config_update_notifier: 'false' },
    })
    const tarball = join(out, packed.stdout.trim().split('\n').pop()!)
    await stat(tarball)
    registry = await startRegistry(join(REPO_ROOT, 'node_modules'), tempDir('bm-registry-'))
    prefix = join(world.root, 'prefix')
    await mkdir(prefix)
    // The user's PATH: the global prefix's bin and the Claude Code they run.
    npmEnv = {
      ...world.env,
      PATH: [join(prefix, 'bin'), dirname(CLAUDE_BIN), world.env.PATH].join(delimiter),
      npm_config_cache: join(world.root, 'npm-cache'),
      npm_config_prefix: prefix,
      npm_config_registry: registry.url,
      npm_config_proxy: 'http://127.0.0.1:9',
      npm_config_https_proxy: 'http://127.0.0.1:9',
      npm_config_noproxy: '127.0.0.1',
      npm_config_update_notifier: 'false',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      BOOKMARK_SKIP_SETUP: '1', // setup is run by hand below, as the README says
    }
    await run('npm', ['install', '-g', tarball], { cwd: world.root, env: npmEnv, timeout: 180_000 })
  }, 300_000)

  afterAll(async () => {
    await fake?.close()
    await registry?.close()
    world?.cleanup()
  })

  it('the installed package wires the hooks and a session is captured', async () => {
    const setup = await run(join(prefix, 'bin', 'bookmark'), ['setup', '--json'], { cwd: world.home, env: npmEnv })
    const result = JSON.parse(setup.stdout) as { form: string; claude: string; entry: string }
    expect(result).toMatchObject({ form: 'exec', claude: '2.1.332' })
    expect(result.entry).toBe(join(prefix, 'lib', 'node_modules', 'session-bookmark', 'bin', 'bookmark.cjs'))
    const sid = newSessionId()
    fake.script(write(join(world.proj, 'notes.md'), '# notes\n'), say('Wrote notes.md.'))
    await runClaude(world, 'Start a notes file.', { sessionId: sid })
    expect(readdirSync(join(world.proj, '.bookmark', 'snapshots')).length).toBeGreaterThan(0)
    expect(hookTrouble(readJsonl(transcriptPath(world, world.proj, sid)))).toEqual([])
  })

  it('after npm uninstall -g alone, the next session runs its four hooks with no error and captures nothing', async () => {
    await run('npm', ['uninstall', '-g', 'session-bookmark'], { cwd: world.root, env: npmEnv, timeout: 120_000 })
    expect(existsSync(join(prefix, 'lib', 'node_modules', 'session-bookmark'))).toBe(false)
    const settings = readFileSync(world.settingsPath, 'utf8')
    expect(settings.match(/bookmark\.cjs/g)).toHaveLength(4) // the entries are still there
    const before = readdirSync(join(world.proj, '.bookmark', 'snapshots')).sort()

    const sid = newSessionId()
    fake.clearScript()
    fake.script(write(join(world.proj, 'more.md'), 'more\n'), say('Wrote more.md.'))
    const r = await runClaude(world, 'Add more notes.', { sessionId: sid })
    expect(r.json.result).toBe('Wrote more.md.')
    expect(r.stderr).not.toMatch(/Cannot find module|hook/i)
    const lines = readJsonl(transcriptPath(world, world.proj, sid))
    expect(hookTrouble(lines)).toEqual([])
    expect(readdirSync(join(world.proj, '.bookmark', 'snapshots')).sort()).toEqual(before)
  })

  it('control: the same entries without the guard (as setup wrote them before) show hook errors in that session', async () => {
    const guarded = readFileSync(world.settingsPath, 'utf8')
    const settings = JSON.parse(guarded) as { hooks: Record<string, { hooks: { args: string[] }[] }[]> }
    for (const groups of Object.values(settings.hooks)) for (const h of groups[0]!.hooks) h.args = h.args.slice(2)
    writeFileSync(world.settingsPath, JSON.stringify(settings, null, 2))
    try {
      const sid = newSessionId()
      fake.clearScript()
      fake.script(say('Nothing to do.'))
      await runClaude(world, 'Anything left?', { sessionId: sid })
      expect(JSON.stringify(hookTrouble(readJsonl(transcriptPath(world, world.proj, sid))))).toContain('Cannot find module')
    } finally {
      writeFileSync(world.settingsPath, guarded)
    }
  })
})
