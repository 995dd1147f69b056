/**
 * A new session after a real session: what it receives in additionalContext, within the budget, is the
 * last real request, the open tasks, the last commit, and the changed files (all of them when there are
 * 15 or fewer, otherwise the most recently changed first). Expected values come from the independent
 * oracle; the transcripts are relocated into a temporary project (Windows ones cannot be, see relocated).
 */
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { BIN, gitProject, sandbox } from './helpers/cli.js'
import { CORPUS_PRESENT, claudeFiles, claudePath } from './helpers/corpus.js'
import { oracle } from './helpers/oracle.js'
import { restoreAfter } from './helpers/restore-after.js'

const flat = (s: string) => s.replace(/^> ?/gm, '').replace(/\s+/g, ' ')

describe.skipIf(!CORPUS_PRESENT)('restore after a real session', () => {
  it.each(claudeFiles().filter((n) => !n.includes('windows')))('%s', async (name) => {
    const raw = await readFile(claudePath(name), 'utf8')
    const expected = oracle(raw)
    const sb = await sandbox()
    const project = await gitProject(sb, 'p')
    // The session ends: its Stop hook captures it (stop_hook_active so the narrative request is not in the way).
    const { stop, restore: r } = restoreAfter({ bin: BIN, env: sb.env, dir: sb.dir, project }, raw, expected.root)
    expect(stop.code, stop.stderr).toBe(0)
    expect(r.code).toBe(0)
    const text: string = JSON.parse(r.stdout).hookSpecificOutput.additionalContext
    expect(text.length).toBeLessThanOrEqual(6_000)
    const body = flat(text)

    if (expected.lastRequest) expect(body).toContain(flat(expected.lastRequest).trim().slice(0, 50))
    for (const task of expected.openTasks) expect(body, `open task ${task}`).toContain(flat(task).trim().slice(0, 40))
    if (expected.lastCommit) expect(body).toContain(expected.lastCommit.slice(0, 7))
    const files = expected.toolFilesByRecency
    const must = files.length <= 15 ? files : files.slice(0, 10)
    // A file moved away by a shell `mv` is reported under its new name with "(from old)".
    for (const f of must) expect(text, `changed file ${f}`).toContain(f)
  })
})
