/**
 * `bookmark demo`: the whole capture on the sample session that ships with the package, in a fresh
 * temporary project with its own bookmark home. Touches nothing of the user's.
 */
import { claudeHost } from '../hosts/claude/host.js'
import { mkdtemp, readFile, writeFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { hookContext } from '../hooks/run.js'
import { restoreText } from '../hooks/restore.js'
import { redact } from '../redact/secrets.js'
import { narrativeRequest } from '../narrative/judge.js'
import { stopBlockReason } from '../narrative/prompt.js'
import { renderIdentity } from '../restore/identity.js'
import { Project } from '../repo/project.js'
import { type CaptureResult, capture } from '../capture/capture.js'
import type { Deps } from '../shared/deps.js'

export const DEMO_TEMPLATE = fileURLToPath(new URL('../../templates/demo-session.jsonl', import.meta.url))
/** What the model writes when the Stop hook asks it for the handoff (the body after the identity header). */
export const DEMO_HANDOFF = fileURLToPath(new URL('../../templates/demo-handoff.md', import.meta.url))

export interface DemoResult {
  folder: string
  projectRoot: string
  transcript: string
  bookmarkHome: string
  result: CaptureResult
  latestPath: string
  latest: string
  /** The handoff written as the running model would, with the header the Stop hook hands out. */
  handoffPath: string
  /** What the Stop hook asked the model for (the first line of its block reason). */
  handoffAsked: string
  /** What a new session in the project would receive at SessionStart. */
  nextSession: string | undefined
}

export async function runDemo(deps: Deps, template = DEMO_TEMPLATE): Promise<DemoResult> {
  const folder = await mkdtemp(join(tmpdir(), 'bookmark-demo-'))
  const projectRoot = join(folder, 'acme-notes')
  const bookmarkHome = join(folder, 'bookmark-home')
  await mkdir(join(projectRoot, '.git'), { recursive: true }) // a project root, as git would mark it
  const raw = await readFile(template, 'utf8')
  const escaped = JSON.stringify(projectRoot).slice(1, -1)
  const text = raw.split('__PROJECT__').join(escaped)
  const sessionId = /"sessionId":"([^"]+)"/.exec(text)?.[1] ?? 'demo-session'
  const transcriptDir = join(folder, 'claude', 'projects', projectRoot.replace(/[^A-Za-z0-9]/g, '-'))
  await mkdir(transcriptDir, { recursive: true })
  const transcript = join(transcriptDir, `${sessionId}.jsonl`)
  await writeFile(transcript, text)
  const demoDeps: Deps = { ...deps, bookmarkHome, env: { ...deps.env, CLAUDE_PROJECT_DIR: projectRoot, HOME: join(folder, 'home') } }
  const result = await capture({ cwd: projectRoot, transcript, sessionId, trigger: 'demo' }, demoDeps)
  const latestPath = join(projectRoot, '.bookmark', 'LATEST.md')
  const latest = await readFile(latestPath, 'utf8')
  // The product's other half: after real work the Stop hook asks the running model for the handoff, with the
  // header (and its seal) to start it with. Here the sample model's answer is written the same way.
  const request = await narrativeRequest(new Project(projectRoot), bookmarkHome, sessionId, deps.now(), 'the sample session changed 3 files')
  const handoffPath = request.path
  await writeFile(handoffPath, `${renderIdentity(request.identity)}${await readFile(DEMO_HANDOFF, 'utf8')}`, { mode: 0o600 })
  const handoffAsked = stopBlockReason(request).split('\n')[0] ?? ''
  const ctx = await hookContext(
    claudeHost,
    { sessionId: 'demo-next-session', cwd: projectRoot, eventName: 'SessionStart', source: 'startup' },
    {},
    demoDeps,
    projectRoot,
  )
  const nextSession = await restoreText(ctx)
  return {
    folder,
    projectRoot,
    transcript,
    bookmarkHome,
    result,
    latestPath,
    latest,
    handoffPath,
    handoffAsked,
    nextSession: nextSession === undefined ? undefined : redact(nextSession),
  }
}
