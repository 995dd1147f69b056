/**
 * The /session-bookmark:wrapup command shipped with the plugin: a command file Claude Code reads (front matter with a
 * description), shipped in the npm package, naming the MCP tool and the CLI fallback exactly as they exist, so that a
 * rename of either breaks this test rather than the command.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TOOLS } from '../src/mcp/tools.js'
import { WRAPUP_KEYS } from '../src/memory/wrapup.js'
import { REPO_ROOT } from './helpers/corpus.js'
import { runCli, sandbox } from './helpers/cli.js'

describe('the wrapup slash command', () => {
  it('is a command file with a description, shipped in the package', async () => {
    const text = await readFile(join(REPO_ROOT, 'commands', 'wrapup.md'), 'utf8')
    const front = /^---\n([\s\S]*?)\n---\n/.exec(text)
    expect(front, 'front matter').not.toBeNull()
    expect(front![1]).toMatch(/^description: Wrap up this session as a searchable milestone/m)
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { files: string[] }
    expect(pkg.files).toContain('commands/')
  })

  it('names the tool, its digest step and its fields as bookmark_wrapup declares them', async () => {
    const text = await readFile(join(REPO_ROOT, 'commands', 'wrapup.md'), 'utf8')
    const tool = TOOLS.find((t) => t.name === 'bookmark_wrapup')!
    expect(text).toContain('`bookmark_wrapup` MCP tool with `digest: true` first')
    const named = [...text.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!).filter((w) => (WRAPUP_KEYS as readonly string[]).includes(w) || w === 'digest')
    expect(new Set(named)).toEqual(new Set(['digest', 'summary', 'decisions', 'discoveries', 'open_threads', 'files', 'commits']))
    for (const k of named) expect(Object.keys(tool.inputSchema.properties)).toContain(k)
  })

  it('its CLI fallback works as written: --digest, then --stdin with the same fields', async () => {
    const text = await readFile(join(REPO_ROOT, 'commands', 'wrapup.md'), 'utf8')
    expect(text).toContain('`bookmark wrapup --digest`')
    expect(text).toContain('`bookmark wrapup --stdin`')
    const sb = await sandbox()
    const help = await runCli(['wrapup', '--help'], { env: sb.env })
    expect(help.code, help.stderr).toBe(0)
    expect(help.stdout).toContain('--digest')
    expect(help.stdout).toContain('--stdin')
  })
})
