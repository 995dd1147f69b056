import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { tempDir } from '../../test/helpers/tmp.js'
import { ensureState } from '../store/state-write.js'
import { CONFIG_KEYS, KEYS } from './keys.js'
import { type ConfigFile, globalConfigPath, isConfigFile, legacyProjectConfigPath, projectConfigPath, resolveConfig, sessionsOffOf } from './resolve.js'

let home: string // the bookmark home, never the real ~/.bookmark
let root: string // a project folder
let env: NodeJS.ProcessEnv

beforeEach(async () => {
  const base = tempDir('bm-resolve-')
  home = join(base, 'home', '.bookmark')
  root = join(base, 'proj')
  await mkdir(home, { recursive: true })
  await mkdir(root, { recursive: true })
  env = { HOME: join(base, 'home'), BOOKMARK_HOME: home }
})

const writeGlobal = (file: unknown) => writeFile(globalConfigPath(home), typeof file === 'string' ? file : JSON.stringify(file))

/** The project's config file, made where resolve looks for it (the project's folder in the home). */
async function writeProject(file: unknown): Promise<string> {
  const path = (await ensureState(home, root)).config
  await writeFile(path, typeof file === 'string' ? file : JSON.stringify(file))
  return path
}

describe('paths', () => {
  it('keeps the global file in the home and the legacy project file in the project', () => {
    expect(globalConfigPath('/h/.bookmark')).toBe('/h/.bookmark/config.json')
    expect(legacyProjectConfigPath('/work/app')).toBe('/work/app/.bookmark/config.json')
  })

  it('has no project file before the home has a key, then one in the project folder of the home', async () => {
    expect(await projectConfigPath(home, root)).toBeUndefined()
    const state = await ensureState(home, root)
    const path = await projectConfigPath(home, root)
    expect(path).toBe(join(state.dir, 'config.json'))
    expect(path!.startsWith(join(home, 'projects') + '/')).toBe(true)
    // Another project of the same home has a folder of its own.
    expect(await projectConfigPath(home, join(root, 'other'))).not.toBe(path)
  })
})

describe('isConfigFile and sessionsOffOf', () => {
  it.each([
    [{ version: 1, values: {} }, true],
    [{ values: { interval: 3 } }, true],
    [{ version: 1 }, false],
    [{ version: 1, values: null }, false],
    [{ version: 1, values: [] }, false],
    [{ version: 1, values: 'interval=3' }, false],
    [[], false],
    [null, false],
    ['{}', false],
  ] as const)('%j is a config file: %s', (v, yes) => {
    expect(isConfigFile(v)).toBe(yes)
  })

  it('keeps only the well-formed switched-off sessions', () => {
    expect(sessionsOffOf(undefined)).toEqual({})
    expect(sessionsOffOf({ version: 1, values: {} })).toEqual({})
    expect(sessionsOffOf({ version: 1, values: {}, sessionsOff: [] as unknown as Record<string, string> })).toEqual({})
    const file = { version: 1, values: {}, sessionsOff: { s1: '2026-01-01T00:00:00.000Z', s2: 5, s3: null } } as unknown as ConfigFile
    expect({ ...sessionsOffOf(file) }).toEqual({ s1: '2026-01-01T00:00:00.000Z' })
  })

  it('keeps a session called __proto__ as a plain entry', () => {
    const file = JSON.parse('{"version":1,"values":{},"sessionsOff":{"__proto__":"t1","constructor":"t2"}}') as ConfigFile
    const off = sessionsOffOf(file)
    expect(Object.keys(off)).toEqual(['__proto__', 'constructor'])
    expect(off['__proto__']).toBe('t1')
    expect(Object.getPrototypeOf(off)).toBeNull()
  })
})

describe('resolveConfig: where each value comes from', () => {
  it('gives every default, from "default", with no problems and no project file', async () => {
    const r = await resolveConfig({ bookmarkHome: home, projectRoot: root, env })
    for (const k of CONFIG_KEYS) {
      expect(r.config[k], k).toBe(KEYS[k].default)
      expect(r.sources[k], k).toBe('default')
    }
    expect(r.problems).toEqual([])
    expect(r.files).toEqual({ global: join(home, 'config.json') })
    expect(r.sessionsOff).toEqual({})
  })

  it('takes the global file over the default', async () => {
    await writeGlobal({ version: 1, values: { interval: 10, contextThreshold: '0.6' } })
    const r = await resolveConfig({ bookmarkHome: home, env })
    expect(r.config.interval).toBe(10)
    expect(r.sources.interval).toBe('global')
    expect(r.config.contextThreshold).toBe(0.6)
    expect(r.sources.contextThreshold).toBe('global')
    expect(r.config.restoreBudget).toBe(6000)
    expect(r.sources.restoreBudget).toBe('default')
    expect(r.problems).toEqual([])
  })

  it('takes the project file over the global one, key by key', async () => {
    await writeGlobal({ version: 1, values: { interval: 10, indexCap: 20 } })
    const projectFile = await writeProject({ version: 1, values: { interval: 20, restoreBudget: 8000 } })
    const r = await resolveConfig({ bookmarkHome: home, projectRoot: root, env })
    expect(r.files).toEqual({ global: join(home, 'config.json'), project: projectFile })
    expect([r.config.interval, r.sources.interval]).toEqual([20, 'project'])
    expect([r.config.restoreBudget, r.sources.restoreBudget]).toEqual([8000, 'project'])
    expect([r.config.indexCap, r.sources.indexCap]).toEqual([20, 'global'])
    expect([r.config.registryCap, r.sources.registryCap]).toEqual([500, 'default'])
  })

  it('reads no project file without a project root', async () => {
    await writeProject({ version: 1, values: { interval: 20 } })
    const r = await resolveConfig({ bookmarkHome: home, env })
    expect(r.files).toEqual({ global: join(home, 'config.json') })
    expect([r.config.interval, r.sources.interval]).toEqual([5, 'default'])
  })

  it('does not read a config file planted in the project (the pre-0.2 place)', async () => {
    await ensureState(home, root)
    await mkdir(join(root, '.bookmark'))
    await writeFile(legacyProjectConfigPath(root), JSON.stringify({ version: 1, values: { disable: 1, interval: 99 } }))
    const r = await resolveConfig({ bookmarkHome: home, projectRoot: root, env })
    expect([r.config.disable, r.sources.disable]).toEqual([0, 'default'])
    expect([r.config.interval, r.sources.interval]).toEqual([5, 'default'])
    expect(r.problems).toEqual([])
  })

  it('takes the environment over both files', async () => {
    await writeGlobal({ version: 1, values: { interval: 10 } })
    await writeProject({ version: 1, values: { interval: 20, staleWarnHours: 2 } })
    const r = await resolveConfig({
      bookmarkHome: home,
      projectRoot: root,
      env: { ...env, BOOKMARK_INTERVAL: '3', BOOKMARK_STALE_WARN_HOURS: '1.5', BOOKMARK_DISABLE: 'yes' },
    })
    expect([r.config.interval, r.sources.interval]).toEqual([3, 'env'])
    expect([r.config.staleWarnHours, r.sources.staleWarnHours]).toEqual([1.5, 'env'])
    expect([r.config.disable, r.sources.disable]).toEqual([1, 'env'])
  })

  it('treats an empty environment variable as unset', async () => {
    await writeGlobal({ version: 1, values: { interval: 10 } })
    const r = await resolveConfig({ bookmarkHome: home, env: { ...env, BOOKMARK_INTERVAL: '' } })
    expect([r.config.interval, r.sources.interval]).toEqual([10, 'global'])
    expect(r.problems).toEqual([])
  })

  it('reads only the variables of the keys (not the key names themselves)', async () => {
    const r = await resolveConfig({ bookmarkHome: home, env: { ...env, interval: '9', BOOKMARK_INTERVALS: '9' } })
    expect([r.config.interval, r.sources.interval]).toEqual([5, 'default'])
    expect(r.problems).toEqual([])
  })

  it('takes flags over the environment; an undefined flag leaves the layer below', async () => {
    const r = await resolveConfig({
      bookmarkHome: home,
      env: { ...env, BOOKMARK_INTERVAL: '3', BOOKMARK_INDEX_CAP: '7' },
      flags: { interval: '42', indexCap: undefined },
    })
    expect([r.config.interval, r.sources.interval]).toEqual([42, 'flag'])
    expect([r.config.indexCap, r.sources.indexCap]).toEqual([7, 'env'])
  })

  it('keeps the switched-off sessions of the project file, not of the global one', async () => {
    await writeGlobal({ version: 1, values: {}, sessionsOff: { g1: '2026-01-01T00:00:00.000Z' } })
    await writeProject({ version: 1, values: {}, sessionsOff: { p1: '2026-02-02T00:00:00.000Z' } })
    const r = await resolveConfig({ bookmarkHome: home, projectRoot: root, env })
    expect({ ...r.sessionsOff }).toEqual({ p1: '2026-02-02T00:00:00.000Z' })
  })
})

describe('resolveConfig: bad values are reported and ignored, never fatal', () => {
  it('keeps the layer below for a bad value, saying where and what is used instead', async () => {
    await writeGlobal({ version: 1, values: { interval: 10 } })
    const projectFile = await writeProject({ version: 1, values: { interval: -4, restoreBudget: 'lots' } })
    const r = await resolveConfig({ bookmarkHome: home, projectRoot: root, env: { ...env, BOOKMARK_INDEX_CAP: '0' } })
    expect([r.config.interval, r.sources.interval]).toEqual([10, 'global'])
    expect([r.config.restoreBudget, r.sources.restoreBudget]).toEqual([6000, 'default'])
    expect([r.config.indexCap, r.sources.indexCap]).toEqual([50, 'default'])
    expect(r.problems).toEqual([
      `${projectFile}: interval must be from 1 to 1440 minutes, got -4; using 10`,
      `${projectFile}: restoreBudget must be a whole number (characters) from 500 to 10000, got "lots"; using 6000`,
      'environment: indexCap must be from 1 to 10000 snapshots, got 0; using 50',
    ])
  })

  it('names unknown keys of files, and ignores unknown flags silently', async () => {
    await writeGlobal({ version: 1, values: { mystery: 1, constructor: 2, interval: 8 } })
    const r = await resolveConfig({ bookmarkHome: home, env, flags: { nonsense: 1 } as Record<string, unknown> })
    expect(r.config.interval).toBe(8)
    expect(r.problems).toEqual([
      `${join(home, 'config.json')}: unknown key "mystery" ignored`,
      `${join(home, 'config.json')}: unknown key "constructor" ignored`,
    ])
  })

  it('reports a null value rather than taking it as 0', async () => {
    await writeGlobal({ version: 1, values: { maxNarrativeBlocks: null } })
    const r = await resolveConfig({ bookmarkHome: home, env })
    expect([r.config.maxNarrativeBlocks, r.sources.maxNarrativeBlocks]).toEqual([1, 'default'])
    expect(r.problems).toEqual([`${join(home, 'config.json')}: maxNarrativeBlocks must be a whole number (blocks) from 0 to 20, got null; using 1`])
  })

  it('ignores a file that is not JSON, with one problem', async () => {
    await writeGlobal('{ "version": 1, "values": { "interval": 3 ')
    const r = await resolveConfig({ bookmarkHome: home, env })
    expect([r.config.interval, r.sources.interval]).toEqual([5, 'default'])
    expect(r.problems).toHaveLength(1)
    expect(r.problems[0]).toMatch(new RegExp(`^${escape(join(home, 'config.json'))} ignored: ${escape(join(home, 'config.json'))}: `))
    expect(r.problems[0]).not.toMatch(/\n/)
  })

  it('ignores a file of the wrong shape, saying so', async () => {
    await writeGlobal({ version: 1, values: [1, 2] })
    const r = await resolveConfig({ bookmarkHome: home, env })
    const path = join(home, 'config.json')
    expect(r.problems).toEqual([`${path} ignored: ${path}: unexpected shape`])
  })

  it('does not follow a symbolic link in place of the global file', async () => {
    const elsewhere = join(root, 'planted.json')
    await writeFile(elsewhere, JSON.stringify({ version: 1, values: { disable: 1 } }))
    await symlink(elsewhere, globalConfigPath(home))
    const r = await resolveConfig({ bookmarkHome: home, env })
    expect([r.config.disable, r.sources.disable]).toEqual([0, 'default'])
    expect(r.problems).toHaveLength(1)
    expect(r.problems[0]).toContain('is a symbolic link: not followed')
  })

  it('warns when content would be refused before it is warned about', async () => {
    await writeGlobal({ version: 1, values: { staleWarnHours: 48, staleRefuseHours: 12 } })
    const r = await resolveConfig({ bookmarkHome: home, env })
    expect([r.config.staleWarnHours, r.config.staleRefuseHours]).toEqual([48, 12])
    expect(r.problems).toEqual(['staleRefuseHours (12) is below staleWarnHours (48): content that old is refused'])
  })

  it('has no such warning when both are equal', async () => {
    const r = await resolveConfig({ bookmarkHome: home, env: { ...env, BOOKMARK_STALE_WARN_HOURS: '72' } })
    expect(r.problems).toEqual([])
  })
})

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
