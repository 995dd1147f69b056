/**
 * One hook run reads git once: a Stop that captures, prepares the next start and blocks for the handoff
 * needs the branch and HEAD four times (the home pointer, the prepared answer's key, the restore's
 * narrative check, the narrative judgement); the hook's Project (src/repo/project.ts) reads them once.
 * Counted where git is read: every read of a `.git/HEAD` file goes through shared/fsp.ts's readFile; and the
 * project root is looked for once.
 */
import { claudeHost } from '../src/hosts/claude/host.js'
import { readdir, writeFile } from 'node:fs/promises'
import { join, sep } from 'node:path'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { stopHook } from '../src/hooks/stop.js'
import { runHook } from '../src/hooks/run.js'
import { gitRepo } from './helpers/cli.js'
import { testDeps } from './helpers/deps.js'
import { assistantText, call, jsonl, prompt } from './helpers/jsonl.js'

const heads: string[] = []
let rootFinds = 0

vi.mock('../src/shared/fsp.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/shared/fsp.js')>()
  const readFile = ((path: unknown, ...rest: unknown[]) => {
    if (typeof path === 'string' && path.endsWith(`${sep}.git${sep}HEAD`)) heads.push(path)
    return (real.readFile as (...a: unknown[]) => unknown)(path, ...rest)
  }) as typeof real.readFile
  return { ...real, readFile }
})

vi.mock('../src/repo/root.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/repo/root.js')>()
  const findProjectRoot: typeof real.findProjectRoot = (...a) => {
    rootFinds++
    return real.findProjectRoot(...a)
  }
  return { ...real, findProjectRoot }
})

const SID = 'aaaaaaaa-1111-4222-8333-444444444444'

beforeEach(() => {
  heads.length = 0
  rootFinds = 0
})

describe('git reads in one hook run', () => {
  it('a Stop that captures, prepares the next start and blocks reads .git/HEAD once', async () => {
    const deps = await testDeps()
    const project = await gitRepo(join(deps.dir, 'proj'))
    const transcript = join(deps.dir, `${SID}.jsonl`)
    await writeFile(
      transcript,
      jsonl([
        prompt('add a CSV export to the notes command', { cwd: project }),
        call('w1', 'Write', { file_path: join(project, 'src/export.ts'), content: 'export function exportCsv() {}\n' }, { type: 'create' }, { cwd: project }),
        assistantText('Export written.', { cwd: project }),
      ]),
    )
    const payload = { session_id: SID, transcript_path: transcript, cwd: project, hook_event_name: 'Stop', stop_hook_active: false }
    const run = await runHook(
      claudeHost,
      'stop',
      stopHook,
      {},
      deps,
      async () => ({ text: JSON.stringify(payload), timedOut: false, truncated: false }),
      project,
    )

    expect(run.notes).toEqual([])
    const out = JSON.parse(run.stdout) as { decision: string; reason: string }
    expect(out.decision).toBe('block') // asked for the handoff, with git's branch and HEAD in its header
    expect(out.reason).toContain('branch: main')
    expect(out.reason).toMatch(/head: [0-9a-f]{40}/)
    expect(await readdir(join(project, '.bookmark', 'snapshots'))).toHaveLength(1) // captured
    expect(heads).toEqual([join(project, '.git', 'HEAD')]) // before the hook's Project: four times
    expect(rootFinds).toBe(1) // by the configuration (run.ts); the capture and the rest use ctx.project
  })
})
