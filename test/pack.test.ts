/**
 * The published package: `npm pack`, then `npm install -g` of the tarball into a temporary prefix with a
 * temporary HOME. The postinstall wires the hooks and `bookmark doctor` is all green; with
 * BOOKMARK_SKIP_SETUP=1 nothing is wired. The dependencies come from a registry on 127.0.0.1 that serves
 * the repository's own node_modules (test/helpers/registry.ts), into an empty npm cache: the test needs
 * neither the network nor what this machine's npm cache happens to hold.
 */
import { execFile } from 'node:child_process'
import { mkdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GUARD } from '../src/setup/hooks.js'
import { claudeFreePath, writeFakeClaude } from './helpers/cli.js'
import { REPO_ROOT } from './helpers/corpus.js'
import { type LocalRegistry, startRegistry } from './helpers/registry.js'
import { tempDir } from './helpers/tmp.js'

const run = promisify(execFile)
// Where a request that misses the local registry would go: a closed port, so a leak fails the install.
const NOWHERE = 'http://127.0.0.1:9'
let tarball = ''
let registry: LocalRegistry | undefined

function localRegistry(): LocalRegistry {
  if (registry === undefined) throw new Error('the local registry is not running (beforeAll failed)')
  return registry
}

function cleanEnv(dir: string, home: string, prefix: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // No CI variable: the postinstall must see an ordinary global install.
  return {
    PATH: [join(prefix, 'bin'), join(dir, 'fakebin'), ...claudeFreePath()].join(':'), // a claude that answers 2.1.332, whatever the machine has
    HOME: home,
    npm_config_cache: join(dir, 'npm-cache'), // empty: every package comes from the local registry
    npm_config_proxy: NOWHERE,
    npm_config_https_proxy: NOWHERE,
    npm_config_noproxy: '127.0.0.1', // the local registry itself is reached directly
    npm_config_prefix: prefix,
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    ...extra,
  }
}

async function install(extra: Record<string, string> = {}) {
  const dir = tempDir('bm-pack-')
  const home = join(dir, 'home')
  const prefix = join(dir, 'prefix')
  await mkdir(home, { recursive: true })
  await writeFakeClaude(join(dir, 'fakebin'), '2.1.332')
  const env = cleanEnv(dir, home, prefix, extra)
  // --foreground-scripts: npm 11 hides install-script output otherwise.
  const r = await run('npm', ['install', '-g', '--registry', localRegistry().url, '--no-audit', '--no-fund', '--foreground-scripts', tarball], {
    env,
    cwd: dir,
    timeout: 180_000,
  })
  return { dir, home, prefix, env, output: `${r.stdout}\n${r.stderr}` }
}

describe('npm pack and a global install', () => {
  beforeAll(async () => {
    const out = tempDir('bm-tgz-')
    const r = await run('npm', ['pack', '--pack-destination', out, '--ignore-scripts'], {
      cwd: REPO_ROOT,
      timeout: 120_000,
      env: { ...process.env, npm_config_update_notifier: 'false' },
    })
    tarball = join(out, r.stdout.trim().split('\n').pop()!)
    await stat(tarball)
    registry = await startRegistry(join(REPO_ROOT, 'node_modules'), tempDir('bm-registry-'))
  }, 180_000)

  afterAll(async () => {
    await registry?.close()
  })

  it('wires the hooks from postinstall and doctor reports all green', async () => {
    const { home, prefix, env, output } = await install()
    expect(output).toMatch(/session-bookmark: .*wired/)
    expect(localRegistry().served).toEqual(expect.arrayContaining(['commander', 'fast-glob', '@nodelib/fs.stat']))
    const settings = JSON.parse(await readFile(join(home, '.claude', 'settings.json'), 'utf8'))
    const entry = join(prefix, 'lib', 'node_modules', 'session-bookmark', 'bin', 'bookmark.cjs')
    for (const [event, hook] of [
      ['SessionStart', 'restore'],
      ['UserPromptSubmit', 'check'],
      ['PreCompact', 'precompact'],
      ['Stop', 'stop'],
    ] as const) {
      expect(settings.hooks[event][0].hooks[0]).toMatchObject({ type: 'command', command: process.execPath, args: ['-e', GUARD, entry, hook] })
    }
    const project = join(home, 'work', 'app')
    await mkdir(project, { recursive: true })
    await run('git', ['init', '-q'], { cwd: project })
    const doctor = await run(join(prefix, 'bin', 'bookmark'), ['doctor', '--json'], { env, cwd: project })
    const report = JSON.parse(doctor.stdout)
    expect(report.checks.filter((c: { status: string }) => c.status === 'error' || c.status === 'warn')).toEqual([])
    expect(report.ok).toBe(true)
  }, 240_000)

  it('with BOOKMARK_SKIP_SETUP=1 wires nothing', async () => {
    const { home, output } = await install({ BOOKMARK_SKIP_SETUP: '1' })
    expect(output).toMatch(/session-bookmark: .*skipped.*BOOKMARK_SKIP_SETUP/)
    await expect(stat(join(home, '.claude', 'settings.json'))).rejects.toThrow()
  }, 240_000)
})
