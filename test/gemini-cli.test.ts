/**
 * `bookmark snapshot` on a Gemini CLI chat (copies of real ones from the corpus, the 0.61 one's folder moved to
 * the test's project): the host is told from the file, the session id from its metadata.
 */
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { type Sandbox, gitProject, runCli, sandbox } from './helpers/cli.js'
import { CORPUS } from './helpers/corpus.js'

const NEW = join(CORPUS, 'host-samples', 'gemini-0.61-session-2026-12-02T01-29-68de3b6c.jsonl')
const OLD = join(CORPUS, 'gemini', 'gemini-legacy-json-shell-info-update-notice-f7633853.json')

let sb: Sandbox
let project: string

beforeEach(async () => {
  sb = await sandbox()
  project = await gitProject(sb)
})

async function copy(from: string, name: string, folder?: string): Promise<string> {
  const to = join(sb.dir, name)
  const text = await readFile(from, 'utf8')
  await writeFile(to, folder ? text.split(folder).join(project) : text)
  return to
}

describe.skipIf(!existsSync(NEW))('bookmark snapshot --transcript <Gemini 0.61 chat>', () => {
  it('recognises the chat and writes a LATEST.md with its last request and the written files', async () => {
    const chat = await copy(NEW, 'copied.jsonl', '/home/dev/runs/w/proj')
    const r = await runCli(['snapshot', '--transcript', chat, '--cwd', project, '--json'], { env: sb.env })
    expect(r.stderr).toBe('')
    expect(JSON.parse(r.stdout)).toMatchObject({ written: true, sessionId: '68de3b6c-482f-47ca-9ec1-7c7b75e900df', projectRoot: project })
    const latest = await readFile(join(project, '.bookmark', 'LATEST.md'), 'utf8')
    expect(latest).toContain('> write notes.md')
    expect(latest).toContain('`notes.md` created +1 -0')
    expect(latest).toContain('`hello.txt` modified +1 -1')
    expect(latest).toContain('gemini-3.8-flash')
    expect(latest).not.toContain('session_context')
    // Read as Claude Code lines (forced), the same chat holds no request and no file.
    const forced = await runCli(['snapshot', '--transcript', chat, '--cwd', project, '--host', 'claude', '--json'], { env: sb.env })
    expect(JSON.parse(forced.stdout)).toMatchObject({ sessionId: 'copied' })
    expect(await readFile(join(project, '.bookmark', 'LATEST.md'), 'utf8')).not.toContain('notes.md')
    const again = await runCli(['snapshot', '--transcript', chat, '--cwd', project, '--host', 'gemini', '--json'], { env: sb.env })
    expect(JSON.parse(again.stdout)).toMatchObject({ written: true, sessionId: '68de3b6c-482f-47ca-9ec1-7c7b75e900df' })
    expect(await readFile(join(project, '.bookmark', 'LATEST.md'), 'utf8')).toContain('`notes.md` created +1 -0')
  })
})

describe.skipIf(!existsSync(OLD))('bookmark snapshot --transcript <older Gemini .json session>', () => {
  it('recognises the one-object session and reads it, its relative paths in the project', async () => {
    const chat = await copy(OLD, 'session-2026-01-15T20-51-f7633853.json')
    const r = await runCli(['snapshot', '--transcript', chat, '--cwd', project, '--json'], { env: sb.env })
    expect(JSON.parse(r.stdout)).toMatchObject({ written: true, sessionId: 'f7633853-6663-4dbb-bbf4-6159afa29df8' })
    const latest = await readFile(join(project, '.bookmark', 'LATEST.md'), 'utf8')
    expect(latest).toContain('> run an agent that creates a color file inside docs, choose your color')
    expect(latest).toContain('`docs/color.md`')
    expect(latest).toContain('Staged `docs/color.md`. Verifying git status.')
  })
})
