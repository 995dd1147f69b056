/**
 * `bookmark snapshot` on a Codex rollout (a copy of a real one from the corpus, its folder moved to the test's
 * project): the host is told from the file, the session id from its name or session_meta. Without --transcript,
 * the newest session of the folder is looked for in Claude Code's and Codex's stores (temp homes).
 */
import { existsSync } from 'node:fs'
import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { type Sandbox, gitProject, runCli, sandbox } from './helpers/cli.js'
import { CORPUS } from './helpers/corpus.js'
import { assistantText, jsonl, prompt } from './helpers/jsonl.js'

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

describe.skipIf(!existsSync(NEW))('bookmark snapshot without --transcript: the newest session of the folder in every host', () => {
  const CODEX_SID = '01a2345e-2939-7733-81eb-319f86c45b47'
  const CLAUDE_SID = 'c1aude00-1111-4222-8333-444455556666'
  let codexHome: string

  beforeEach(() => {
    codexHome = join(sb.home, 'codex-home')
    sb.env.CODEX_HOME = codexHome
  })

  /** The 0.171 rollout of `project` in Codex's store (`sessions/…/DD`, or `archived_sessions`). */
  async function rollout(where: 'sessions' | 'archived_sessions', folder = project): Promise<string> {
    const dir = where === 'sessions' ? join(codexHome, 'sessions', '2026', '12', '02') : join(codexHome, 'archived_sessions')
    await mkdir(dir, { recursive: true })
    const to = join(dir, `rollout-2026-12-02T01-28-35-${CODEX_SID}.jsonl`)
    await writeFile(to, (await readFile(NEW, 'utf8')).split('/home/dev/runs/w/proj').join(folder))
    return to
  }

  /** A Claude Code transcript of `project` where Claude Code keeps it. */
  async function claudeTranscript(): Promise<string> {
    const dir = join(sb.env.CLAUDE_CONFIG_DIR!, 'projects', project.replace(/[^A-Za-z0-9]/g, '-'))
    await mkdir(dir, { recursive: true })
    const to = join(dir, `${CLAUDE_SID}.jsonl`)
    const o = { cwd: project, sessionId: CLAUDE_SID }
    await writeFile(to, jsonl([prompt('Rename the parser module', o), assistantText('Renamed.', o)]))
    return to
  }

  const age = (path: string, secondsAgo: number): Promise<void> => {
    const t = new Date(Date.now() - secondsAgo * 1000)
    return utimes(path, t, t)
  }

  it('finds a Codex rollout of the folder, in sessions and in archived sessions, with no Claude Code transcript at all', async () => {
    for (const where of ['sessions', 'archived_sessions'] as const) {
      const path = await rollout(where)
      const r = await runCli(['snapshot', '--json'], { env: sb.env, cwd: project })
      expect(r.code, r.stderr).toBe(0)
      expect(JSON.parse(r.stdout)).toMatchObject({ written: true, sessionId: CODEX_SID, transcript: path })
      expect(r.stderr).toContain(`picked the most recently written Codex rollout of ${project}, ${path}`)
      expect(await readFile(join(project, '.bookmark', 'LATEST.md'), 'utf8')).toMatch(/of Codex CLI session `01a2345e-2939-7733-81eb-319f86c45b47`/)
      await writeFile(path, '') // gone for the next round: an empty rollout names no folder
    }
  })

  it('takes whichever host wrote the newest session of the folder, and says so', async () => {
    const codex = await rollout('sessions')
    const claude = await claudeTranscript()
    await age(codex, 60)
    const first = await runCli(['snapshot', '--json'], { env: sb.env, cwd: project })
    expect(JSON.parse(first.stdout)).toMatchObject({ written: true, sessionId: CLAUDE_SID, transcript: claude })
    expect(first.stderr).toContain('(Claude Code: newer than the latest Codex CLI session of this folder)')
    await age(claude, 120)
    const second = await runCli(['snapshot', '--json'], { env: sb.env, cwd: project })
    expect(JSON.parse(second.stdout)).toMatchObject({ written: true, sessionId: CODEX_SID, transcript: codex })
    expect(second.stderr).toContain('(Codex CLI: newer than the latest Claude Code session of this folder)')
    expect(await readFile(join(project, '.bookmark', 'LATEST.md'), 'utf8')).toContain('> patch file')
  })

  it("finds a session id in whichever host has it, and never another folder's rollout", async () => {
    const codex = await rollout('sessions')
    await claudeTranscript()
    const named = await runCli(['snapshot', '--session-id', CODEX_SID, '--json'], { env: sb.env, cwd: project })
    expect(JSON.parse(named.stdout)).toMatchObject({ written: true, sessionId: CODEX_SID, transcript: codex })

    const elsewhere = join(sb.dir, 'other')
    await mkdir(join(elsewhere, '.git'), { recursive: true })
    const none = await runCli(['snapshot', '--json'], { env: sb.env, cwd: elsewhere })
    expect(none.code).toBe(1)
    expect(none.stderr).toContain(`no Claude Code transcripts for ${elsewhere} under ${join(sb.env.CLAUDE_CONFIG_DIR!, 'projects')}`)
    expect(none.stderr).toContain(`no Codex rollout of ${elsewhere} under ${join(codexHome, 'sessions')} or ${join(codexHome, 'archived_sessions')}`)
    expect(none.stderr).toMatch(/; pass --transcript PATH\n?$/)
  })
})
