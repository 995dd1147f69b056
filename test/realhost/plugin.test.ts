/**
 * The Claude Code plugin: the real `claude plugin validate` accepts the manifests, and `claude plugin
 * install` from a local marketplace folder (the package as npm installs it: built code, hooks, manifests)
 * installs the plugin with its hooks and MCP server. Offline: the marketplace is a local path.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../helpers/tmp.js'
import { CLAUDE_BIN, REPO_ROOT, claudeStatus } from './harness.js'

const status = claudeStatus()
if (!status.available) console.warn(`real-host plugin tests skipped: ${status.why}`)

function claude(args: string[], cwd: string, cfg: string, home: string) {
  return spawnSync(CLAUDE_BIN, args, {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      CLAUDE_CONFIG_DIR: cfg,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
      DISABLE_AUTOUPDATER: '1',
    },
  })
}

describe.skipIf(!status.available)('the Claude Code plugin', () => {
  const root = tempDir('bm-plugin-')
  const cfg = join(root, 'cfg')
  const home = join(root, 'home')
  mkdirSync(cfg, { recursive: true })
  mkdirSync(home, { recursive: true })

  it('passes claude plugin validate (plugin and marketplace)', () => {
    const plugin = claude(['plugin', 'validate', '.'], REPO_ROOT, cfg, home)
    expect(plugin.status, plugin.stdout + plugin.stderr).toBe(0)
    expect(plugin.stdout).toContain('Validation passed')
    expect(plugin.stdout).toContain('hooks: Stop command node ["${CLAUDE_PLUGIN_ROOT}/bin/bookmark.cjs","stop"]')
    expect(plugin.stdout).toContain('commands: session-bookmark:wrapup')
    const market = claude(['plugin', 'validate', '.claude-plugin/marketplace.json'], REPO_ROOT, cfg, home)
    expect(market.status, market.stdout + market.stderr).toBe(0)
    expect(market.stdout).toContain('Validation passed')
  })

  it('installs from a local marketplace folder with the built code in place', () => {
    const pkg = join(root, 'session-bookmark')
    for (const part of ['.claude-plugin', '.mcp.json', 'bin', 'commands', 'dist', 'hooks', 'templates', 'package.json'])
      cpSync(join(REPO_ROOT, part), join(pkg, part), { recursive: true })
    const add = claude(['plugin', 'marketplace', 'add', pkg], root, cfg, home)
    expect(add.status, add.stdout + add.stderr).toBe(0)
    const install = claude(['plugin', 'install', 'session-bookmark@session-bookmark'], root, cfg, home)
    expect(install.status, install.stdout + install.stderr).toBe(0)
    const installed = JSON.parse(readFileSync(join(cfg, 'plugins', 'installed_plugins.json'), 'utf8'))
    expect(JSON.stringify(installed)).toContain('session-bookmark@session-bookmark')
    const cache = join(cfg, 'plugins', 'cache', 'session-bookmark', 'session-bookmark', '0.1.0')
    for (const f of ['hooks/hooks.json', 'bin/bookmark.cjs', 'dist/cli/bookmark.cjs', '.mcp.json', 'templates/bookmark.context.md', 'commands/wrapup.md'])
      expect(existsSync(join(cache, f)), f).toBe(true)
  })
})
