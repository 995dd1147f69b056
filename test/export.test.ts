/**
 * `bookmark export` end to end: the sample session that ships with the package captured into a real git
 * project, then exported to stdout and to a file; the narrative only when sealed for this project; a
 * secret in it redacted; the one-line errors.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { type Sandbox, gitRepo, runCli, sandbox } from './helpers/cli.js'
import { REPO_ROOT } from './helpers/corpus.js'
import { ghp } from './helpers/fake-secrets.js'
import { identityHeader, sealedHeader } from './helpers/narrative.js'

let sb: Sandbox
let project: string

const run = (args: string[]) => runCli(args, { env: sb.env, cwd: project })

beforeEach(async () => {
  sb = await sandbox()
  project = await gitRepo(join(sb.dir, 'proj'))
})

/** Captures the bundled sample session (templates/demo-session.jsonl) into the project; returns the snapshot id. */
async function captureSample(): Promise<string> {
  const text = (await readFile(join(REPO_ROOT, 'templates', 'demo-session.jsonl'), 'utf8')).replaceAll('__PROJECT__', project)
  const transcript = join(sb.dir, 'sample.jsonl')
  await writeFile(transcript, text)
  const r = await run(['snapshot', '--transcript', transcript, '--session-id', 'sample-session', '--json'])
  expect(r.code, r.stderr).toBe(0)
  return (JSON.parse(r.stdout) as { snapshotId: string }).snapshotId
}

const NOTES = 'Quote every field with a comma, because spreadsheets split on them.'

/** A handoff with `header` on top, carrying a planted token in its notes. */
async function writeNarrative(header: string): Promise<void> {
  const body = `# Handoff: proj\n\n## Task\nShip the CSV export.\n\n## Decisions\n${NOTES}\n\n## Open items\nThe sync job reads GITHUB_TOKEN=${ghp} from the environment.\n\n## Next step\nHandle newlines and add a test for them, then release.\n`
  await writeFile(join(project, '.bookmark', 'bookmark.context.md'), `${header}\n${body}`)
}

function headerFields(): Record<string, string> {
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: project, encoding: 'utf8' }).trim()
  return {
    scope: 'repo',
    project: 'proj',
    repo_path: project,
    branch: 'main',
    head,
    session_id: 'sample-session',
    written: new Date(Date.now() - 3_600_000).toISOString(),
  }
}

describe('bookmark export', () => {
  it('without any snapshot: one line saying to capture first, exit 1, nothing on stdout', async () => {
    const r = await run(['export'])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).toMatch(/no snapshot yet \(capture first: `bookmark snapshot`\)/)
  })

  it('prints the facts of the latest snapshot under a header naming project, branch and snapshot', async () => {
    const id = await captureSample()
    const r = await run(['export'])
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stdout.split('\n')
    expect(lines[0]).toBe('# Bookmark handoff of `proj`')
    expect(lines[1]).toBe(`Project root: \`${project}\`.`)
    expect(lines[2]).toMatch(new RegExp(`session \`sample-s\` on branch \`feature/export-csv\`, snapshot \`${id}\`\\.$`))
    // The sample's facts, each in its section: last request, open task, changed files, commit, last reply.
    expect(r.stdout).toContain('## Latest request')
    expect(r.stdout).toContain('also handle newlines inside note bodies, and keep the header row optional')
    expect(r.stdout).toContain('- [~] #3 Add tests for CSV quoting (in progress)')
    // The sample was made on feature/export-csv and this repository is on main: the capture says so next to the path.
    expect(r.stdout).toMatch(/- `src\/export\.ts` \[left on branch feature\/export-csv\] created \+28 -3/)
    expect(r.stdout).toMatch(/- `src\/cli\.ts` \[left on branch feature\/export-csv\] modified/)
    expect(r.stdout).toContain('commit `3f9c2a1` on feature/export-csv: Add CSV export to notes CLI')
    expect(r.stdout).toContain("Here's where this stands.")
    // The password in the sample's DATABASE_URL was redacted at capture and stays so.
    expect(r.stdout).toContain('postgres://notes:[REDACTED:')
    // No narrative was written: none is claimed.
    expect(r.stdout).not.toContain('Handoff notes')
  })

  it('includes the narrative sealed for this project, with a planted token redacted', async () => {
    await captureSample()
    await writeNarrative(await sealedHeader(sb.env.BOOKMARK_HOME!, project, headerFields()))
    const r = await run(['export', '--json'])
    expect(r.code, r.stderr).toBe(0)
    const e = JSON.parse(r.stdout) as { narrative: boolean; text: string; characters: number; branch: string; projectRoot: string }
    expect(e).toMatchObject({ narrative: true, branch: 'feature/export-csv', projectRoot: project })
    expect(e.text).toContain('## Handoff notes from the last session')
    expect(e.text).toContain(NOTES)
    expect(e.text).not.toContain(ghp)
    expect(e.text).toMatch(/GITHUB_TOKEN=\[REDACTED:[a-z-]+\]/)
    expect(e.characters).toBe(e.text.length)
  })

  it('leaves out a narrative without this user’s seal (one that came with a clone or a copy)', async () => {
    await captureSample()
    await writeNarrative(identityHeader(headerFields()))
    const unsealed = await run(['export'])
    expect(unsealed.code, unsealed.stderr).toBe(0)
    expect(unsealed.stdout).not.toContain(NOTES)
    expect(unsealed.stdout).not.toContain('Handoff notes')
    // Another project's seal is no better.
    await writeNarrative(await sealedHeader(sb.env.BOOKMARK_HOME!, join(sb.dir, 'other'), headerFields()))
    const foreign = await run(['export'])
    expect(foreign.stdout).not.toContain(NOTES)
    expect(foreign.stdout).toContain('Add CSV export to notes CLI') // the snapshot facts are still there
  })

  it('--out writes the same text to a file and says where; --budget cuts it', async () => {
    const id = await captureSample()
    const full = (await run(['export'])).stdout
    const r = await run(['export', '--out', 'handoff.md'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout.trim()).toBe(`Wrote the handoff of ${project} (snapshot ${id}, ${full.length - 1} characters) to ${join(project, 'handoff.md')}.`)
    expect(await readFile(join(project, 'handoff.md'), 'utf8')).toBe(full)
    // Written atomically: no temp file is left next to it.
    expect((await readdir(project)).filter((f) => f.startsWith('handoff.md'))).toEqual(['handoff.md'])

    const cut = await run(['export', '--budget', '600'])
    expect(cut.code, cut.stderr).toBe(0)
    expect(cut.stdout.length - 1).toBeLessThanOrEqual(600)
    expect(cut.stdout.length).toBeLessThan(full.length)
    expect(cut.stdout.startsWith('# Bookmark handoff of `proj`')).toBe(true)
  })

  it('bad --out or --budget: one clear line, exit 1, nothing written', async () => {
    await captureSample()
    await mkdir(join(project, 'out'))
    const folder = await run(['export', '--out', 'out'])
    expect(folder.code).toBe(1)
    expect(folder.stderr.trim()).toBe(
      `bookmark: --out ${join(project, 'out')} is a folder: give a file name inside it (for example ${join(project, 'out', 'handoff.md')})`,
    )
    expect(await readdir(join(project, 'out'))).toEqual([])

    const missing = await run(['export', '--out', 'nowhere/handoff.md'])
    expect(missing.code).toBe(1)
    expect(missing.stderr.trim().split('\n')).toHaveLength(1)
    expect(missing.stderr).toContain(`the folder ${join(project, 'nowhere')} does not exist`)

    const budget = await run(['export', '--budget', 'lots'])
    expect(budget.code).toBe(1)
    expect(budget.stderr).toContain('expected a positive whole number, got "lots"')
    expect(budget.stdout).toBe('')
  })

  it('is listed in bookmark --help', async () => {
    const r = await run(['--help'])
    expect(r.stdout).toMatch(/^\s+export \[options\]\s+write one self-contained Markdown handoff/m)
  })
})
