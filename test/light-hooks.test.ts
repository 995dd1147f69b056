/**
 * The light hook paths (a Stop with nothing new, a check that is not due, the prepared startup restore) run
 * many times a session; a heavy Node built-in loaded at the top of their bundle costs them more than their
 * own work (docs/BENCHMARKS.md). Each run here records the built-ins the process loaded, through a preload
 * script, and the heavy ones must be absent; the capturing Stop is the control that loads them.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { type Sandbox, gitRepo, runCli, sandbox } from './helpers/cli.js'
import { assistantText, call, jsonl, prompt } from './helpers/jsonl.js'
import { sealedHeader } from './helpers/narrative.js'

const SID = 'cccccccc-1111-4222-8333-555555555555'
const HEAVY = ['crypto', 'zlib', 'child_process', 'worker_threads']

let sb: Sandbox
let project: string
let transcript: string
let preload: string

const payload = (event: string, extra: Record<string, unknown> = {}, sid = SID): string =>
  JSON.stringify({ session_id: sid, transcript_path: transcript, cwd: project, hook_event_name: event, permission_mode: 'default', ...extra })

/** Runs a hook and returns the heavy built-ins its process loaded. */
async function heavyLoaded(cmd: string, input: string, env: NodeJS.ProcessEnv = {}): Promise<{ heavy: string[]; stdout: string }> {
  const out = join(sb.dir, `loaded-${cmd}-${Math.random().toString(16).slice(2)}.txt`)
  const r = await runCli([cmd], {
    env: { ...sb.env, CLAUDE_PROJECT_DIR: project, BOOKMARK_MAX_NARRATIVE_BLOCKS: '0', NODE_OPTIONS: `--require ${preload}`, LOADED_OUT: out, ...env },
    cwd: project,
    input,
  })
  expect(r.code, r.stderr).toBe(0)
  const loaded = (await readFile(out, 'utf8')).split('\n')
  return { heavy: HEAVY.filter((m) => loaded.includes(`NativeModule ${m}`)), stdout: r.stdout }
}

beforeAll(async () => {
  sb = await sandbox()
  project = await gitRepo(join(sb.dir, 'proj'))
  transcript = join(sb.dir, `${SID}.jsonl`)
  preload = join(sb.dir, 'preload.cjs')
  await writeFile(preload, "process.on('exit', () => require('node:fs').writeFileSync(process.env.LOADED_OUT, process.moduleLoadList.join('\\n')))\n")
  await writeFile(
    transcript,
    jsonl([
      prompt('add a CSV export to the notes command', { cwd: project }),
      call('w1', 'Write', { file_path: join(project, 'src/export.ts'), content: 'x\n' }, { type: 'create' }, { cwd: project }),
      assistantText('Export added.', { cwd: project }),
    ]),
  )
})

describe('the light hook paths load no heavy built-in', () => {
  it('a capturing Stop (the control) loads node:crypto; a Stop with nothing new after it loads none', async () => {
    const first = await heavyLoaded('stop', payload('Stop', { stop_hook_active: false }))
    expect(first.heavy).toContain('crypto')
    const idle = await heavyLoaded('stop', payload('Stop', { stop_hook_active: false }))
    expect(idle.stdout.trim()).toBe('')
    expect(idle.heavy).toEqual([])
  })

  it('the prepared startup restore and a check that is not due load none', async () => {
    const start = await heavyLoaded('restore', payload('SessionStart', { source: 'startup' }, 'dddddddd-0000-4000-8000-000000000000'))
    expect(start.stdout).toContain('add a CSV export')
    expect(start.heavy).toEqual([])
    const env = { BOOKMARK_INTERVAL: '1440' }
    await heavyLoaded('check', payload('UserPromptSubmit', { prompt: 'go on' }), env) // the first check records its time
    const notDue = await heavyLoaded('check', payload('UserPromptSubmit', { prompt: 'go on' }), env)
    expect(notDue.heavy).toEqual([])
  })

  it('a Stop with nothing new that reads a handoff to judge it checks the seal without node:crypto', async () => {
    await heavyLoaded('stop', payload('Stop', { stop_hook_active: false })) // nothing new
    const header = await sealedHeader(sb.env.BOOKMARK_HOME!, project, {
      scope: 'repo',
      project: 'proj',
      repo_path: project,
      branch: 'main',
      session_id: SID,
      written: new Date().toISOString(),
    })
    const body = `## Task\nCSV export.\n\n## Next step\nRun the tests.\n\n${'Notes on the exporter. '.repeat(12)}\n`
    await writeFile(join(project, '.bookmark', 'bookmark.context.md'), `${header}\n${body}`)
    // The handoff changed since the last judgement: this Stop reads it and checks its seal.
    const idle = await heavyLoaded('stop', payload('Stop', { stop_hook_active: false }))
    expect(idle.stdout.trim()).toBe('')
    expect(idle.heavy).toEqual([])
  })
})
