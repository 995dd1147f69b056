import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { CONFIG_KEYS, KEYS } from '../src/config/keys.js'
import { type Sandbox, gitProject, runCli, sandbox } from './helpers/cli.js'
import { stateDir } from './helpers/narrative.js'

let sb: Sandbox
let project: string

const values = async (env = sb.env) =>
  JSON.parse((await runCli(['config', '--json'], { env, cwd: project })).stdout).values as Record<string, { value: number; source: string }>

beforeEach(async () => {
  sb = await sandbox()
  project = await gitProject(sb)
})

describe('bookmark config', () => {
  it('prints every key with its value and source', async () => {
    const v = await values()
    expect(Object.keys(v)).toEqual(CONFIG_KEYS)
    for (const k of CONFIG_KEYS) expect(v[k]).toMatchObject({ value: KEYS[k].default, source: 'default' })
    const text = (await runCli(['config'], { env: sb.env, cwd: project })).stdout
    for (const k of CONFIG_KEYS) expect(text).toMatch(new RegExp(`^${k}\\s+\\S+\\s+default`, 'm'))
    expect(text).toContain('precedence: default < global < project < env < flag')
  })

  it('layers: defaults < global < project < environment', async () => {
    expect((await runCli(['config', '--interval', '10'], { env: sb.env, cwd: project })).code).toBe(0)
    expect(JSON.parse(await readFile(join(sb.env.BOOKMARK_HOME!, 'config.json'), 'utf8'))).toEqual({ version: 1, values: { interval: 10 } })
    expect((await values()).interval).toMatchObject({ value: 10, source: 'global' })
    expect((await runCli(['config', '--project', '--set', 'interval=20', '--set', 'restoreBudget=8000'], { env: sb.env, cwd: project })).code).toBe(0)
    expect(JSON.parse(await readFile(join(await stateDir(sb.env.BOOKMARK_HOME!, project), 'config.json'), 'utf8'))).toEqual({
      version: 1,
      values: { interval: 20, restoreBudget: 8000 },
    })
    expect((await values()).interval).toMatchObject({ value: 20, source: 'project' })
    expect((await values({ ...sb.env, BOOKMARK_INTERVAL: '3' })).interval).toMatchObject({ value: 3, source: 'env' })
    expect((await runCli(['config', '--project', '--unset', 'interval'], { env: sb.env, cwd: project })).code).toBe(0)
    expect((await values()).interval).toMatchObject({ value: 10, source: 'global' })
    expect((await values()).restoreBudget).toMatchObject({ value: 8000, source: 'project' })
  })

  it.each([
    [['--interval', 'abc'], /interval must be a whole number \(minutes\) from 1 to 1440, got "abc"/],
    [['--interval', '0'], /interval must be from 1 to 1440 minutes, got 0/],
    [['--set', 'restoreBudget=20000'], /restoreBudget must be from 500 to 10000 characters, got 20000/],
    [['--set', 'colour=blue'], /unknown config key "colour"/],
    [['--set', 'interval'], /--set expects key=value/],
    [['--unset', 'nope'], /unknown config key "nope"/],
  ])('rejects %j with a clear error', async (args, message) => {
    const r = await runCli(['config', ...args], { env: sb.env, cwd: project })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(message)
  })

  it('a bad value in a file or the environment is reported and ignored, never fatal', async () => {
    await mkdir(sb.env.BOOKMARK_HOME!, { recursive: true })
    await writeFile(join(sb.env.BOOKMARK_HOME!, 'config.json'), JSON.stringify({ version: 1, values: { interval: -4, mystery: 1 } }))
    const r = JSON.parse((await runCli(['config', '--json'], { env: { ...sb.env, BOOKMARK_CONTEXT_THRESHOLD: 'lots' }, cwd: project })).stdout)
    expect(r.values.interval).toMatchObject({ value: 5, source: 'default' })
    expect(r.values.contextThreshold).toMatchObject({ value: 0.75, source: 'default' })
    expect(r.problems.join('\n')).toMatch(/interval must be from 1 to 1440/)
    expect(r.problems.join('\n')).toMatch(/unknown key "mystery"/)
    expect(r.problems.join('\n')).toMatch(/contextThreshold must be a number/)
  })
})

describe('bookmark config outside any project', () => {
  it('in the home folder lists no project file and labels nothing "project"', async () => {
    const sb = await sandbox()
    await stateDir(sb.env.BOOKMARK_HOME!, sb.home) // a bookmark home with a key, as after any capture
    const r = await runCli(['config', '--json'], { env: sb.env, cwd: sb.home })
    expect(r.code, r.stderr).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out.files.project).toBeUndefined()
    expect(Object.values(out.values).map((v) => (v as { source: string }).source)).not.toContain('project')
    const text = (await runCli(['config'], { env: sb.env, cwd: sb.home })).stdout
    expect(text).toContain('project: (none)')
  })
})
