/**
 * `bookmark snapshot` on a Codex rollout (a copy of a real one from the corpus, its folder moved to the test's
 * project): the host is told from the file, the session id from its name or session_meta.
 */
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { type Sandbox, gitProject, runCli, sandbox } from './helpers/cli.js'
import { CORPUS } from './helpers/corpus.js'

const OLD = join(CORPUS, 'codex', 'codex-0.142.2-spark-model-compacted2-patch-019f03e0.jsonl')
const NEW = join(CORPUS, 'host-samples', 'codex-0.171-exec-rollout-2-patch-file.jsonl')
const SID = '019f03e0-1f2a-7c31-9b6c-5a3f1c2d4e5f'

let sb: Sandbox
let project: string

beforeEach(async () => {
  sb = await sandbox()
  project = await gitProject(sb)
})

/** The rollout with its session folder replaced by the test project, under `name`. */
async function copy(from: string, folder: string, name: string): Promise<string> {
  const to = join(sb.dir, name)
  await writeFile(to, (await readFile(from, 'utf8')).split(folder).join(project))
  return to
}

describe.skipIf(!existsSync(OLD))('bookmark snapshot --transcript <Codex rollout>', () => {
  it('recognises a 0.142 rollout and writes a LATEST.md with its last request and the patched files', async () => {
    const rollout = await copy(OLD, '/home/entity/projects/EntityProcess/agentv', `rollout-2026-06-26T12-00-00-${SID}.jsonl`)
    const r = await runCli(['snapshot', '--transcript', rollout, '--cwd', project, '--json'], { env: sb.env })
    expect(r.stderr).toBe('')
    const out = JSON.parse(r.stdout)
    expect(out).toMatchObject({ written: true, sessionId: SID, projectRoot: project })
    const latest = await readFile(join(project, '.bookmark', 'LATEST.md'), 'utf8')
    expect(latest).toContain('also i thougth the pattern was to use bun run not specify a path wich can be anythign.')
    expect(latest).toContain('`apps/web/src/content/docs/docs/graders/composite.mdx`')
    expect(latest).toContain('`examples/features/composite/scripts/or-aggregator.js` created')
    expect(latest).toContain('gpt-5.3-codex-spark')
    // The sibling worktree is not the project.
    expect(latest).not.toContain('`agentv__worktrees/')
  })
})

describe.skipIf(!existsSync(NEW))('bookmark snapshot --transcript <Codex 0.171 rollout>', () => {
  it('takes the session id from session_meta when the file was renamed, and --host forces the reading', async () => {
    const rollout = await copy(NEW, '/home/dev/runs/w/proj', 'copied.jsonl')
    const forcedClaude = await runCli(['snapshot', '--transcript', rollout, '--cwd', project, '--host', 'claude', '--json'], { env: sb.env })
    // Read as Claude Code lines, a rollout holds nothing: no request, no file.
    expect(JSON.parse(forcedClaude.stdout)).toMatchObject({ sessionId: 'copied' })
    expect(await readFile(join(project, '.bookmark', 'LATEST.md'), 'utf8')).not.toContain('patched.txt')
    const r = await runCli(['snapshot', '--transcript', rollout, '--cwd', project, '--host', 'codex', '--json'], { env: sb.env })
    expect(JSON.parse(r.stdout)).toMatchObject({ written: true, sessionId: '01a2345e-2939-7733-81eb-319f86c45b47' })
    const latest = await readFile(join(project, '.bookmark', 'LATEST.md'), 'utf8')
    expect(latest).toContain('> patch file')
    expect(latest).toContain('`patched.txt` created +2 -0')
  })
})
