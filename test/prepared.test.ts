/**
 * The prepared startup restore (src/hooks/prepared.ts): the Stop that writes a snapshot prepares what the
 * next SessionStart prints, and SessionStart uses it only while everything it was made from is unchanged.
 * To tell a prepared answer from a computed one, the tests mark the prepared text.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { type Sandbox, gitRepo, runCli, sandbox } from './helpers/cli.js'
import { assistantText, call, jsonl, prompt } from './helpers/jsonl.js'
import { repoHeader, stateDir } from './helpers/narrative.js'

let sb: Sandbox
let project: string
let transcript: string
const SID = 'aaaaaaaa-1111-4222-8333-555555555555'
const MARK = 'PREPARED ANSWER (test mark)'

const payload = (event: string, extra: Record<string, unknown> = {}, sid = SID): string =>
  JSON.stringify({ session_id: sid, transcript_path: transcript, cwd: project, hook_event_name: event, permission_mode: 'default', ...extra })

async function hook(cmd: string, input: string, env: NodeJS.ProcessEnv = {}) {
  const r = await runCli([cmd], { env: { ...sb.env, CLAUDE_PROJECT_DIR: project, ...env }, cwd: project, input })
  expect(r.code, r.stderr).toBe(0)
  expect(r.stderr).toBe('')
  return r.stdout.trim() === ''
    ? undefined
    : (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext
}

const startup = (env: NodeJS.ProcessEnv = {}, source = 'startup') =>
  hook('restore', payload('SessionStart', { source }, 'bbbbbbbb-0000-4000-8000-000000000000'), env)
const preparedFile = async () => join(await stateDir(sb.env.BOOKMARK_HOME!, project), 'restore.prepared.json')
const readPrepared = async () =>
  JSON.parse(await readFile(await preparedFile(), 'utf8')) as {
    version: number
    key: Record<string, unknown>
    value: { validUntil: number; text: string | null }
  }

async function writeNarrative(hoursOld: number): Promise<void> {
  const written = new Date(Date.now() - hoursOld * 3_600_000).toISOString()
  const header = await repoHeader(sb.env.BOOKMARK_HOME!, project, SID, written)
  await writeFile(
    join(project, '.bookmark', 'bookmark.context.md'),
    `${header}\n# Handoff: proj\n\n## Task\nShip the CSV export.\n\n## Decisions\nQuote every field with a comma, because spreadsheets split on them.\n\n## Open items\nNewlines in bodies.\n\n## Next step\nHandle newlines and add a test for them, then release.\n`,
  )
}

/** One more turn in the transcript and the Stop that captures it (narrative blocks off). */
let turn = 0
async function capturedTurn(): Promise<void> {
  turn++
  await writeFile(transcript, jsonl([prompt(`step ${turn}: keep going`, { cwd: project }), assistantText(`Step ${turn} done.`, { cwd: project })]), {
    flag: 'a',
  })
  await hook('stop', payload('Stop', { stop_hook_active: false, last_assistant_message: `Step ${turn} done.` }), { BOOKMARK_MAX_NARRATIVE_BLOCKS: '0' })
}

async function mark(): Promise<void> {
  const p = await readPrepared()
  await writeFile(await preparedFile(), JSON.stringify({ ...p, value: { ...p.value, text: MARK } }))
}

beforeEach(async () => {
  sb = await sandbox()
  project = await gitRepo(join(sb.dir, 'proj'))
  transcript = join(sb.dir, `${SID}.jsonl`)
  await writeFile(
    transcript,
    jsonl([
      prompt('add a CSV export to the notes command', { cwd: project }),
      call('w1', 'Write', { file_path: join(project, 'src/export.ts'), content: 'x\n' }, { type: 'create' }, { cwd: project }),
    ]),
  )
  await capturedTurn()
  await writeNarrative(1)
  await capturedTurn()
})

describe('prepared startup restore', () => {
  it('a capturing Stop prepares exactly what the restore computes', async () => {
    const prepared = await readPrepared()
    expect(prepared.value.text).toContain('spreadsheets split on them')
    expect(prepared.value.text).toContain('Step 2 done.')
    const used = await startup()
    await rm(await preparedFile())
    const computed = await startup()
    expect(used).toBe(computed)
    expect(used).toBe(prepared.value.text)
  })

  it('a turn later, with the handoff body kept redacted from the Stop before (narrative.body.json), prepares the same', async () => {
    const kept = join(dirname(await preparedFile()), 'narrative.body.json')
    const before = await readFile(kept, 'utf8')
    const earlier = (await readPrepared()).value.text
    await capturedTurn()
    expect(await readFile(kept, 'utf8')).toBe(before) // the same body: used, not written again
    const prepared = await readPrepared()
    expect(prepared.value.text).not.toBe(earlier) // made again: it names the new snapshot
    expect(prepared.value.text).toContain('spreadsheets split on them')
    await rm(await preparedFile())
    expect(await startup()).toBe(prepared.value.text)
  })

  it('is used while nothing it was made from changed, for startup and clear only', async () => {
    await mark()
    expect(await startup()).toBe(MARK)
    expect(await startup({}, 'clear')).toBe(MARK)
    expect(await startup({}, 'compact')).not.toBe(MARK)
    expect(await startup({}, 'resume')).not.toBe(MARK)
  })

  it('is not used after the handoff, the index, HEAD, git index or the configuration changed', async () => {
    const changes: [string, () => Promise<NodeJS.ProcessEnv | void>][] = [
      ['handoff rewritten', () => writeNarrative(2)],
      ['index rewritten', async () => writeFile(join(project, '.bookmark', 'index.json'), await readFile(join(project, '.bookmark', 'index.json')))],
      [
        'new commit',
        async () => void execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'next'], { cwd: project }),
      ],
      [
        'git add',
        async () => {
          await writeFile(join(project, `staged-${turn}.txt`), 'x\n')
          execFileSync('git', ['add', '--', `staged-${turn}.txt`], { cwd: project })
        },
      ],
      ['budget from the environment', async () => ({ BOOKMARK_RESTORE_BUDGET: '900' })],
      ['staleness hours from the environment', async () => ({ BOOKMARK_STALE_WARN_HOURS: '12' })],
    ]
    for (const [what, change] of changes) {
      await capturedTurn()
      await mark()
      expect(await startup(), what).toBe(MARK)
      const env = (await change()) ?? {}
      expect(await startup(env), what).not.toBe(MARK)
    }
  })

  it('holds until the first age verdict would change, and is not made for an answer with an age warning', async () => {
    await writeNarrative(23)
    await capturedTurn()
    const p = await readPrepared()
    const written = Date.parse(/written: (\S+)/.exec(await readFile(join(project, '.bookmark', 'bookmark.context.md'), 'utf8'))![1]!)
    expect(Math.abs(p.value.validUntil - (written + 24 * 3_600_000))).toBeLessThan(2)
    await mark()
    expect(await startup()).toBe(MARK)
    await writeFile(await preparedFile(), JSON.stringify({ ...p, value: { text: MARK, validUntil: Date.now() - 1 } }))
    expect(await startup()).toContain('spreadsheets split on them')

    await writeNarrative(25)
    await capturedTurn()
    await expect(readFile(await preparedFile())).rejects.toThrow(/ENOENT/)
    expect(await startup()).toMatch(/25 hours old/)
  })

  it('a file planted in a folder without a record (a cloned repository) is never used, even with a matching key', async () => {
    const other = join(sb.dir, 'cloned')
    await mkdir(join(other, '.bookmark'), { recursive: true })
    const { build } = (await readPrepared()).key
    const key = { build, root: other, branch: null, head: null, narrative: null, gitIndex: null, budget: 6000, warnHours: 24, refuseHours: 72, index: null }
    await writeFile(
      join(other, '.bookmark', 'restore.prepared.json'),
      JSON.stringify({ version: 1, key, value: { validUntil: Number.MAX_SAFE_INTEGER, text: MARK } }),
    )
    const r = await runCli(['restore'], {
      env: { ...sb.env, CLAUDE_PROJECT_DIR: other },
      cwd: other,
      input: JSON.stringify({ session_id: 'x', cwd: other, hook_event_name: 'SessionStart', source: 'startup' }),
    })
    expect(r).toMatchObject({ code: 0, stdout: '' })
  })

  it('never keeps a project path or branch that holds a secret: for such a project the answer is made each time', async () => {
    const secret = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'
    project = await gitRepo(join(sb.dir, secret, 'proj'))
    execFileSync('git', ['checkout', '-q', '-b', `fix/${secret}`], { cwd: project })
    transcript = join(sb.dir, 'second', `${SID}.jsonl`)
    await mkdir(join(sb.dir, 'second'))
    await writeFile(transcript, jsonl([prompt('add a CSV export to the notes command', { cwd: project })]))
    await capturedTurn()
    await writeNarrative(1)
    await capturedTurn()
    for (const name of ['restore.prepared.json', 'narrative.state.json']) {
      const text = await readFile(join(await stateDir(sb.env.BOOKMARK_HOME!, project), name), 'utf8')
      expect(text, name).not.toContain(secret)
      expect(text, name).toContain('[REDACTED:github-token]')
    }
    await mark()
    const restored = await startup()
    expect(restored).toContain('Step')
    expect(restored).not.toContain(MARK)
    expect(restored).not.toContain(secret)
  })

  it('redacts each input that is no stored record (folder, branch) in the prepared text, which no pass over the whole redacts', async () => {
    const secret = 'ghp_' + 'Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2'
    project = await gitRepo(join(sb.dir, `proj-${secret}`))
    execFileSync('git', ['checkout', '-q', '-b', `fix/${secret}`], { cwd: project })
    transcript = join(sb.dir, 'third', `${SID}.jsonl`)
    await mkdir(join(sb.dir, 'third'))
    await writeFile(transcript, jsonl([prompt('add a CSV export to the notes command', { cwd: project })]))
    await capturedTurn()
    await writeNarrative(1) // written on main: a note names both branches
    await capturedTurn()
    const text = (await readPrepared()).value.text!
    expect(text).not.toContain(secret)
    const folder = 'proj-[REDACTED:github-token]'
    expect(text).toContain(`# Bookmark: continuing work in \`${folder}\``)
    expect(text).toContain(`Project root: \`${join(sb.dir, folder)}\`.`)
    expect(text).toContain('now on fix/[REDACTED:github-token].')
    expect(text).toContain(`Full record: \`${join(sb.dir, folder, '.bookmark', 'bookmark.context.md')}\``)
  })

  it('a damaged or foreign file is ignored', async () => {
    const p = await readPrepared()
    await writeFile(await preparedFile(), '{ not json')
    expect(await startup()).toContain('spreadsheets split on them')
    await writeFile(await preparedFile(), JSON.stringify({ ...p, version: 99, value: { validUntil: Number.MAX_SAFE_INTEGER, text: MARK } }))
    expect(await startup()).toContain('spreadsheets split on them')
  })
})

describe('the judged handoff kept for the next Stop', () => {
  const kept = async () => join(await stateDir(sb.env.BOOKMARK_HOME!, project), 'narrative.state.json')
  const tamper = async () => {
    const k = JSON.parse(await readFile(await kept(), 'utf8'))
    await writeFile(
      await kept(),
      JSON.stringify({ ...k, value: { exists: false, bytes: 0, identityOk: false, hasSection: false, templateOnly: false, tracked: false } }),
    )
  }
  /** A Stop with nothing new, narrative blocks allowed: it blocks only when it believes there is no handoff. */
  const idleStop = async () =>
    (
      await runCli(['stop'], {
        env: { ...sb.env, CLAUDE_PROJECT_DIR: project },
        cwd: project,
        input: payload('Stop', { stop_hook_active: false, last_assistant_message: `Step ${turn} done.` }),
      })
    ).stdout

  it('a capturing Stop keeps it, a Stop with nothing new uses it while the handoff is unchanged', async () => {
    expect(JSON.parse(await readFile(await kept(), 'utf8')).value).toMatchObject({ exists: true, identityOk: true, hasSection: true, tracked: false })
    // Another handoff file (same text, new stamp): what was kept is not used, the handoff is judged fresh.
    await tamper()
    const text = await readFile(join(project, '.bookmark', 'bookmark.context.md'), 'utf8')
    await rm(join(project, '.bookmark', 'bookmark.context.md'))
    await writeFile(join(project, '.bookmark', 'bookmark.context.md'), text)
    expect(await idleStop()).toBe('')
    // The next capture judges the handoff again and keeps that; marked as missing, a Stop with nothing new believes it.
    await capturedTurn()
    await tamper()
    expect(JSON.parse(await idleStop()).decision).toBe('block')
  })
})
