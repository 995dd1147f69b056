/**
 * The four hook commands, spawned from the built CLI with real payloads on stdin (the shapes Claude Code
 * 2.1.332 sends): exit code, the exact stdout JSON (or its absence), and the files written.
 */
import { spawn } from 'node:child_process'
import { chmod, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { BIN, type Sandbox, gitRepo, runCli, sandbox } from './helpers/cli.js'
import { assistantText, call, jsonl, prompt } from './helpers/jsonl.js'
import { sealedHeader, stateDir } from './helpers/narrative.js'

let sb: Sandbox
let project: string
let transcript: string
const SID = 'aaaaaaaa-1111-4222-8333-444444444444'

function payload(event: string, extra: Record<string, unknown> = {}, sid = SID, t = transcript): string {
  return JSON.stringify({ session_id: sid, transcript_path: t, cwd: project, hook_event_name: event, prompt_id: 'p1', permission_mode: 'default', ...extra })
}

async function hook(cmd: string, input: string, cwd = project) {
  const r = await runCli([cmd], { env: { ...sb.env, CLAUDE_PROJECT_DIR: cwd }, cwd, input })
  expect(r.code, r.stderr).toBe(0)
  return { ...r, json: r.stdout.trim() === '' ? undefined : JSON.parse(r.stdout) }
}

function identityHeader(reason: string): string {
  const m = /<!-- BOOKMARK_IDENTITY[\s\S]*?-->/.exec(reason)
  if (!m) throw new Error('no identity header in the block reason')
  return m[0]
}

const narrativeBody = (header: string) =>
  `${header}\n# Handoff: proj\n\n## Task\nAdd CSV export to the notes CLI (user asked for --format csv).\n\n## Progress\nexportCsv written in src/export.ts; tests pass.\n\n## Decisions\nQuote every field containing a comma or quote, because spreadsheets split on them.\n\n## Open items\nNewlines in bodies are not handled yet.\n\n## Next step\nQuote fields with newlines and add a test.\n\n## Files\n- src/export.ts: the exporter\n`

beforeEach(async () => {
  sb = await sandbox()
  project = await gitRepo(join(sb.dir, 'proj'))
  transcript = join(sb.dir, `${SID}.jsonl`)
  await writeFile(
    transcript,
    jsonl([
      prompt('add a CSV export to the notes command', { cwd: project }),
      call('w1', 'Write', { file_path: join(project, 'src/export.ts'), content: 'export function exportCsv() {}\n' }, { type: 'create' }, { cwd: project }),
      call('t1', 'TaskCreate', { subject: 'Handle newlines in bodies' }, { task: { id: '1', subject: 'Handle newlines in bodies' } }, { cwd: project }),
      assistantText('Export written.', { cwd: project }),
    ]),
  )
})

describe('stop', () => {
  it('captures, blocks once for the narrative, honours stop_hook_active, and accepts the written narrative', async () => {
    const first = await hook('stop', payload('Stop', { stop_hook_active: false, last_assistant_message: 'Export written; newlines next.' }))
    expect(Object.keys(first.json)).toEqual(['decision', 'reason'])
    expect(first.json.decision).toBe('block')
    const reason: string = first.json.reason
    expect(reason).toContain(`Use your Write tool to write ${join(project, '.bookmark', 'bookmark.context.md')} now`)
    expect(reason).toContain(`repo_path: ${project}`)
    expect(reason).toContain('branch: main')
    expect(reason).toMatch(/head: [0-9a-f]{40}/)
    for (const s of ['## Task', '## Progress', '## Decisions', '## Open items', '## Next step', '## Files']) expect(reason).toContain(s)
    expect(reason).toMatch(/seal: [0-9a-f]{32}/)
    const state = await stateDir(sb.env.BOOKMARK_HOME!, project)
    const sessions = JSON.parse(await readFile(join(state, 'sessions', `${SID}.json`), 'utf8'))
    expect(sessions).toMatchObject({ blocks: 1, compactions: 0 })
    const snaps = await readdir(join(project, '.bookmark', 'snapshots'))
    expect(snaps.length).toBe(1)
    const snap = JSON.parse(await readFile(join(project, '.bookmark', 'snapshots', snaps[0]!), 'utf8'))
    expect(snap.trigger).toBe('stop')
    expect(snap.lastAssistant).toEqual({ text: 'Export written; newlines next.', source: 'hook' })

    // The model is continuing because of our block: never block again.
    const active = await hook('stop', payload('Stop', { stop_hook_active: true, last_assistant_message: 'Wrote it.' }))
    expect(active.stdout).toBe('')

    // The model wrote the file as asked: the next stop passes even after more work.
    await writeFile(join(project, '.bookmark', 'bookmark.context.md'), narrativeBody(identityHeader(reason)))
    await writeFile(
      transcript,
      jsonl([
        prompt('also handle newlines in the bodies of notes', { cwd: project }),
        call('e1', 'Edit', { file_path: join(project, 'src/export.ts'), old_string: 'a', new_string: 'b' }, 'ok', { cwd: project }),
      ]),
      { flag: 'a' },
    )
    await chmod(join(project, '.bookmark', 'bookmark.context.md'), 0o644) // as the model's Write tool leaves it
    const later = await hook('stop', payload('Stop', { stop_hook_active: false }))
    expect(later.stdout).toBe('')
    expect((await stat(join(project, '.bookmark', 'bookmark.context.md'))).mode & 0o777).toBe(0o600) // made private by the capture
    const status = JSON.parse((await runCli(['status', '--json'], { env: sb.env, cwd: project })).stdout)
    expect(status.narrativeBlocks).toBe(1)
    // The Stop after it found the handoff written, after the block: noted once, in the home (never in the project).
    expect([status.handoffsWritten, status.handoffsAnswered]).toEqual([1, 1])
    const written = Date.parse(/^written: (.+)$/m.exec(reason)![1]!)
    const noted = (await readFile(join(state, 'stats.jsonl'), 'utf8')).trim().split('\n')
    expect(noted.map((l) => JSON.parse(l))).toEqual([{ k: 'h', w: written, a: 1, t: expect.any(Number) }])
    expect(await readdir(join(project, '.bookmark'))).not.toContain('stats.jsonl')
    // Later hooks that meet the same handoff do not note it again.
    await writeFile(transcript, jsonl([prompt('one more small thing', { cwd: project })]), { flag: 'a' })
    expect((await hook('stop', payload('Stop', { stop_hook_active: false }))).stdout).toBe('')
    expect((await hook('stop', payload('Stop', { stop_hook_active: false }))).stdout).toBe('')
    expect((await readFile(join(state, 'stats.jsonl'), 'utf8')).trim().split('\n')).toEqual(noted)
    expect((await runCli(['status'], { env: sb.env, cwd: project })).stdout).toContain(
      '\nNarrative: 1 Stop block asked the model for the handoff; 1 handoff written (1 after a block); 0 compactions seen\nRestores:  none given yet\n',
    )
  })

  it('does not block again in the same session without the refresh window', async () => {
    expect((await hook('stop', payload('Stop', { stop_hook_active: false }))).json?.decision).toBe('block')
    await writeFile(
      transcript,
      jsonl([
        prompt('and another change please to the exporter', { cwd: project }),
        call('w9', 'Write', { file_path: join(project, 'b.ts'), content: 'x' }, { type: 'create' }, { cwd: project }),
      ]),
      { flag: 'a' },
    )
    expect((await hook('stop', payload('Stop', { stop_hook_active: false }))).stdout).toBe('')
  })

  it('logs a failure to errors.log and stderr, and still exits 0 with no output', async () => {
    await mkdir(sb.env.BOOKMARK_HOME!, { recursive: true }) // a log goes only into a folder that is there
    const r = await hook('stop', payload('Stop', {}, SID, join(sb.dir, 'missing.jsonl')))
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('stop hook failed: transcript not found')
    // Before this home's first capture there is no project folder in it: the home's own log gets it.
    expect(await readFile(join(sb.env.BOOKMARK_HOME!, 'errors.log'), 'utf8')).toContain('stop hook failed: transcript not found')
    await hook('stop', payload('Stop', { stop_hook_active: true }))
    await hook('stop', payload('Stop', {}, SID, join(sb.dir, 'gone.jsonl')))
    expect(await readFile(join(await stateDir(sb.env.BOOKMARK_HOME!, project), 'errors.log'), 'utf8')).toContain(
      `transcript not found: ${join(sb.dir, 'gone.jsonl')}`,
    )
  })
})

describe('precompact and restore(compact)', () => {
  it('prints nothing, counts the compaction, and the compact restore carries the request and open tasks', async () => {
    const pre = await hook('precompact', payload('PreCompact', { trigger: 'manual', custom_instructions: null }))
    expect(pre.stdout).toBe('')
    const state = await stateDir(sb.env.BOOKMARK_HOME!, project)
    const sessions = JSON.parse(await readFile(join(state, 'sessions', `${SID}.json`), 'utf8'))
    expect(sessions.compactions).toBe(1)
    const resume = await readFile(join(state, 'sessions', `${SID}.compact.md`), 'utf8')
    expect(resume).toContain('add a CSV export to the notes command')
    const r = await hook('restore', payload('SessionStart', { source: 'compact', model: 'claude-opus-5-5' }))
    expect(Object.keys(r.json)).toEqual(['hookSpecificOutput'])
    expect(r.json.hookSpecificOutput.hookEventName).toBe('SessionStart')
    const text: string = r.json.hookSpecificOutput.additionalContext
    expect(text).toBe(resume)
    expect(text).toContain('Handle newlines in bodies')
    expect(text.length).toBeLessThanOrEqual(6_000)
    const noted = JSON.parse(await readFile(join(state, 'stats.jsonl'), 'utf8'))
    expect([noted.k, noted.c, noted.s]).toEqual(['r', text.length, 'compact'])
  })
})

describe('restore by source', () => {
  it('startup and clear: the narrative with the facts it does not cover; within the budget', async () => {
    const first = await hook('stop', payload('Stop', { stop_hook_active: false }))
    await writeFile(join(project, '.bookmark', 'bookmark.context.md'), narrativeBody(identityHeader(first.json.reason)))
    const sizes: number[] = []
    for (const source of ['startup', 'clear']) {
      const r = await hook('restore', payload('SessionStart', { source }, 'bbbbbbbb-0000-4000-8000-000000000000', join(sb.dir, 'new.jsonl')))
      const text: string = r.json.hookSpecificOutput.additionalContext
      expect(text).toContain('Quote every field containing a comma or quote, because spreadsheets split on them.')
      expect(text).toContain('Handle newlines in bodies') // open task from the snapshot
      expect(text).not.toContain('BOOKMARK_IDENTITY')
      expect(text.length).toBeLessThanOrEqual(6_000)
      sizes.push(text.length)
    }
    // Each restore given noted its size, and `bookmark status` says so.
    const state = await stateDir(sb.env.BOOKMARK_HOME!, project)
    const noted = (await readFile(join(state, 'stats.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(noted.map(({ k, c, s }) => ({ k, c, s }))).toEqual([
      { k: 'r', c: sizes[0], s: 'startup' },
      { k: 'r', c: sizes[1], s: 'clear' },
    ])
    const status = JSON.parse((await runCli(['status', '--json'], { env: sb.env, cwd: project })).stdout)
    expect(status.restores).toMatchObject({ count: 2, largest: Math.max(...sizes), last: { chars: sizes[1], source: 'clear' } })
    expect(status.restores.average).toBe(Math.round((sizes[0]! + sizes[1]!) / 2))
  })

  it('falls back to LATEST facts without a narrative, and respects restoreBudget', async () => {
    await hook('stop', payload('Stop', { stop_hook_active: true }))
    const r = await hook('restore', payload('SessionStart', { source: 'startup' }, 'cccccccc-0000-4000-8000-000000000000', join(sb.dir, 'n.jsonl')))
    const text: string = r.json.hookSpecificOutput.additionalContext
    expect(text).toContain('add a CSV export to the notes command')
    expect(text).toContain('`src/export.ts` [deleted since] created') // not on disk in this repository
    const tight = await runCli(['restore'], {
      env: { ...sb.env, BOOKMARK_RESTORE_BUDGET: '500' },
      cwd: project,
      input: payload('SessionStart', { source: 'startup' }),
    })
    expect(JSON.parse(tight.stdout).hookSpecificOutput.additionalContext.length).toBeLessThanOrEqual(500)
  })

  it('resume: a note of what other sessions changed since, or nothing', async () => {
    await hook('stop', payload('Stop', { stop_hook_active: true }))
    expect((await hook('restore', payload('SessionStart', { source: 'resume' }))).stdout).toBe('')
    const other = join(sb.dir, 'other.jsonl')
    await writeFile(
      other,
      jsonl([
        prompt('rename the exporter module', { cwd: project, ts: '2099-01-01T00:00:00.000Z' }),
        call('w2', 'Write', { file_path: join(project, 'src/other.ts'), content: 'x' }, { type: 'create' }, { cwd: project, ts: '2099-01-01T00:00:01.000Z' }),
      ]),
    )
    await hook('stop', payload('Stop', { stop_hook_active: true }, 'dddddddd-0000-4000-8000-000000000000', other))
    const r = await hook('restore', payload('SessionStart', { source: 'resume' }))
    const text: string = r.json.hookSpecificOutput.additionalContext
    expect(text).toContain('src/other.ts')
    expect(text).toContain('dddddddd')
    expect(
      (await hook('restore', payload('SessionStart', { source: 'fork' }, 'eeeeeeee-0000-4000-8000-000000000000', join(sb.dir, 'fork.jsonl')))).stdout,
    ).toBe('')
  })

  it('nothing at all in a project without any record', async () => {
    const r = await hook('restore', payload('SessionStart', { source: 'startup' }))
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe('')
    // Not even a figure noted: nothing but the code cache of the hook's bundle (bin/bookmark.cjs).
    expect((await readdir(sb.env.BOOKMARK_HOME!).catch(() => [])).filter((n) => n !== 'cache')).toEqual([])
  })
})

describe('staleness and identity at restore', () => {
  /** `sealedFor`: the root the seal was made for (another project's seal is what a copied handoff carries). */
  async function withNarrative(hoursOld: number, sealedFor = project, repoPath = project): Promise<string> {
    await hook('stop', payload('Stop', { stop_hook_active: true }))
    const written = new Date(Date.now() - hoursOld * 3_600_000).toISOString()
    const header = await sealedHeader(sb.env.BOOKMARK_HOME!, sealedFor, {
      scope: 'repo',
      project: 'proj',
      repo_path: repoPath,
      branch: 'main',
      session_id: SID,
      written,
    })
    await writeFile(join(project, '.bookmark', 'bookmark.context.md'), narrativeBody(header))
    const r = await hook('restore', payload('SessionStart', { source: 'startup' }, 'ffffffff-0000-4000-8000-000000000000', join(sb.dir, 'x.jsonl')))
    return r.json?.hookSpecificOutput.additionalContext ?? ''
  }

  it('23 hours: injected without a warning; 25 hours: with a warning', async () => {
    const fresh = await withNarrative(23)
    expect(fresh).toContain('spreadsheets split on them')
    expect(fresh).not.toMatch(/old; check it/)
    const warned = await withNarrative(25)
    expect(warned).toContain('spreadsheets split on them')
    expect(warned).toMatch(/1 day old|25 hours old/)
  })

  it('73 hours: not injected; says how old and how to look', async () => {
    const text = await withNarrative(73)
    expect(text).not.toContain('spreadsheets split on them')
    expect(text).toMatch(/3 days|73 hours/)
    expect(text).toContain('bookmark show')
  })

  it('another repository’s handoff, or one without this user’s seal: nothing of it, not even its path', async () => {
    const copied = await withNarrative(1, '/somewhere/else', '/somewhere/else')
    expect(copied).not.toContain('spreadsheets split on them')
    expect(copied).not.toContain('/somewhere/else')
    await writeFile(
      join(project, '.bookmark', 'bookmark.context.md'),
      narrativeBody(
        `<!-- BOOKMARK_IDENTITY\nscope: repo\nproject: proj\nrepo_path: ${project}\nbranch: main\nsession_id: ${SID}\nwritten: ${new Date().toISOString()}\n-->`,
      ),
    )
    const r = await hook('restore', payload('SessionStart', { source: 'startup' }, 'ffffffff-0000-4000-8000-000000000000', join(sb.dir, 'x.jsonl')))
    expect(r.json?.hookSpecificOutput.additionalContext ?? '').not.toContain('spreadsheets split on them')
  })
})

describe('check', () => {
  it('snapshots when due, then asks once for a refresh when the context is nearly full', async () => {
    const r1 = await hook('check', payload('UserPromptSubmit', { prompt: 'go on' }))
    expect(r1.stdout).toBe('') // usage is tiny
    expect((await readdir(join(project, '.bookmark', 'snapshots'))).length).toBe(1) // a fresh project counts as due
    const r2 = await hook('check', payload('UserPromptSubmit', { prompt: 'go on' }))
    expect(r2.stdout).toBe('')
    expect((await readdir(join(project, '.bookmark', 'snapshots'))).length).toBe(1) // not due again within 5 minutes

    const full = { ...assistantText('Working on it.', { cwd: project }) }
    ;(full.message as { usage: unknown }).usage = { input_tokens: 10, cache_read_input_tokens: 160_000, cache_creation_input_tokens: 0, output_tokens: 20 }
    await writeFile(transcript, jsonl([full]), { flag: 'a' })
    const r3 = await hook('check', payload('UserPromptSubmit', { prompt: 'continue' }))
    expect(Object.keys(r3.json)).toEqual(['hookSpecificOutput'])
    expect(r3.json.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit')
    expect(r3.json.hookSpecificOutput.additionalContext).toContain('the context is 80% full')
    expect((await hook('check', payload('UserPromptSubmit', { prompt: 'continue' }))).stdout).toBe('') // only the first crossing
  })

  it('BOOKMARK_INTERVAL overrides the configured interval', async () => {
    await runCli(['config', '--interval', '60'], { env: sb.env, cwd: project })
    await hook('check', payload('UserPromptSubmit', { prompt: 'a' }))
    const sessionFile = join(await stateDir(sb.env.BOOKMARK_HOME!, project), 'sessions', `${SID}.json`)
    const twoMinutesAgo = new Date(Date.now() - 120_000).toISOString()
    const setLast = async () =>
      writeFile(sessionFile, JSON.stringify({ ...JSON.parse(await readFile(sessionFile, 'utf8')), lastIntervalSnapshotAt: twoMinutesAgo }))
    await writeFile(transcript, jsonl([prompt('one more request for the exporter please', { cwd: project })]), { flag: 'a' })
    await setLast()
    await hook('check', payload('UserPromptSubmit', { prompt: 'b' })) // config says 60 minutes: not due
    expect((await readdir(join(project, '.bookmark', 'snapshots'))).length).toBe(1)
    expect(JSON.parse(await readFile(sessionFile, 'utf8')).lastIntervalSnapshotAt).toBe(twoMinutesAgo)
    const env = { ...sb.env, BOOKMARK_INTERVAL: '1', CLAUDE_PROJECT_DIR: project }
    const r = await runCli(['check'], { env, cwd: project, input: payload('UserPromptSubmit', { prompt: 'c' }) })
    expect(r.code).toBe(0)
    expect((await readdir(join(project, '.bookmark', 'snapshots'))).length).toBe(2) // the environment's 1 minute wins
    const cfg = JSON.parse((await runCli(['config', '--json'], { env, cwd: project })).stdout)
    expect(cfg.values.interval).toEqual({ value: 1, source: 'env', env: 'BOOKMARK_INTERVAL' })
  })
})

describe('every hook: hostile stdin', () => {
  it.each(['stop', 'precompact', 'check', 'restore'])('%s: empty, invalid and wrongly typed payloads exit 0 quietly on stdout', async (cmd) => {
    for (const cwd of [sb.home, project]) {
      for (const input of [
        '',
        'not json',
        '[1,2]',
        '{"session_id":42,"cwd":["x"],"transcript_path":null}',
        '{"cwd":"/does/not/exist","transcript_path":"../../etc/passwd"}',
      ]) {
        const r = await runCli([cmd], { env: sb.env, cwd, input })
        expect(r.code).toBe(0)
        expect(r.stdout).toBe('')
      }
    }
  })

  it('never creates a store for a working directory that does not exist', async () => {
    const ghost = join(sb.dir, 'ghost', 'project')
    for (const cmd of ['stop', 'precompact', 'check', 'restore']) {
      const r = await runCli([cmd], {
        env: sb.env,
        cwd: project,
        input: JSON.stringify({ session_id: SID, transcript_path: transcript, cwd: ghost, hook_event_name: 'Stop', source: 'startup' }),
      })
      expect(r.code).toBe(0)
      expect(r.stdout).toBe('')
    }
    await expect(readdir(join(sb.dir, 'ghost'))).rejects.toThrow()
    const cli = await runCli(['snapshot', '--transcript', transcript, '--cwd', ghost], { env: sb.env })
    expect(cli.code).toBe(1)
    expect(cli.stderr).toContain(`working directory ${ghost} does not exist`)
  })

  it('an open pipe that never closes does not hang the hook', async () => {
    const child = spawn(process.execPath, [BIN, 'restore'], { env: sb.env, cwd: project, stdio: ['pipe', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(code).toBe(0)
    expect(stderr).toContain('stdin stayed open')
    child.stdin.destroy()
  })
})
