/**
 * Another program (Claude Code, the user's editor) saves the settings file while setup or uninstall is
 * between its read and its write: the other program's change must survive. The lock only keeps other
 * bookmark processes out, so the writer is simulated in process: right after setup reads the file inside
 * its lock, the file is changed on disk, as a save at that moment would.
 */
import { existsSync } from 'node:fs'
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defaultDeps } from '../src/shared/deps.js'
import { runSetup, runUninstall } from '../src/setup/command.js'
import { type Sandbox, sandbox } from './helpers/cli.js'

/** Called after each read of a settings file by setup or uninstall while their lock is held. */
let onLockedRead: ((path: string) => Promise<void>) | undefined

vi.mock('../src/setup/settings.js', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../src/setup/settings.js')>()
  return {
    ...orig,
    readSettings: async (path: string) => {
      const file = await orig.readSettings(path)
      if (onLockedRead && existsSync(`${path}.bookmark.lock`)) await onLockedRead(path)
      return file
    },
  }
})

let sb: Sandbox
let settings: string
const ctx = () => ({ cwd: sb.home, deps: defaultDeps(sb.env, () => undefined) })
const uctx = () => ({ ...ctx(), stdin: Readable.from([]) })

beforeEach(async () => {
  sb = await sandbox()
  settings = join(sb.env.CLAUDE_CONFIG_DIR!, 'settings.json')
  await mkdir(sb.env.CLAUDE_CONFIG_DIR!, { recursive: true })
})
afterEach(() => {
  onLockedRead = undefined
})

/** A writer that saves the file once, the way Claude Code does: its own parse, one key set, the whole file written. */
function saveOnce(key: string, value: unknown): (path: string) => Promise<void> {
  let done = false
  return async (path) => {
    if (done) return
    done = true
    const text = existsSync(path) ? await readFile(path, 'utf8') : '{}'
    await writeFile(path, JSON.stringify({ ...JSON.parse(text), [key]: value }, null, 2))
  }
}

const parsed = async (): Promise<{ hooks?: Record<string, unknown[]> } & Record<string, unknown>> => JSON.parse(await readFile(settings, 'utf8'))
const backups = async (): Promise<string[]> => (await readdir(sb.env.CLAUDE_CONFIG_DIR!)).filter((n) => n.includes('.bookmark-backup-'))

describe("a change saved by another program between setup's read and its write", () => {
  it('setup keeps it: the edit is applied again to what is on disk now', async () => {
    await writeFile(settings, '{\n  "theme": "dark"\n}\n')
    onLockedRead = saveOnce('model', 'sonnet')
    const r = await runSetup({}, ctx())
    expect(r.action).toBe('wired')
    const after = await parsed()
    expect(after.model).toBe('sonnet')
    expect(after.theme).toBe('dark')
    expect(Object.keys(after.hooks ?? {})).toEqual(['SessionStart', 'UserPromptSubmit', 'PreCompact', 'Stop'])
    // One backup, of the bytes setup replaced (the other program's), none of the abandoned attempt.
    const [backup, ...more] = await backups()
    expect(more).toEqual([])
    expect(JSON.parse(await readFile(join(sb.env.CLAUDE_CONFIG_DIR!, backup!), 'utf8'))).toEqual({ theme: 'dark', model: 'sonnet' })
  })

  it('setup keeps a file created by another program where there was none', async () => {
    onLockedRead = saveOnce('model', 'sonnet')
    const r = await runSetup({}, ctx())
    expect(r.createdFile).toBe(false)
    const after = await parsed()
    expect(after.model).toBe('sonnet')
    expect(Object.keys(after.hooks ?? {})).toHaveLength(4)
    // Uninstall later leaves the other program's file (setup did not create it).
    await runUninstall({}, uctx())
    expect(await parsed()).toEqual({ model: 'sonnet' })
  })

  it('uninstall keeps it', async () => {
    await writeFile(settings, '{\n  "theme": "dark"\n}\n')
    await runSetup({}, ctx())
    onLockedRead = saveOnce('model', 'sonnet')
    const r = await runUninstall({}, uctx())
    expect(r.removed).toBe(4)
    expect(await parsed()).toEqual({ theme: 'dark', model: 'sonnet' })
  })

  it('uninstall does not delete a file setup created once another program has saved into it', async () => {
    await runSetup({}, ctx())
    onLockedRead = saveOnce('model', 'sonnet')
    const r = await runUninstall({}, uctx())
    expect(r.removed).toBe(4)
    expect(r.deletedFile).toBe(false)
    expect(await parsed()).toEqual({ model: 'sonnet' })
  })

  it('a save caught halfway (text that does not parse yet) is read again, not reported as a broken file', async () => {
    await writeFile(settings, '{\n  "theme": "dark"\n}\n')
    const full = JSON.stringify({ theme: 'dark', model: 'sonnet' }, null, 2)
    const steps = [full.slice(0, 20), full] // a writer that truncates and writes: first half the text, then all of it
    onLockedRead = async (path) => {
      const next = steps.shift()
      if (next !== undefined) await writeFile(path, next)
    }
    const r = await runSetup({}, ctx())
    expect(r.action).toBe('wired')
    expect(steps).toEqual([])
    const after = await parsed()
    expect(after.model).toBe('sonnet')
    expect(Object.keys(after.hooks ?? {})).toHaveLength(4)
  })

  it("a file that keeps changing: setup gives up with one line and leaves the other program's text", async () => {
    await writeFile(settings, '{}\n')
    let n = 0
    onLockedRead = async (path) => writeFile(path, JSON.stringify({ saves: ++n }))
    await expect(runSetup({}, ctx())).rejects.toThrow(
      new RegExp(
        `^${settings} changed while bookmark was editing it \\(\\d+ tries\\): another program \\(Claude Code\\?\\) keeps saving it; nothing was written, run the command again`,
      ),
    )
    expect(await readFile(settings, 'utf8')).toBe(JSON.stringify({ saves: n }))
    expect(await backups()).toEqual([])
    expect((await readdir(sb.env.CLAUDE_CONFIG_DIR!)).sort()).toEqual(['settings.json'])
  })
})
