/**
 * Real transcripts relocated into a temporary project and captured by the built CLI: LATEST.md must list
 * at least 95% of the files that Write/Edit/MultiEdit/NotebookEdit changed inside the project, no file
 * that was not changed, and the session's last real request.
 *
 * The expected values come from an oracle written here, independent of src/: it reads the raw JSON
 * lines itself. Windows transcripts are left out: their `D:\` paths cannot be relocated onto this
 * machine's file system (they are covered by the corpus facts test instead).
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { gitProject, runCli, sandbox } from './helpers/cli.js'
import { CORPUS_PRESENT, claudeFiles, claudePath } from './helpers/corpus.js'
import { oracle } from './helpers/oracle.js'

function filesSection(md: string): string {
  return md.split('\n## ').find((s) => s.startsWith('Files changed')) ?? ''
}

function filesInLatest(md: string): string[] {
  return [...filesSection(md).matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]!)
}

/** Files a listed file was moved from (`(from old/path)`): a moved file is still reported under its old name. */
function movedFrom(md: string): string[] {
  return [...filesSection(md).matchAll(/^- `[^`]+` \w+ \(from ([^)]+)\)/gm)].map((m) => m[1]!)
}

const candidates = claudeFiles().filter((n) => !n.includes('windows'))

describe.skipIf(!CORPUS_PRESENT)('real transcripts relocated into a temporary project', () => {
  it.each(candidates)('%s', async (name) => {
    const raw = await readFile(claudePath(name), 'utf8')
    const expected = oracle(raw)
    expect(expected.root, 'transcript has a cwd').toBeTruthy()
    const sb = await sandbox()
    const project = await gitProject(sb, 'relocated-project')
    const escape = (s: string) => JSON.stringify(s).slice(1, -1)
    const relocated = raw.split(escape(expected.root)).join(escape(project))
    const transcript = join(sb.dir, name)
    await writeFile(transcript, relocated)

    const r = await runCli(['snapshot', '--transcript', transcript, '--cwd', project, '--json'], { env: sb.env })
    expect(r.code, r.stderr).toBe(0)
    const md = await readFile(join(project, '.bookmark', 'LATEST.md'), 'utf8')
    const listed = filesInLatest(md)
    const reported = new Set([...listed, ...movedFrom(md)])

    const found = [...expected.toolFiles].filter((f) => reported.has(f))
    if (expected.toolFiles.size > 0)
      expect(found.length / expected.toolFiles.size, `missing: ${[...expected.toolFiles].filter((f) => !reported.has(f)).join(', ')}`).toBeGreaterThanOrEqual(
        0.95,
      )
    // Every listed file was changed: by a file tool, or named in a shell command that succeeded.
    const unexplained = listed.filter((f) => !expected.toolFiles.has(f) && !expected.shellText.includes(f.split('/').pop()!))
    expect(unexplained).toEqual([])
    if (expected.lastRequest) {
      const probe = expected.lastRequest.replace(/\s+/g, ' ').trim().slice(0, 60)
      expect(md.replace(/^> ?/gm, '').replace(/\s+/g, ' ')).toContain(probe)
    }
  })
})
