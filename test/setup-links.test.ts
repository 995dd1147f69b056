/**
 * Setup and uninstall meet symbolic links: a settings link is written through, never replaced (even
 * dangling).
 * Against the built CLI in a private HOME / CLAUDE_CONFIG_DIR / BOOKMARK_HOME (run `npm run build` first).
 */
import { existsSync, lstatSync, readFileSync, readdirSync } from 'node:fs'
import { mkdir, readlink, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { type Run, type Sandbox, BIN, runCli, sandbox } from './helpers/cli.js'

let sb: Sandbox
let claudeDir: string
let settings: string

beforeEach(async () => {
  sb = await sandbox()
  claudeDir = sb.env.CLAUDE_CONFIG_DIR!
  settings = join(claudeDir, 'settings.json')
})

const cli = (args: string[], cwd?: string): Promise<Run> => runCli(args, { env: sb.env, ...(cwd ? { cwd } : {}) })

const stopHook = { type: 'command', command: process.execPath, args: [BIN, 'stop'], timeout: 60 }
const stopOf = (path: string): unknown => (JSON.parse(readFileSync(path, 'utf8')) as { hooks: { Stop: unknown } }).hooks.Stop

describe('a dangling settings link (dotfiles not checked out yet)', () => {
  it('setup writes through it: the link stays, its target is created with the hooks; uninstall deletes only the target', async () => {
    const dotfiles = join(sb.dir, 'dotfiles', 'claude')
    await mkdir(dotfiles, { recursive: true })
    await mkdir(claudeDir, { recursive: true })
    const target = join(dotfiles, 'settings.json')
    await symlink('../../dotfiles/claude/settings.json', settings)
    // A relative link, resolved against the folder that holds it (sb.dir/home/.claude).
    expect(await readlink(settings)).toBe('../../dotfiles/claude/settings.json')
    expect(existsSync(settings)).toBe(false)
    const r = await cli(['setup'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(lstatSync(settings).isSymbolicLink()).toBe(true)
    expect(await readlink(settings)).toBe('../../dotfiles/claude/settings.json')
    expect(stopOf(target)).toEqual([{ hooks: [stopHook] }])
    expect(readdirSync(claudeDir)).toEqual(['settings.json'])
    const u = await cli(['uninstall'])
    expect(u.code).toBe(0)
    expect(u.stdout).toBe(`removed 4 hooks from ${settings} and deleted it (setup had created it)\n`)
    expect(lstatSync(settings).isSymbolicLink()).toBe(true) // the user's link is theirs: left dangling as it was
    expect(existsSync(target)).toBe(false)
    expect(readdirSync(dotfiles)).toEqual([])
  })

  it('refuses a dangling link whose target folder does not exist, and leaves the link as it was', async () => {
    await mkdir(claudeDir, { recursive: true })
    const target = join(sb.dir, 'not-cloned', 'claude', 'settings.json')
    await symlink(target, settings)
    const r = await cli(['setup'])
    expect(r.code).toBe(1)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).toContain(`${settings} is a link to ${target}, whose folder ${join(sb.dir, 'not-cloned', 'claude')} does not exist`)
    expect(await readlink(settings)).toBe(target)
    expect(readdirSync(claudeDir)).toEqual(['settings.json'])
    expect(existsSync(join(sb.dir, 'not-cloned'))).toBe(false)
  })
})
