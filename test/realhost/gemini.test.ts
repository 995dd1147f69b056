/**
 * The real Gemini CLI 0.61 (`@google/gemini-cli`, a dev dependency), offline against fake-gemini.mjs on 127.0.0.1
 * (usage statistics off, one attempt and no retries, every other host behind a closed proxy), with what
 * `bookmark setup --host gemini` merges into ~/.gemini/settings.json: the hooks and the MCP server are wired; a
 * headless session runs a shell command, is captured at AfterAgent, and our block reaches the model once, which
 * writes the handoff; the next session's first request carries our restore (the handoff in it) as its own part, the
 * prompt intact; `--resume` keeps that first prompt in history, restores nothing again and edits the file; a session
 * begun in Claude Code continues in Gemini with its story; interactively (tmux), the full context brings the note
 * asking for the handoff, and the compression the compact resume on the next turn.
 *
 * Needs the binary: `node_modules/.bin/gemini` (found from the repository, not PATH) or GEMINI_BIN; skipped without it.
 * Every process it starts runs in a process group of its own (tmux: a server of its own), killed by id when done.
 * Run: npm run build && npx vitest run test/realhost/gemini.test.ts
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { REPO_ROOT } from '../helpers/corpus.js'
import { call, jsonl, prompt, assistantText } from '../helpers/jsonl.js'
import { tempDir } from '../helpers/tmp.js'
// @ts-expect-error: plain JavaScript, shared with the harness that verified Gemini's contract
import { HANDOFF_REQUEST, startFakeGemini } from './fake-gemini.mjs'

const GEMINI = process.env.GEMINI_BIN ?? join(REPO_ROOT, 'node_modules', '.bin', 'gemini')
const PATH = `${dirname(process.execPath)}:/usr/bin:/bin`

function geminiVersion(): string | undefined {
  try {
    return execFileSync(GEMINI, ['--version'], {
      encoding: 'utf8',
      timeout: 60_000,
      killSignal: 'SIGKILL',
      env: { PATH, GEMINI_CLI_NO_RELAUNCH: 'true' },
    }).trim()
  } catch {
    return undefined
  }
}
const version = existsSync(GEMINI) ? geminiVersion() : undefined
// CI installs it (npm ci): there a missing binary fails the suite instead of skipping it.
const IN_CI = /^(1|true)$/i.test(process.env.CI ?? '')
if (!version && !IN_CI) console.warn(`real-Gemini tests skipped: no working ${GEMINI} (npm ci installs @google/gemini-cli@0.61.0; or set GEMINI_BIN)`)

interface Part {
  text?: string
  functionCall?: { name: string; args: Record<string, unknown> }
  functionResponse?: object
}
interface Req {
  op?: string
  reply?: { call?: { name: string; args: Record<string, unknown> }; text?: string }
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
const groups = new Set<number>()

/** Kills the process group `pid` leads (the CLI, its hooks, its MCP server); gone already is fine. */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // ESRCH: nothing left
  }
  groups.delete(pid)
}

/** `gemini …` in `cwd` from a clean environment, stdin closed, in a process group of its own killed after 120 s. */
function gemini(args: string[], cwd = proj): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(GEMINI, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    const pid = child.pid!
    groups.add(pid)
    let stdout = ''
    let stderr = ''
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    const timer = setTimeout(() => killGroup(pid), 120_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      killGroup(pid) // what it left behind (an MCP server that outlived it)
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
    execFileSync('tmux', ['-V'], { stdio: 'ignore', timeout: 10_000 })
    return true
  } catch {
    return false
  }
})()
const texts = (r: Req): string[] => (r.body.contents ?? []).flatMap((c) => c.parts.map((p) => p.text ?? ''))
const lastTurn = (r: Req): string[] => r.body.contents!.at(-1)!.parts.map((p) => p.text ?? '')
const latest = (dir: string): string => readFileSync(join(dir, '.bookmark', 'LATEST.md'), 'utf8')
const gitInit = (dir: string): void => {
  mkdirSync(dir, { recursive: true })
  execFileSync('git', ['init', '-q', '-b', 'main', dir], { timeout: 30_000 })
}

beforeAll(async () => {
  if (!version && IN_CI) throw new Error(`the real-Gemini suite needs ${GEMINI} in CI (npm ci installs @google/gemini-cli@0.61.0)`)
  if (!version) return
  fake = (await startFakeGemini({})) as Fake
  root = tempDir('bm-gemini-')
  proj = join(root, 'proj')
  for (const d of ['home/.gemini', 'tmp']) mkdirSync(join(root, d), { recursive: true })
  gitInit(proj)
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
    // Anything that would leave the machine goes to a closed port instead (the fake is on 127.0.0.1, not proxied).
    HTTPS_PROXY: 'http://127.0.0.1:9',
    HTTP_PROXY: 'http://127.0.0.1:9',
    NO_PROXY: '127.0.0.1,localhost',
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
}, 120_000)

afterAll(async () => {
  for (const pid of [...groups]) killGroup(pid)
  await fake?.close()
})

describe.skipIf(!version && !IN_CI)(`real Gemini CLI (${version ?? 'absent'}) with the hooks setup wrote`, () => {
  let second: string

  it("setup merges our three hooks and the MCP server into the user's settings.json, and Gemini connects to the server", async () => {
    // The version the contract was verified with (package.json pins it; GEMINI_BIN may try another).
    if (process.env.GEMINI_BIN === undefined) expect(version).toBe('0.61.0')
    const setup = await runCli(['setup', '--host', 'gemini'], { env })
    expect(setup.code, setup.stderr).toBe(0)
    const settings = JSON.parse(readFileSync(join(root, 'home', '.gemini', 'settings.json'), 'utf8')) as Record<string, Record<string, unknown>>
    // The user's own keys stay as they were.
    expect(settings.privacy).toEqual({ usageStatisticsEnabled: false })
    expect(settings.security).toEqual({ auth: { selectedType: 'gemini-api-key' } })
    const hooks = settings.hooks as Record<string, { matcher: string; hooks: { name: string; type: string; command: string; timeout: number }[] }[]>
    expect(Object.keys(hooks)).toEqual(['SessionStart', 'BeforeAgent', 'AfterAgent'])
    const wired = Object.entries(hooks).map(([event, groups]) => [
      event,
      groups.map((g) => g.hooks.map((h) => [h.name, h.command.split(' ').slice(-3).join(' '), h.timeout])),
    ])
    expect(wired).toEqual([
      ['SessionStart', [[['bookmark-restore', 'restore --host gemini', 15_000]]]],
      ['BeforeAgent', [[['bookmark-check', 'check --host gemini', 15_000]]]],
      ['AfterAgent', [[['bookmark-stop', 'stop --host gemini', 60_000]]]],
    ])
    expect(settings.mcpServers).toEqual({ bookmark: { command: process.execPath, args: [join(REPO_ROOT, 'bin', 'bookmark.cjs'), 'mcp', '--host', 'gemini'] } })
    const list = await gemini(['mcp', 'list'])
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout + list.stderr).toMatch(/✓ bookmark: .* mcp --host gemini \(stdio\) - Connected/)
    // Headless runs here are asked for the handoff too (by default only a person at the keyboard is).
    expect((await runCli(['config', '--set', 'narrativeInHeadless=1', '--project'], { env, cwd: proj })).code).toBe(0)
  }, 150_000)

  it('the MCP server answers the model: bookmark_snapshot captures the Gemini session it runs in', async () => {
    const from = fake.requests.length
    const r = await gemini(['-p', 'call mcp', '--approval-mode', 'yolo', '--output-format', 'json'])
    expect(r.code, r.stderr).toBe(0)
    const calls = turns(from).flatMap((t) => (t.body.contents ?? []).flatMap((c) => c.parts.filter((p) => p.functionResponse)))
    const answer = calls.map((p) => p.functionResponse as { name: string; response: unknown }).find((f) => f.name.startsWith('mcp_bookmark_'))
    expect(answer, JSON.stringify(calls)).toBeDefined()
    // bookmark_snapshot, the first of our tools (`bookmark mcp --host gemini`).
    expect(answer!.name).toBe('mcp_bookmark_bookmark_snapshot')
    const sid = (JSON.parse(r.stdout) as { session_id: string }).session_id
    expect(JSON.stringify(answer!.response)).toMatch(new RegExp(`Snapshot SNAP_\\w+ written for session ${sid} `))
  }, 150_000)

  it('a headless session is captured at AfterAgent; the handoff request reaches the model once, and it writes the handoff', async () => {
    const from = fake.requests.length
    const r = await gemini(['-p', 'run shell', '--approval-mode', 'yolo', '--output-format', 'json'])
    expect(r.code, r.stderr).toBe(0)
    expect(readFileSync(join(proj, 'shell.txt'), 'utf8')).toBe('shell\n')
    // The request that carries it, as the newest user turn of exactly one main-loop call.
    const asked = turns(from).filter((t) => (lastTurn(t)[0] ?? '').startsWith(HANDOFF_REQUEST))
    expect(asked).toHaveLength(1)
    expect(lastTurn(asked[0]!)[0]).toMatch(/^session-bookmark: before you stop, write the handoff for the next session \(no narrative yet\)\./)
    // The model answered with write_file of the handoff; the turn that followed was not asked again.
    expect(asked[0]!.reply?.call?.name).toBe('write_file')
    const handoff = readFileSync(join(proj, '.bookmark', 'bookmark.context.md'), 'utf8')
    expect(handoff).toMatch(/^<!-- BOOKMARK_IDENTITY\nscope: repo\nproject: proj\n/)
    expect(handoff).toContain('(FAKE-MODEL-HANDOFF)')
    expect(latest(proj)).toMatch(/^Snapshot `SNAP_\w+` \(stop\) of Gemini CLI session `[0-9a-f-]{36}`/m)
    expect(latest(proj)).toContain('> run shell')
  }, 150_000)

  it("the next headless session's first request carries our restore (with the handoff) as its own part, the prompt intact", async () => {
    const from = fake.requests.length
    const r = await gemini(['-p', 'create hello.txt', '--approval-mode', 'yolo', '--output-format', 'json'])
    expect(r.code, r.stderr).toBe(0)
    second = (JSON.parse(r.stdout) as { session_id: string }).session_id
    expect(readFileSync(join(proj, 'hello.txt'), 'utf8')).toBe('hello\n')
    const first = turns(from)[0]!
    const parts = first.body.contents![0]!.parts.map((p) => p.text ?? '')
    expect(parts).toContain('create hello.txt') // not glued to SessionStart context
    const restore = parts.find((p) => p.startsWith('<hook_context>'))
    expect(restore).toMatch(/^<hook_context># Bookmark: continuing work in `proj`\n/)
    expect(restore).toContain('```recorded\nrun shell\n```')
    expect(restore).toContain('FAKE-MODEL-HANDOFF')
    expect(parts.indexOf('create hello.txt')).toBeLessThan(parts.indexOf(restore!))
  }, 150_000)

  it('--resume keeps the first prompt in history and restores nothing again; the resumed turn edits the file', async () => {
    const from = fake.requests.length
    const r = await gemini(['-p', 'edit hello.txt', '--resume', second, '--approval-mode', 'yolo', '--output-format', 'json'])
    expect(r.code, r.stderr).toBe(0)
    expect(readFileSync(join(proj, 'hello.txt'), 'utf8')).toBe('hello world\n')
    const first = turns(from)[0]!
    expect(texts(first)).toContain('create hello.txt')
    const contexts = texts(first).filter((t) => t.startsWith('<hook_context># Bookmark'))
    expect(contexts).toHaveLength(1) // the one the first prompt carried, replayed from history
    // One session, both turns: the file written (+1), then its line replaced (Gemini's own diff: +1 -1).
    const md = latest(proj)
    expect(md).toMatch(new RegExp(`^Snapshot \`SNAP_\\w+\` \\(stop\\) of Gemini CLI session \`${second}\``, 'm'))
    expect(md).toContain('## Current task\n\n> edit hello.txt\n')
    expect(md).toContain('\n- `hello.txt` created +2 -1\n')
    expect(md).toMatch(/\nWrite \d+, Edit 1\n/)
  }, 150_000)

  it("bookmark_status answers with this project's store: the sessions so far, the handoff requests", async () => {
    const from = fake.requests.length
    const r = await gemini(['-p', 'call mcp bookmark_status', '--approval-mode', 'yolo', '--output-format', 'json'])
    expect(r.code, r.stderr).toBe(0)
    const answer = turns(from)
      .flatMap((t) => (t.body.contents ?? []).flatMap((c) => c.parts.filter((p) => p.functionResponse)))
      .map((p) => p.functionResponse as { name: string; response: unknown })
      .find((f) => f.name === 'mcp_bookmark_bookmark_status')
    expect(answer, JSON.stringify(turns(from).map((t) => t.reply))).toBeDefined()
    // As Gemini hands a tool's text to the model; three sessions so far (the MCP one, "run shell", the resumed one),
    // each of the last two asked for the handoff once.
    const text = (answer!.response as { output: string }).output
    expect(text.startsWith(`<untrusted_context>\nProject ${proj}: `)).toBe(true)
    expect(text).toMatch(/: \d+ snapshots, 3 sessions\.\n/)
    expect(text).toMatch(/\nLatest: SNAP_\w+ \(stop\) [^\n]*: edit hello\.txt\n/)
    expect(text).toContain('\nNarrative blocks: 2; compactions: 0.\n')
  }, 150_000)

  const cc = (): string => join(root, 'cc')

  it('a session begun in Claude Code continues in Gemini with its story: goal, latest request, files', async () => {
    gitInit(cc())
    const o = { cwd: cc(), sessionId: '6b1f0c2e-41d5-4c86-9f0e-3a2d1c0b9e87', branch: 'main', ts: new Date(Date.now() - 60_000).toISOString() }
    const report = join(cc(), 'src', 'report.ts')
    const transcript = join(root, 'claude-session.jsonl')
    writeFileSync(
      transcript,
      jsonl([
        prompt('Add a --json flag to the report command so CI can read it', o),
        call(
          'toolu_01',
          'Write',
          { file_path: report, content: 'export const json = true\n' },
          { type: 'create', filePath: report, content: 'export const json = true\n', structuredPatch: [] },
          o,
        ),
        assistantText('Added the flag in src/report.ts.', o),
        prompt('now document the flag in the README', o),
        assistantText('Documented it.', o),
      ]),
    )
    mkdirSync(join(cc(), 'src'))
    writeFileSync(report, 'export const json = true\n')
    const stop = { session_id: o.sessionId, transcript_path: transcript, cwd: cc(), hook_event_name: 'Stop', stop_hook_active: true }
    const captured = await runCli(['stop'], { env, cwd: cc(), input: JSON.stringify(stop) })
    expect(captured.code, captured.stderr).toBe(0)
    expect(latest(cc())).toMatch(new RegExp(`\\(stop\\) of Claude Code session \`${o.sessionId}\``))

    const from = fake.requests.length
    const r = await gemini(['-p', 'say hi', '--output-format', 'json'], cc())
    expect(r.code, r.stderr).toBe(0)
    const restore = lastTurn(turns(from)[0]!).find((p) => p.startsWith('<hook_context>'))
    expect(restore).toMatch(/^<hook_context># Bookmark: continuing work in `cc`\n/)
    expect(restore).toContain('Add a --json flag to the report command so CI can read it')
    expect(restore).toContain('now document the flag in the README')
    expect(restore).toMatch(/`src\/report\.ts`/)
    // The same story goes on: the Gemini session is the project's latest now.
    expect(latest(cc())).toMatch(/\(stop\) of Gemini CLI session `[0-9a-f-]{36}`/)
  }, 150_000)

  it.skipIf(!tmuxOk)(
    'interactive (tmux): the full context brings the note asking for the handoff, the compression the compact resume',
    async () => {
      // No handoff request at a turn's end: its retry turn would be the last model call, and too small to compress after.
      await runCli(['config', '--set', 'maxNarrativeBlocks=0', '--project'], { env, cwd: cc() })
      const from = fake.requests.length
      const socket = `bm-gemini-${process.pid}`
      const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8', timeout: 15_000 })
      const vars = Object.entries(env).map(([k, v]) => `${k}=${shq(v ?? '')}`)
      tmux(
        'new-session',
        '-d',
        '-s',
        'gemini',
        '-x',
        '160',
        '-y',
        '45',
        `cd ${shq(cc())} && env -i ${vars.join(' ')} ${shq(GEMINI)} --approval-mode yolo; sleep 5`,
      )
      const pane = Number(tmux('display-message', '-p', '-t', 'gemini', '#{pane_pid}').trim())
      groups.add(pane) // the pane's shell leads a process group: the CLI and everything it started
      try {
        const pane$ = (): string => tmux('capture-pane', '-p', '-t', 'gemini')
        const until = async (what: string, done: () => boolean): Promise<void> => {
          for (let i = 0; i < 240 && !done(); i++) await sleep(250)
          expect(done(), `${what}; the screen:\n${pane$()}\nLATEST.md:\n${existsSync(join(cc(), '.bookmark', 'LATEST.md')) ? latest(cc()) : '(none)'}`).toBe(
            true,
          )
        }
        // A turn is over when AfterAgent captured it: the snapshot quotes its prompt (as the task, or the latest message).
        const send = async (text: string, turn: number): Promise<void> => {
          tmux('send-keys', '-t', 'gemini', text)
          await sleep(500)
          tmux('send-keys', '-t', 'gemini', 'Enter')
          await until(`turn ${turn} never reached the model`, () => turns(from).length >= turn)
          await until(`turn ${turn} was not captured`, () => existsSync(join(cc(), '.bookmark', 'LATEST.md')) && latest(cc()).includes(`\n> ${text}\n`))
          await sleep(500) // the prompt box again
        }
        // The TUI's start and SessionStart: its restore is a user turn of its own before the first prompt, in the chat file.
        const tmp = join(root, 'home', '.gemini', 'tmp')
        const chats = (): string[] =>
          readdirSync(tmp).flatMap((p) => (existsSync(join(tmp, p, 'chats')) ? readdirSync(join(tmp, p, 'chats')).map((n) => join(tmp, p, 'chats', n)) : []))
        const restored = (): boolean =>
          chats().some((f) => readFileSync(f, 'utf8').includes('"type":"user","content":[{"text":"<hook_context># Bookmark: continuing work in `cc`'))
        await until('no SessionStart restore in the chat file', restored)
        await until('no prompt box', () => pane$().includes('Type your message'))
        await send('fill context', 1)
        await send('say hi', 2)
        await send('say hi again', 3)
        const [first, second, third] = turns(from)
        expect(texts(first!).some((t) => t.startsWith('<hook_context># Bookmark: continuing work in `cc`'))).toBe(true)
        // The first reply measured 900,000 tokens, past where Gemini compresses (half of 1,048,576): the next prompt
        // carries our note (there is no handoff in this project yet), and Gemini compresses before sending it.
        expect(lastTurn(second!)[0]).toBe('say hi')
        expect(lastTurn(second!)[1]).toMatch(/^<hook_context>session-bookmark: the context is 100% full and compaction will drop detail\.\n/)
        expect(texts(second!).some((t) => t.startsWith('<state_snapshot>'))).toBe(true)
        expect(texts(second!).some((t) => t.startsWith('<hook_context># Bookmark'))).toBe(false) // the restore was summarised away
        expect(lastTurn(third!)[0]).toBe('say hi again')
        expect(lastTurn(third!)[1]).toMatch(/^<hook_context># Bookmark: `cc` after compaction\n/)
      } finally {
        try {
          tmux('kill-server')
        } catch {
          // already gone
        }
        killGroup(pane)
      }
    },
    180_000,
  )
})
