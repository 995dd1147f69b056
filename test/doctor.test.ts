import { execFileSync } from 'node:child_process'
import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { type Sandbox, runCli, sandbox } from './helpers/cli.js'
import { call, jsonl, prompt } from './helpers/jsonl.js'
import { stateDir } from './helpers/narrative.js'
import { writeJson } from '../src/store/files.js'
import { ensureSeal } from '../src/store/state-write.js'

let sb: Sandbox
let project: string

interface Check {
  id: string
  status: string
  message: string
  fix?: string
}

async function doctor(): Promise<{ code: number | null; ok: boolean; checks: Check[]; text: string }> {
  const j = await runCli(['doctor', '--json'], { env: sb.env, cwd: project })
  const t = await runCli(['doctor'], { env: sb.env, cwd: project })
  const report = JSON.parse(j.stdout)
  expect(t.code).toBe(j.code)
  return { code: j.code, ok: report.ok, checks: report.checks, text: t.stdout }
}

const bad = (checks: Check[]) => checks.filter((c) => c.status === 'error' || c.status === 'warn')

beforeEach(async () => {
  sb = await sandbox()
  project = join(sb.dir, 'proj')
  await mkdir(project, { recursive: true })
  execFileSync('git', ['init', '-q'], { cwd: project })
})

describe('bookmark doctor', () => {
  it('says the hooks are not wired, with the fix, and exits 1', async () => {
    const d = await doctor()
    expect(d.code).toBe(1)
    expect(d.ok).toBe(false)
    expect(d.checks).toContainEqual({
      id: 'hooks',
      status: 'error',
      message: 'no session-bookmark hooks are wired: nothing is captured or restored',
      fix: 'run `bookmark setup`',
    })
    expect(d.text).toContain('fix: run `bookmark setup`')
  })

  it('is all green after setup and a capture', async () => {
    expect((await runCli(['setup'], { env: sb.env, cwd: project })).code).toBe(0)
    const t = join(sb.dir, 's.jsonl')
    await writeFile(
      t,
      jsonl([
        prompt('add the exporter to the notes app', { cwd: project }),
        call('w', 'Write', { file_path: join(project, 'a.ts'), content: 'x' }, { type: 'create' }, { cwd: project }),
      ]),
    )
    expect((await runCli(['snapshot', '--transcript', t, '--cwd', project], { env: sb.env })).code).toBe(0)
    const d = await doctor()
    expect(bad(d.checks)).toEqual([])
    expect(d.code).toBe(0)
    expect(d.checks.map((c) => c.id)).toEqual(expect.arrayContaining(['node', 'project', 'hooks', 'storage', 'index', 'narrative', 'config']))
    expect(d.text).toContain('All good.')
  })

  it('reports hooks whose entry is not there as broken', async () => {
    expect((await runCli(['setup'], { env: sb.env, cwd: project })).code).toBe(0)
    const settings = join(sb.env.CLAUDE_CONFIG_DIR!, 'settings.json')
    const wired = await readFile(settings, 'utf8')
    expect(wired).toContain('bin/bookmark.cjs')
    expect(bad((await doctor()).checks)).toEqual([])
    // An entry that is not there does not resolve, whichever its name.
    await writeFile(settings, wired.replaceAll(/"[^"]*bin\/bookmark\.cjs"/g, '"/nonexistent/pkg/bin/bookmark.cjs"'))
    const broken = await doctor()
    expect(broken.code).toBe(1)
    expect(broken.checks.filter((c) => c.status === 'error' && c.message.includes('which is not there: the hook does nothing'))).toHaveLength(4)
  })

  it('reports broken storage: unparsable files, index out of step, stale locks, hook failures', async () => {
    await runCli(['setup'], { env: sb.env, cwd: project })
    const t = join(sb.dir, 's.jsonl')
    await writeFile(t, jsonl([prompt('add the exporter to the notes app', { cwd: project })]))
    await runCli(['snapshot', '--transcript', t, '--cwd', project], { env: sb.env })
    const store = join(project, '.bookmark')
    const state = await stateDir(sb.env.BOOKMARK_HOME!, project)
    await writeFile(join(store, 'trails', 'files.json'), '{"version":1,')
    // This user's own index (sealed), out of step with the files.
    await writeJson(
      join(store, 'index.json'),
      {
        version: 1,
        snapshots: [
          { id: 'SNAP_20200101_000000_000_abcd', seq: 1, createdAt: '2020-01-01T00:00:00.000Z', sessionId: 'x', trigger: 'stop', task: null, files: 0 },
        ],
      },
      { seal: await ensureSeal(sb.env.BOOKMARK_HOME!, project) },
    )
    await writeFile(join(state, 'store.lock'), '{}')
    await utimes(join(state, 'store.lock'), new Date(Date.now() - 120_000), new Date(Date.now() - 120_000))
    await runCli(['stop'], { env: sb.env, cwd: project, input: JSON.stringify({ session_id: 'x', transcript_path: join(sb.dir, 'gone.jsonl'), cwd: project }) })
    const d = await doctor()
    expect(d.code).toBe(1)
    const messages = d.checks.map((c) => `${c.status} ${c.message}`).join('\n')
    expect(messages).toMatch(/error .*trails\/files\.json does not parse/)
    expect(messages).toMatch(/error index\.json lists 1 snapshots whose files are missing/)
    expect(messages).toMatch(/warn .*snapshot files are not in index\.json/)
    expect(messages).toMatch(/warn stale lock .*store\.lock/)
    expect(messages).toMatch(/warn 1 hook failures logged in .*errors\.log; latest: .*stop hook failed: transcript not found/)
    for (const c of bad(d.checks)) expect(c.fix, c.message).toBeTruthy()
  })

  it('names what bookmark ignores in the project’s store: files without this user’s seal, and files older versions kept there', async () => {
    const t = join(sb.dir, 's.jsonl')
    await writeFile(t, jsonl([prompt('add the exporter to the notes app', { cwd: project })]))
    await runCli(['snapshot', '--transcript', t, '--cwd', project], { env: sb.env })
    const store = join(project, '.bookmark')
    await writeFile(join(store, 'index.json'), JSON.stringify({ version: 1, snapshots: [] }))
    await writeFile(
      join(store, 'snapshots', 'SNAP_20990101_000000_000_abcd.json'),
      JSON.stringify({ version: 1, id: 'SNAP_20990101_000000_000_abcd', files: [] }),
    )
    await writeFile(join(store, 'config.json'), JSON.stringify({ version: 1, values: { maxNarrativeBlocks: 99 } }))
    const messages = (await doctor()).checks.filter((c) => c.id === 'trust').map((c) => `${c.status} ${c.message}`)
    expect(messages).toContainEqual(expect.stringMatching(new RegExp(`^warn ignored: ${join(store, 'index.json')}: it carries no bookmark seal`)))
    expect(messages).toContainEqual(expect.stringMatching(/^warn ignored: .*SNAP_20990101_000000_000_abcd\.json: it carries no bookmark seal/))
    expect(messages).toContainEqual(expect.stringMatching(new RegExp(`^info not read: ${join(store, 'config.json')}`)))
  })

  it('warns when the hooks are wired but no rule lets the model write the handoff, with the fix', async () => {
    expect((await runCli(['setup'], { env: sb.env, cwd: project })).code).toBe(0)
    const settings = join(sb.env.CLAUDE_CONFIG_DIR!, 'settings.json')
    const handoff = join(project, '.bookmark', 'bookmark.context.md')
    const rule = 'Edit(//**/.bookmark/bookmark.context.md)'
    expect((await doctor()).checks).toContainEqual({
      id: 'permissions',
      status: 'ok',
      message: `the model may write the handoff ${handoff} without asking (${rule} in ${settings})`,
    })
    const wired = JSON.parse(await readFile(settings, 'utf8'))
    wired.permissions.allow = ['Bash(git *)', 'Write(//**/.bookmark/bookmark.context.md)'] // Write(path) rules match nothing (docs/PERMISSIONS.md)
    await writeFile(settings, JSON.stringify(wired))
    const d = await doctor()
    expect(d.checks).toContainEqual({
      id: 'permissions',
      status: 'warn',
      message: `hooks are wired in ${settings}, but no permissions.allow rule lets the model write the handoff ${handoff}: Claude Code asks every time, and claude -p denies it`,
      fix: 'run `bookmark setup` (it adds the rule; docs/PERMISSIONS.md)',
    })
    expect(d.text).toContain('fix: run `bookmark setup` (it adds the rule')
    // A rule in another settings file Claude Code reads counts too: the project's, by the absolute path.
    await mkdir(join(project, '.claude'))
    await writeFile(join(project, '.claude', 'settings.local.json'), JSON.stringify({ permissions: { allow: [`Edit(/${handoff})`] } }))
    expect((await doctor()).checks.filter((c) => c.id === 'permissions').map((c) => c.status)).toEqual(['ok'])
    // setup puts the rule back; a deny rule that matches wins over it.
    expect((await runCli(['setup'], { env: sb.env, cwd: project })).stdout).toContain(`(permissions.allow): ${rule}`)
    await writeFile(join(project, '.claude', 'settings.local.json'), JSON.stringify({ permissions: { deny: ['Edit(.bookmark/**)'] } }))
    expect((await doctor()).checks.filter((c) => c.id === 'permissions').map((c) => c.status)).toEqual(['warn'])
  })

  it('reports a narrative that git tracks', async () => {
    await runCli(['setup'], { env: sb.env, cwd: project })
    await mkdir(join(project, '.bookmark'), { recursive: true })
    await writeFile(join(project, '.bookmark', 'bookmark.context.md'), '<!-- BOOKMARK_IDENTITY\nscope: repo\n-->\n## Task\nx\n')
    execFileSync('git', ['add', '-f', '.bookmark/bookmark.context.md'], { cwd: project })
    const d = await doctor()
    expect(d.checks).toContainEqual(expect.objectContaining({ id: 'narrative', status: 'error', message: expect.stringContaining('tracked by git') }))
  })
})
