/**
 * The real Gemini CLI 0.61 (`gemini -p`, offline against fake-gemini.mjs on 127.0.0.1, usage statistics and
 * retries off) with the hooks `bookmark setup --host gemini` merges into ~/.gemini/settings.json. A session runs a
 * shell command; our AfterAgent block reaches the model once (narrativeInHeadless on: headless runs are not asked
 * by default); the next headless session's first request carries our restore as its own part, the user's prompt
 * intact; `--resume` keeps that first prompt in history and does not restore again.
 *
 * Needs the binary: `node_modules/.bin/gemini` (@google/gemini-cli@0.61.0) or GEMINI_BIN; skipped without it.
 * Run: npm run build && npx vitest run test/realhost/gemini.test.ts
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { REPO_ROOT } from '../helpers/corpus.js'
import { tempDir } from '../helpers/tmp.js'
// @ts-expect-error: plain JavaScript, shared with the harness that verified Gemini's contract
import { startFakeGemini } from './fake-gemini.mjs'

const GEMINI = process.env.GEMINI_BIN ?? join(REPO_ROOT, 'node_modules', '.bin', 'gemini')
const PATH = `${dirname(process.execPath)}:/usr/bin:/bin`

function geminiVersion(): string | undefined {
  try {
    return execFileSync(GEMINI, ['--version'], { encoding: 'utf8', timeout: 30_000, env: { PATH, GEMINI_CLI_NO_RELAUNCH: 'true' } }).trim()
  } catch {
    return undefined
  }
}
const version = existsSync(GEMINI) ? geminiVersion() : undefined
if (!version) console.warn(`real-Gemini tests skipped: no working ${GEMINI} (install @google/gemini-cli@0.61.0, or set GEMINI_BIN)`)

interface Part {
  text?: string
  functionCall?: object
  functionResponse?: object
}
interface Req {
  op?: string
  body: { contents?: { role: string; parts: Part[] }[] }
}
interface Fake {
  url: string
  requests: Req[]
  close(): Promise<void>
}

let fake: Fake
let root: string
let proj: string
let env: NodeJS.ProcessEnv
const children = new Set<ChildProcess>()

/** `gemini …` in the project from a clean environment, stdin closed, killed (by its pid) after 120 s. */
function gemini(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(GEMINI, args, { cwd: proj, env, stdio: ['ignore', 'pipe', 'pipe'] })
    children.add(child)
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      children.delete(child)
      resolve({ code, stdout, stderr })
    })
  })
}

/** The main-loop requests (not the router's or a compression's) from `from` on. */
const turns = (from: number): Req[] => fake.requests.slice(from).filter((r) => r.op === 'streamGenerateContent')
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
const shq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`
const tmuxOk = ((): boolean => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()
const texts = (r: Req): string[] => (r.body.contents ?? []).flatMap((c) => c.parts.map((p) => p.text ?? ''))

beforeAll(async () => {
  if (!version) return
  fake = (await startFakeGemini({})) as Fake
  root = tempDir('bm-gemini-')
  proj = join(root, 'proj')
  for (const d of ['home/.gemini', 'tmp', 'proj']) mkdirSync(join(root, d), { recursive: true })
  env = {
    PATH,
    HOME: join(root, 'home'),
    BOOKMARK_HOME: join(root, 'home', '.bookmark'),
    TMPDIR: join(root, 'tmp'),
    TERM: 'xterm-256color',
    GOOGLE_GEMINI_BASE_URL: fake.url,
    GEMINI_API_KEY: 'fake-key',
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    GEMINI_CLI_NO_RELAUNCH: 'true',
  }
  // API-key auth against the fake; no usage statistics (or it looks up a Google host), one attempt, no retries.
  writeFileSync(
    join(root, 'home', '.gemini', 'settings.json'),
    JSON.stringify(
      {
        security: { auth: { selectedType: 'gemini-api-key' } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, maxAttempts: 1, retryFetchErrors: false },
      },
      null,
      2,
    ),
  )
  execFileSync('git', ['init', '-q', proj])
  const setup = await runCli(['setup', '--host', 'gemini'], { env })
  if (setup.code !== 0) throw new Error(setup.stderr)
  await runCli(['config', '--set', 'narrativeInHeadless=1', '--project'], { env, cwd: proj })
}, 60_000)

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL')
  await fake?.close()
})

describe.skipIf(!version)(`real Gemini CLI (${version ?? 'absent'}) with the hooks setup wrote`, () => {
  let second: string

  it('the MCP server setup registered answers the model (first: the fake picks its reply by the words of the newest user turn, restore included)', async () => {
    const from = fake.requests.length
    const r = await gemini(['-p', 'call mcp', '--approval-mode', 'yolo', '--output-format', 'json'])
    expect(r.code, r.stderr).toBe(0)
    const calls = turns(from).flatMap((t) => (t.body.contents ?? []).flatMap((c) => c.parts.filter((p) => p.functionResponse)))
    const answer = calls.map((p) => p.functionResponse as { name: string; response: unknown }).find((f) => f.name.startsWith('mcp_bookmark_'))
    expect(answer, JSON.stringify(calls)).toBeDefined()
    // bookmark_snapshot, the first of our tools, captures the Gemini session it runs in (`bookmark mcp --host gemini`).
    expect(answer!.name).toBe('mcp_bookmark_bookmark_snapshot')
    expect(JSON.stringify(answer!.response)).toMatch(/Snapshot SNAP_\w+ written for session [0-9a-f-]{36} /)
  }, 150_000)

  it('a headless session is captured at AfterAgent, and the handoff request reaches the model once', async () => {
    const from = fake.requests.length
    const r = await gemini(['-p', 'run shell', '--approval-mode', 'yolo', '--output-format', 'json'])
    expect(r.code, r.stderr).toBe(0)
    expect(readFileSync(join(proj, 'shell.txt'), 'utf8')).toBe('shell\n')
    const asked = turns(from).filter((t) => texts(t).some((x) => x.startsWith('session-bookmark: before you stop, write the handoff')))
    // The request that carries it, as the newest user turn of exactly one main-loop call.
    expect(asked).toHaveLength(1)
    const last = asked[0]!.body.contents!.at(-1)!
    expect(last.parts[0]!.text).toMatch(/^session-bookmark: before you stop, write the handoff for the next session \(no narrative yet\)\./)
    const latest = readFileSync(join(proj, '.bookmark', 'LATEST.md'), 'utf8')
    expect(latest).toMatch(/^Snapshot `SNAP_\w+` \(stop\) of Gemini CLI session `[0-9a-f-]{36}`/m)
    expect(latest).toContain('> run shell')
  }, 150_000)

  it("the next headless session's first request carries our restore as its own part, the prompt intact", async () => {
    const from = fake.requests.length
    const r = await gemini(['-p', 'create hello.txt', '--approval-mode', 'yolo', '--output-format', 'json'])
    expect(r.code, r.stderr).toBe(0)
    second = (JSON.parse(r.stdout) as { session_id: string }).session_id
    const first = turns(from)[0]!
    const parts = first.body.contents![0]!.parts.map((p) => p.text ?? '')
    expect(parts).toContain('create hello.txt') // not glued to SessionStart context
    const restore = parts.find((p) => p.startsWith('<hook_context>'))
    expect(restore).toMatch(/^<hook_context># Bookmark: continuing work in `proj`\n/)
    expect(restore).toContain('```recorded\nrun shell\n```')
    expect(parts.indexOf('create hello.txt')).toBeLessThan(parts.indexOf(restore!))
  }, 150_000)

  it('--resume keeps the first prompt in history and restores nothing again', async () => {
    const from = fake.requests.length
    const r = await gemini(['-p', 'say hi', '--resume', second, '--output-format', 'json'])
    expect(r.code, r.stderr).toBe(0)
    const first = turns(from)[0]!
    expect(texts(first)).toContain('create hello.txt')
    const contexts = texts(first).filter((t) => t.startsWith('<hook_context># Bookmark'))
    expect(contexts).toHaveLength(1) // the one the first prompt carried, replayed from history
  }, 150_000)

  it.skipIf(!tmuxOk)(
    'interactive (tmux): the compact resume rides with the prompt after a compression',
    async () => {
      // No handoff request here: its retry turn would be the last model call, and too small to compress after.
      await runCli(['config', '--set', 'maxNarrativeBlocks=0', '--project'], { env, cwd: proj })
      const from = fake.requests.length
      const session = `bm-gemini-${process.pid}`
      const vars = Object.entries(env).map(([k, v]) => `${k}=${shq(v ?? '')}`)
      execFileSync('tmux', [
        'new-session',
        '-d',
        '-s',
        session,
        '-x',
        '160',
        '-y',
        '45',
        `cd ${shq(proj)} && env -i ${vars.join(' ')} ${shq(GEMINI)} --approval-mode yolo; sleep 5`,
      ])
      try {
        const send = async (text: string, turn: number): Promise<void> => {
          execFileSync('tmux', ['send-keys', '-t', session, text])
          await sleep(600)
          execFileSync('tmux', ['send-keys', '-t', session, 'Enter'])
          for (let i = 0; i < 120 && turns(from).length < turn; i++) await sleep(500)
          await sleep(2000) // AfterAgent, then the prompt box again
        }
        await sleep(8000) // the TUI's start and SessionStart
        await send('fill context', 1)
        await send('say hi', 2)
        await send('say hi again', 3)
        const [first, second, third] = turns(from)
        // SessionStart's restore is a user turn of its own before the first prompt (the API request merges them).
        expect(texts(first!).some((t) => t.startsWith('<hook_context># Bookmark: continuing work in `proj`'))).toBe(true)
        // Gemini compressed at the start of the second turn: our restore was summarised away, and nothing said so yet.
        expect(texts(second!).some((t) => t.startsWith('<state_snapshot>'))).toBe(true)
        expect(texts(second!).some((t) => t.startsWith('<hook_context>'))).toBe(false)
        const last = third!.body.contents!.at(-1)!.parts.map((p) => p.text ?? '')
        expect(last[0]).toBe('say hi again')
        expect(last[1]).toMatch(/^<hook_context># Bookmark: `proj` after compaction\n/)
      } finally {
        execFileSync('tmux', ['kill-session', '-t', session])
      }
    },
    150_000,
  )
})
