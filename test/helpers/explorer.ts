/** A project with a store for the explorer's tests (test/explorer.test.ts, test/explorer-page.test.ts). */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect } from 'vitest'
import { type Sandbox, gitRepo, runCli } from './cli.js'

/** A git project with one session (a file written) that `bookmark snapshot` captured, as its Stop would have. */
export async function capturedProject(sb: Sandbox, sid: string): Promise<string> {
  const project = await gitRepo(join(sb.dir, 'proj'))
  const base = { sessionId: sid, cwd: project, isSidechain: false }
  const lines = [
    { ...base, type: 'user', uuid: 'u1', timestamp: '2026-03-02T09:00:00Z', message: { role: 'user', content: 'add the ratchet module' } },
    {
      ...base,
      type: 'assistant',
      uuid: 'a1',
      timestamp: '2026-03-02T09:01:00Z',
      message: {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'tu1', name: 'Write', input: { file_path: join(project, 'src', 'ratchet.ts'), content: 'x\n' } }],
      },
    },
    {
      ...base,
      type: 'user',
      uuid: 'u2',
      timestamp: '2026-03-02T09:01:05Z',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu1', content: 'File created successfully' }] },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'a2',
      timestamp: '2026-03-02T09:02:00Z',
      message: { role: 'assistant', content: [{ type: 'text', text: 'The ratchet is in.' }] },
    },
  ]
  const dir = join(sb.env.CLAUDE_CONFIG_DIR!, 'projects', project.replace(/[^A-Za-z0-9]/g, '-'))
  await mkdir(dir, { recursive: true })
  const transcriptPath = join(dir, `${sid}.jsonl`)
  await writeFile(transcriptPath, lines.map((l) => JSON.stringify(l)).join('\n') + '\n')
  const snap = await runCli(['snapshot', '--transcript', transcriptPath, '--session-id', sid, '--cwd', project], { env: sb.env, cwd: project })
  expect(snap.code, snap.stderr).toBe(0)
  return project
}
