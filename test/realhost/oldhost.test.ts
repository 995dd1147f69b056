/**
 * Issue 16 in an older real host: Claude Code 2.0.76 (test/realhost/claude-2.0, installed on first use from
 * its committed lockfile) is older than 2.1.139, so it has no exec-form hooks (`command` + `args`). It
 * runs a hook's `command` through the shell and never reads `args`.
 *
 * With the hooks `bookmark setup` wires after asking this claude for its version (the shell form), the four
 * hooks work there: a session is captured, the Stop hook asks once for the handoff, and the next session starts
 * with it. With exec-form entries, as `bookmark setup` wrote them before the fix, the same host runs bare
 * `node`, which reads the JSON payload on stdin as a script and fails: nothing is captured.
 *
 * Facts about 2.0.76 against the fake: docs/REALHOST-OLD.md. Run: npm run build && npx vitest run test/realhost/oldhost.test.ts
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { GUARD, HOOK_EVENTS, OUR_HOOKS } from '../../src/setup/hooks.js'
import { type FakeAnthropic, type RecordedRequest, allText, say, startFakeAnthropic, textOf, write } from './fake-anthropic.js'
import {
  BOOKMARK_BIN,
  OLD_CLAUDE_VERSION,
  type World,
  createWorld,
  ensureClaude,
  installHooks,
  newSessionId,
  readJsonl,
  runBookmark,
  runClaude,
  transcriptPath,
} from './harness.js'
import { afterOk, expectScriptDone } from './script.js'

const claude = ensureClaude(OLD_CLAUDE_VERSION)
if (!claude.available) console.warn(`real-host tests on Claude Code ${OLD_CLAUDE_VERSION} skipped: ${claude.why}`)

const FIRST_PROMPT = 'Add a greeting module, and keep non-ASCII names as a follow-up.'
const OPEN_TASK = 'Handle non-ASCII names in greet()'
const DECISION = 'Kept greet() pure (no I/O) so that the CLI and the tests can both call it.'
const NEXT_STEP = 'Normalise names with String.prototype.normalize("NFC") and add a test for "Zoë".'

const shq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`

/** The same four in exec form (`command` node, `args` [entry, hook]), as `bookmark setup` wrote them for 2.1.139 and later. */
function execFormHooks(): Record<string, unknown> {
  return Object.fromEntries(
    HOOK_EVENTS.map((event) => {
      const { hook, timeout } = OUR_HOOKS[event]
      return [event, [{ hooks: [{ type: 'command', command: process.execPath, args: [BOOKMARK_BIN, hook], timeout }] }]]
    }),
  )
}

interface SnapshotJson {
  trigger: string
  session: { id: string }
  files: { path: string; op: string }[]
  tasks: { source: string | null; items: { text: string; status: string }[] }
  requests: { all: { text: string }[] }
}

function snapshots(world: World): SnapshotJson[] {
  const dir = join(world.proj, '.bookmark', 'snapshots')
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as SnapshotJson)
}

/**
 * The SessionStart contexts as the model received them. 2.0.76 puts each in the first user message as
 * `<system-reminder>\nSessionStart hook additional context: …\n</system-reminder>` (2.1.332 has no closing tag there).
 */
function sessionStartSegments(req: RecordedRequest): string[] {
  const out: string[] = []
  for (const m of req.body!.messages ?? []) {
    for (const match of textOf(m.content).matchAll(/SessionStart hook additional context: ([\s\S]*?)\n<\/system-reminder>/g)) out.push(match[1]!)
  }
  return out
}

function errorsLogs(world: World): string {
  return [join(world.proj, '.bookmark', 'errors.log'), join(world.bookmarkHome, 'errors.log')]
    .filter((p) => existsSync(p))
    .map((p) => readFileSync(p, 'utf8'))
    .join('')
}

describe.skipIf(!claude.available)(`real host: Claude Code ${OLD_CLAUDE_VERSION} runs our hooks in shell form`, { timeout: 120_000 }, () => {
  let fake: FakeAnthropic
  let world: World
  let captured = false
  const needCapture = (): void => {
    if (!captured) throw new Error('the first session was not captured: this test builds on it')
  }

  beforeAll(async () => {
    fake = await startFakeAnthropic()
    world = createWorld(fake, 'bm-realhost-old-', { claude: OLD_CLAUDE_VERSION })
    // claude -p counts as headless on 2.0.76 too (CLAUDE_CODE_ENTRYPOINT=sdk-cli): opt in to the handoff, as in realhost.test.ts.
    world.env.BOOKMARK_NARRATIVE_IN_HEADLESS = '1'
    // `bookmark setup` itself, asking the world's claude (2.0.76) for its version, as a user's setup does.
    const r = await installHooks(world)
    expect(r.stdout).toContain('Claude Code 2.0.76 runs only shell-form hooks (exec form needs 2.1.139): wrote that form')
    const stop = (JSON.parse(readFileSync(world.settingsPath, 'utf8')) as { hooks: { Stop: { hooks: { command: string; args?: string[] }[] }[] } }).hooks
      .Stop[0]!.hooks[0]!
    expect(stop.args).toBeUndefined()
    expect(stop.command).toBe(`${shq(process.execPath)} -e ${shq(GUARD)} ${shq(BOOKMARK_BIN)} stop`.replace(/'([A-Za-z0-9_@%+=:,./-]+)'/g, '$1'))
  })

  beforeEach(() => fake.clearScript())

  afterAll(async () => {
    await fake?.close()
    world?.cleanup()
  })

  it('a session that writes a file is captured; Stop blocks once and the model writes the handoff', async () => {
    const sid = newSessionId()
    const greet = join(world.proj, 'src', 'greet.ts')
    let blockReason = ''
    let narrativePath = ''
    let narrative = ''
    fake.script(
      write(greet, 'export function greet(name: string): string {\n  return `Hello, ${name}!`\n}\n', 'Writing the module.'),
      afterOk({ tools: [{ name: 'TodoWrite', input: { todos: [{ content: OPEN_TASK, status: 'pending', activeForm: 'Handling non-ASCII names' }] } }] }),
      afterOk(say('greet() is written; non-ASCII names are still open.')),
      (req) => {
        const m = /Stop hook feedback:\n(session-bookmark: before you stop, write the handoff[\s\S]*?Write only that file, then stop\.[^\n]*)/.exec(
          allText(req.body!),
        )
        if (!m) throw new Error('the request after the Stop block does not carry our reason')
        blockReason = m[1]!
        const header = /<!-- BOOKMARK_IDENTITY\n[\s\S]*?\n-->/.exec(blockReason)
        const target = /Use your Write tool to write (\S+) now/.exec(blockReason)
        if (!header || !target) throw new Error(`no identity header or path in the reason:\n${blockReason}`)
        narrativePath = target[1]!
        narrative = [
          header[0],
          '# Handoff: proj',
          '',
          '## Task',
          FIRST_PROMPT,
          '',
          '## Progress',
          'src/greet.ts is written (not committed).',
          '',
          '## Decisions',
          `- ${DECISION}`,
          '',
          '## Open items',
          `- ${OPEN_TASK}`,
          '',
          '## Next step',
          NEXT_STEP,
          '',
          '## Files',
          '- src/greet.ts: the greeting function',
          '',
        ].join('\n')
        return write(narrativePath, narrative, 'Writing the handoff.')
      },
      afterOk(say('Handoff written.')),
    )
    const mark = fake.mark()
    const r = await runClaude(world, FIRST_PROMPT, { sessionId: sid })
    expect(r.json.session_id).toBe(sid)
    expect(r.json.result).toBe('Handoff written.')
    expectScriptDone(fake, mark) // the second Stop (stop_hook_active: true) let the session end

    // The request after the block carries our reason (2.0.76 sends only "Stop hook feedback:\n<reason>", no command line).
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: world.proj, encoding: 'utf8' }).trim()
    expect(blockReason).toContain(
      `<!-- BOOKMARK_IDENTITY\nscope: repo\nproject: proj\nrepo_path: ${world.proj}\nbranch: main\nhead: ${head}\nsession_id: ${sid}\nwritten: `,
    )
    const main = fake.mainRequests(mark)
    expect(main).toHaveLength(5)
    for (const earlier of main.slice(0, 3)) expect(allText(earlier.body!)).not.toContain('write the handoff')
    expect(narrativePath).toBe(join(world.proj, '.bookmark', 'bookmark.context.md'))
    expect(readFileSync(narrativePath, 'utf8')).toBe(narrative)

    // 2.0.76 keeps the feedback in the transcript as a meta user line; the snapshot does not count it as a request.
    const meta = readJsonl(transcriptPath(world, world.proj, sid)).filter((l) => l.type === 'user' && l.isMeta === true)
    expect(meta.map((l) => String((l.message as { content: unknown }).content).split('\n')[0])).toEqual(['Stop hook feedback:'])

    const stopSnap = snapshots(world).find((s) => s.session.id === sid && s.trigger === 'stop' && s.files.some((f) => f.path === 'src/greet.ts'))
    expect(stopSnap, JSON.stringify(snapshots(world).map((s) => [s.trigger, s.files.map((f) => f.path)]))).toBeDefined()
    expect(stopSnap!.files.map((f) => `${f.op} ${f.path}`)).toEqual(['created src/greet.ts']) // not the handoff: that is our store
    expect(stopSnap!.tasks).toEqual({ source: 'TodoWrite', items: [{ text: OPEN_TASK, status: 'pending' }] })
    expect(stopSnap!.requests.all.map((p) => p.text)).toEqual([FIRST_PROMPT])
    const status = JSON.parse((await runBookmark(world, ['status', '--json'])).stdout) as { narrativeBlocks: number }
    expect(status.narrativeBlocks).toBe(1)
    captured = true
  })

  it('the next session starts with the handoff: SessionStart restore is in its first request', async () => {
    needCapture()
    fake.script(say('We were adding greet(); next is non-ASCII names.'))
    const mark = fake.mark()
    await runClaude(world, 'Where did we leave off?', { sessionId: newSessionId() })
    expectScriptDone(fake, mark)
    const [first, ...rest] = fake.mainRequests(mark)
    expect(rest).toHaveLength(0) // no work, no block
    const segments = sessionStartSegments(first!)
    expect(segments).toHaveLength(1)
    const ctx = segments[0]!
    expect(ctx.length).toBeLessThanOrEqual(6_000) // our default restoreBudget
    for (const s of [DECISION, NEXT_STEP, OPEN_TASK]) expect(ctx).toContain(s)
    expect(ctx).not.toContain('BOOKMARK_IDENTITY')
  })

  it('auto-compaction: PreCompact captures, and the request after it carries the compact resume', async () => {
    needCapture()
    const sid = newSessionId()
    // A near-full context in the reply's usage: 2.0.76 compacts before its next request, in the same process.
    // (After `claude -p "/compact"` the SessionStart(compact) context is lost: 2.0.76 keeps hook context
    // out of the transcript, so a later --resume does not see it.)
    fake.script(
      { ...write(join(world.proj, 'src', 'names.ts'), 'export const names = ["Zoë"]\n'), usage: { input_tokens: 199_000 } },
      afterOk(say('names.ts is written.')),
    )
    const mark = fake.mark()
    // No handoff request at the end (the default for -p): this test is about the compaction.
    await runClaude(world, 'Add a list of names.', { sessionId: sid, env: { BOOKMARK_NARRATIVE_IN_HEADLESS: '0' } })
    expectScriptDone(fake, mark)
    expect(
      fake
        .messages()
        .filter((r) => r.seq > mark && r.kind !== 'side')
        .map((r) => r.kind),
    ).toEqual(['main', 'compaction', 'main'])
    const pre = snapshots(world).filter((s) => s.session.id === sid && s.trigger === 'pre_compact')
    expect(pre).toHaveLength(1)
    expect(pre[0]!.files.map((f) => f.path)).toContain('src/names.ts')
    const after = fake.mainRequests(mark)[1]!
    expect(allText(after.body!)).toContain('FAKE-COMPACT-SUMMARY')
    const resume = sessionStartSegments(after).find((s) => s.includes('This session was just compacted'))
    expect(resume, sessionStartSegments(after).join('\n---\n')).toBeDefined()
    expect(resume).toContain('src/names.ts')
  })

  it('without the opt-in, claude -p on 2.0.76 counts as headless (no SESSION_ATTENDED, entrypoint sdk-cli): no block', async () => {
    needCapture()
    const sid = newSessionId()
    // The handoff is stale by now (names.ts changed after it): a run counted as attended would be asked for it.
    fake.script(write(join(world.proj, 'answer.txt'), '42\n'), afterOk(say('The answer is 42.')))
    const mark = fake.mark()
    const r = await runClaude(world, 'Write 42 to answer.txt and tell me the answer.', { sessionId: sid, env: { BOOKMARK_NARRATIVE_IN_HEADLESS: '0' } })
    expect(r.json.result).toBe('The answer is 42.')
    expectScriptDone(fake, mark)
    expect(fake.mainRequests(mark)).toHaveLength(2)
    expect(snapshots(world).some((s) => s.session.id === sid && s.trigger === 'stop' && s.files.some((f) => f.path === 'answer.txt'))).toBe(true)
  })

  it('no hook failure was logged, and every request reached the fake over 127.0.0.1', () => {
    expect(errorsLogs(world)).toBe('')
    expect([...new Set(fake.requests.map((r) => r.remoteAddress))]).toEqual(['127.0.0.1'])
    expect([...new Set(fake.requests.map((r) => `${r.method} ${r.path}`))]).toEqual(['POST /v1/messages'])
    expect(fake.requests.filter((r) => r.status !== 200).map((r) => `${r.seq} ${r.kind} ${r.status} ${r.failure ?? ''}`)).toEqual([])
  })
})

describe.skipIf(!claude.available)(`real host: Claude Code ${OLD_CLAUDE_VERSION} ignores exec-form args`, { timeout: 120_000 }, () => {
  let fake: FakeAnthropic
  let world: World

  beforeAll(async () => {
    fake = await startFakeAnthropic()
    world = createWorld(fake, 'bm-realhost-old-exec-', { claude: OLD_CLAUDE_VERSION })
    writeFileSync(world.settingsPath, `${JSON.stringify({ hooks: execFormHooks() }, null, 2)}\n`)
  })

  afterAll(async () => {
    await fake?.close()
    world?.cleanup()
  })

  it('exec-form entries (command node, args [entry, hook]) run bare node on the payload: nothing is captured', async () => {
    fake.script(write(join(world.proj, 'a.txt'), 'hello\n'), afterOk(say('Written.')))
    const mark = fake.mark()
    const r = await runClaude(world, 'Write hello to a.txt.', { sessionId: newSessionId(), stream: true })
    expect(r.json.result).toBe('Written.')
    expectScriptDone(fake, mark)
    expect(readFileSync(join(world.proj, 'a.txt'), 'utf8')).toBe('hello\n')

    // Why: the args were dropped, so node read the JSON payload on stdin as a script (2.0.76 streams this hook's stderr).
    const starts = r.events.filter((e) => e.type === 'system' && e.subtype === 'hook_response' && e.hook_event === 'SessionStart') as {
      exit_code: number
      stderr: string
      stdout: string
    }[]
    expect(starts).toHaveLength(1)
    expect(starts[0]!.exit_code).toBe(1)
    expect(starts[0]!.stdout).toBe('')
    expect(starts[0]!.stderr).toContain('[stdin]:1')
    expect(starts[0]!.stderr).toContain('SyntaxError')

    // Nothing captured, nothing restored, nothing logged by us: bookmark never ran.
    expect(existsSync(join(world.proj, '.bookmark'))).toBe(false)
    expect(existsSync(world.bookmarkHome) ? readdirSync(world.bookmarkHome) : []).toEqual([])
    expect(sessionStartSegments(fake.mainRequests(mark)[0]!)).toEqual([])

    // doctor, asking the same claude for its version, runs the hooks as 2.0.76 would and says so; setup mends them.
    const doctor = await runBookmark(world, ['doctor', '--json'])
    const errors = (JSON.parse(doctor.stdout) as { checks: { id: string; status: string; message: string }[] }).checks.filter(
      (c) => c.id === 'hooks' && c.status === 'error',
    )
    expect(errors).toHaveLength(4)
    for (const e of errors) expect(e.message).toMatch(/run as Claude Code 2\.0\.76 runs it, exited 1: SyntaxError.*ignores "args"/)
    expect((await installHooks(world)).stdout).toMatch(/SessionStart updated, UserPromptSubmit updated, PreCompact updated, Stop updated/)
    const mended = await runBookmark(world, ['doctor', '--json'])
    expect((JSON.parse(mended.stdout) as { checks: { id: string; status: string }[] }).checks.filter((c) => c.id === 'hooks' && c.status !== 'ok')).toEqual([])
  })
})
