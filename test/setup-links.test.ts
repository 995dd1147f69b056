/**
 * Setup and uninstall meet symbolic links: a settings link is written through, never replaced (even
 * dangling); `--project` never follows a link out of the project; backups never go through a link.
 * Against the built CLI in a private HOME / CLAUDE_CONFIG_DIR / BOOKMARK_HOME (run `npm run build` first).
 */
import { GUARD } from '../src/setup/hooks.js'
import { existsSync, lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs'
import { mkdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { type Run, type Sandbox, BIN, gitProject, runCli, sandbox } from './helpers/cli.js'

let sb: Sandbox
let claudeDir: string
let settings: string

beforeEach(async () => {
  sb = await sandbox()
  claudeDir = sb.env.CLAUDE_CONFIG_DIR!
  settings = join(claudeDir, 'settings.json')
})

const cli = (args: string[], cwd?: string): Promise<Run> => runCli(args, { env: sb.env, ...(cwd ? { cwd } : {}) })

const stopHook = { type: 'command', command: process.execPath, args: ['-e', GUARD, BIN, 'stop'], timeout: 60 }
const stopOf = (path: string): unknown => (JSON.parse(readFileSync(path, 'utf8')) as { hooks: { Stop: unknown } }).hooks.Stop

/** Every entry under `dir` with what it holds (file text, link target, or a folder mark): to show nothing changed. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  if (!existsSync(dir)) return out
  for (const rel of readdirSync(dir, { recursive: true }).map(String).sort()) {
    const p = join(dir, rel)
    const s = lstatSync(p)
    out[rel] = s.isSymbolicLink() ? `-> ${readlinkSync(p)}` : s.isDirectory() ? '<dir>' : readFileSync(p, 'utf8')
  }
  return out
}

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
    expect(u.stdout).toBe(
      `removed 4 hooks from ${settings} and deleted it (setup had created it)\nremoved the handoff permission: Edit(//**/.bookmark/bookmark.context.md)\n`,
    )
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

describe('a dangling settings folder link', () => {
  it('setup refuses a ~/.claude that is a link to a folder that does not exist, in one line, and leaves it', async () => {
    const target = join(sb.dir, 'dotfiles', 'claude')
    await symlink(target, claudeDir)
    const r = await cli(['setup'])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(`bookmark: ${claudeDir} is a link to ${target}, which does not exist: left untouched; create it (or remove the link) and run again\n`)
    expect(await readlink(claudeDir)).toBe(target)
    expect(existsSync(join(sb.dir, 'dotfiles'))).toBe(false)
  })
})

describe('setup --project and links out of the project', () => {
  let project: string
  let outside: string
  beforeEach(async () => {
    project = await gitProject(sb)
    outside = join(sb.dir, 'elsewhere')
    await mkdir(outside, { recursive: true })
  })

  const plants: [string, () => Promise<void>, string][] = [
    ['.claude is a link to a folder outside', async () => symlink(outside, join(project, '.claude')), '.claude'],
    ['.claude is a dangling link to a folder outside', async () => symlink(join(outside, 'missing'), join(project, '.claude')), '.claude'],
    [
      'settings.local.json is a link to a file outside',
      async () => {
        await mkdir(join(project, '.claude'))
        await symlink(join(outside, 'settings.local.json'), join(project, '.claude', 'settings.local.json'))
      },
      '.claude/settings.local.json',
    ],
    [
      'settings.local.json is a dangling link to a file outside',
      async () => {
        await mkdir(join(project, '.claude'))
        await symlink(join(outside, 'new.json'), join(project, '.claude', 'settings.local.json'))
      },
      '.claude/settings.local.json',
    ],
  ]
  const commands = [
    ['setup', '--project'],
    ['setup', '--project', '--dry-run'],
    ['uninstall', '--project'],
  ]
  it.each(plants.flatMap(([name, plant, link]) => commands.map((args) => [name, args.join(' '), plant, link, args] as const)))(
    '%s: `%s` refuses, naming the link and where it leads, and writes nothing',
    async (_name, _command, plant, link, args) => {
      // The file outside already holds our hooks (wired by hand, or a setup of the real folder): uninstall would edit it.
      const wired = { model: 'opus', hooks: { Stop: [{ hooks: [stopHook] }] } }
      await writeFile(join(outside, 'settings.local.json'), JSON.stringify(wired, null, 2))
      await plant()
      const before = { outside: tree(outside), project: tree(project) }
      const r = await cli(args, project)
      expect(r.code).toBe(1)
      expect(r.stdout).toBe('')
      expect(r.stderr.trim().split('\n')).toHaveLength(1)
      expect(r.stderr).toContain(`${join(project, link)} is a link to ${await readlink(join(project, link))}`)
      expect(r.stderr).toMatch(/outside the project .*: left untouched; /)
      expect(tree(outside)).toEqual(before.outside)
      expect(tree(project)).toEqual(before.project)
      expect(existsSync(sb.env.BOOKMARK_HOME!)).toBe(false)
    },
  )

  it('follows a link that stays inside the project', async () => {
    await mkdir(join(project, 'config', 'claude'), { recursive: true })
    await symlink('config/claude', join(project, '.claude'))
    const r = await cli(['setup', '--project'], project)
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(lstatSync(join(project, '.claude')).isSymbolicLink()).toBe(true)
    expect(stopOf(join(project, 'config', 'claude', 'settings.local.json'))).toEqual([{ hooks: [stopHook] }])
    expect((await cli(['uninstall', '--project'], project)).code).toBe(0)
    expect(existsSync(join(project, 'config', 'claude', 'settings.local.json'))).toBe(false)
    expect(lstatSync(join(project, '.claude')).isSymbolicLink()).toBe(true)
  })

  it('never writes a backup through a link: a ~/.bookmark/backups link is refused', async () => {
    const local = join(project, '.claude', 'settings.local.json')
    await mkdir(join(project, '.claude'))
    await writeFile(local, '{"model": "opus"}\n')
    await mkdir(sb.env.BOOKMARK_HOME!, { recursive: true })
    await symlink(outside, join(sb.env.BOOKMARK_HOME!, 'backups'))
    const before = tree(outside)
    const r = await cli(['setup', '--project'], project)
    expect(r.code).toBe(1)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).toContain(`${join(sb.env.BOOKMARK_HOME!, 'backups')} is a symbolic link`)
    expect(tree(outside)).toEqual(before)
    expect(await readFile(local, 'utf8')).toBe('{"model": "opus"}\n')
  })
})
