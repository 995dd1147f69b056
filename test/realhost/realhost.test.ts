/**
 * End to end in the real host: Claude Code 2.1.332 itself (node_modules/.bin/claude) runs our four hooks,
 * installed by `bookmark setup`, against a scripted fake Anthropic API on 127.0.0.1. Each scenario checks
 * the files on disk and the request bodies the model received. The scenarios build on each other (one
 * project, one config dir) and run in order.
 *
 * Recipe and protocol facts: ../shared/docs/real-host-harness.md. Run: npm run build && npx vitest run test/realhost
 */
import { GUARD } from '../../src/setup/hooks.js'
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { stateDir } from '../helpers/narrative.js'
import { type FakeAnthropic, type RecordedRequest, allText, lastToolResults, say, startFakeAnthropic, textOf, write } from './fake-anthropic.js'
import {
  BOOKMARK_BIN,
  type World,
  claudeStatus,
  createWorld,
  hookStdouts,
  installHooks,
  newSessionId,
  readJsonl,
  runBookmark,
  runClaude,
  runLog,
  transcriptPath,
  uninstallHooks,
} from './harness.js'
import { afterOk, expectScriptDone } from './script.js'

const claude = claudeStatus()
if (!claude.available) console.warn(`real-host tests skipped: ${claude.why}`)

/** Unrelated settings the user already had: `bookmark uninstall` must give these bytes back exactly. */
const USER_SETTINGS = `{
  "env": { "SOME_UNRELATED": "value" },
  "permissions": {
    "allow": ["Bash(echo *)"]
  },
  "hooks": {
    "Notification": [ { "hooks": [ { "type": "command", "command": "true" } ] } ]
  },
  "includeCoAuthoredBy": false
}
`

const FIRST_PROMPT = 'Add a greeting module with a test, and keep non-ASCII names as a follow-up task.'
const OPEN_TASK = 'Handle non-ASCII names in greet()'
const DECISION = 'Kept greet() pure (no I/O) because the CLI and the tests both call it; rejected a Greeter class as overkill.'
const NEXT_STEP = 'Normalise names with String.prototype.normalize("NFC") in greet() and add a test for "Zoë".'

/**
 * TaskCreate (and TodoWrite) are off in 2.1.332 for `-p` sessions of the default model (the tool result says
 * "No such tool available: TaskCreate. TaskCreate is disabled for this session"); this switch, read by the
 * binary, turns the task tools on. They are then deferred: the scripted model loads TaskCreate with
 * ToolSearch first, as a real model must.
 */
const TASK_TOOLS_ENV = { CLAUDE_CODE_ENABLE_TODO_TOOLS: '1' }

let fake: FakeAnthropic
let world: World
let settingsBefore: Buffer
let sid1: string
let narrative: string
const snapshotsDir = (): string => join(world.proj, '.bookmark', 'snapshots')

interface SnapshotJson {
  id: string
  trigger: string
  session: { id: string }
  task: string | null
  files: { path: string; op: string }[]
  tasks: { source: string | null; items: { id?: string; text: string; status: string }[] }
  requests: { count: number; all: { text: string }[] }
}

function snapshots(): SnapshotJson[] {
  if (!existsSync(snapshotsDir())) return []
  return readdirSync(snapshotsDir())
    .sort()
    .map((f) => JSON.parse(readFileSync(join(snapshotsDir(), f), 'utf8')) as SnapshotJson)
}

/** The additionalContext our SessionStart hook gave, as Claude Code recorded the hook's stdout in the transcript. */
function sessionStartContexts(cwd: string, sessionId: string): string[] {
  return hookStdouts(readJsonl(transcriptPath(world, cwd, sessionId)), 'SessionStart')
    .filter((s) => s.trim().startsWith('{'))
    .map((s) => (JSON.parse(s) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } }).hookSpecificOutput)
    .filter((h) => h.hookEventName === 'SessionStart')
    .map((h) => h.additionalContext)
}

/** The SessionStart contexts as the model received them: `SessionStart hook additional context: …` up to the environment section. */
function sessionStartSegments(req: RecordedRequest): string[] {
  const marker = 'SessionStart hook additional context: '
  const out: string[] = []
  for (const m of req.body!.messages ?? []) {
    const text = textOf(m.content)
    let at = text.indexOf(marker)
    while (at !== -1) {
      const start = at + marker.length
      const next = [`\n${marker}`, '\n\n# Environment', "\n\nToday's date is ", '\nUserPromptSubmit hook additional context: ']
        .map((t) => text.indexOf(t, start))
        .filter((i) => i !== -1)
      const end = next.length > 0 ? Math.min(...next) : text.length
      out.push(text.slice(start, end))
      at = text.indexOf(marker, end)
    }
  }
  return out
}

/** Hook runs Claude Code recorded as failed (non-zero exit, bad output) in a session's transcript. */
function hookFailures(cwd: string, sessionId: string): string[] {
  return readJsonl(transcriptPath(world, cwd, sessionId))
    .map((l) => l.attachment as { type?: string; hookName?: string; stderr?: string } | undefined)
    .filter((a) => a?.type === 'hook_non_blocking_error' || a?.type === 'hook_error')
    .map((a) => `${a!.hookName}: ${a!.stderr ?? ''}`.slice(0, 500))
}

let scenario1Done = false
const needScenario1 = (): void => {
  if (!scenario1Done) throw new Error('scenario 1 did not complete: this scenario builds on it')
}

describe.skipIf(!claude.available)('real host: Claude Code 2.1.332 runs our hooks against a fake API on 127.0.0.1', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    fake = await startFakeAnthropic()
    world = createWorld(fake)
    // These scenarios drive the handoff through claude -p, where the Stop hook does not ask for it by
    // default (issue 16, docs/HEADLESS.md): they opt in, as automation that wants the handoff does.
    world.env.BOOKMARK_NARRATIVE_IN_HEADLESS = '1'
    writeFileSync(world.settingsPath, USER_SETTINGS)
    settingsBefore = readFileSync(world.settingsPath)
    await installHooks(world)
  })

  beforeEach(() => fake.clearScript())

  afterAll(async () => {
    await fake?.close()
    world?.cleanup()
    if (runLog.length > 0) console.info(`claude runs: ${runLog.map((r) => `${r.args.join(' ')} ${r.ms} ms`).join('; ')}`)
  })

  it('setup wired the four hooks with absolute node and bin/bookmark.cjs paths, keeping the user settings', () => {
    const settings = JSON.parse(readFileSync(world.settingsPath, 'utf8')) as {
      hooks: Record<string, { hooks: { command: string; args?: string[] }[] }[]>
      env: unknown
      permissions: unknown
    }
    const handlers = (event: string): { command: string; args?: string[] }[] => (settings.hooks[event] ?? []).flatMap((g) => g.hooks)
    // The exec form, since the claude on the world's PATH is 2.1.332; through the guard (issue 16).
    for (const [event, sub] of [
      ['SessionStart', 'restore'],
      ['UserPromptSubmit', 'check'],
      ['PreCompact', 'precompact'],
      ['Stop', 'stop'],
    ] as const) {
      expect(handlers(event).filter((h) => h.args?.includes(BOOKMARK_BIN))).toEqual([
        { type: 'command', command: process.execPath, args: ['-e', GUARD, BOOKMARK_BIN, sub], timeout: expect.any(Number) },
      ])
    }
    const commands = (event: string): string[] => handlers(event).map((h) => [h.command, ...(h.args ?? [])].join(' '))
    expect(commands('Notification')).toEqual(['true'])
    expect(settings.env).toEqual({ SOME_UNRELATED: 'value' })
    // setup adds the rule that lets the model write its handoff without a prompt (docs/PERMISSIONS.md)
    expect(settings.permissions).toEqual({ allow: ['Bash(echo *)', 'Edit(//**/.bookmark/bookmark.context.md)'] })
  })

  it('1. Stop blocks once for the handoff; the model writes it from the identity header; the next Stop passes', async () => {
    sid1 = newSessionId()
    const greet = join(world.proj, 'src', 'greet.ts')
    const greetTest = join(world.proj, 'src', 'greet.test.ts')
    let blockReason = ''
    let narrativePath = ''
    fake.script(
      write(greet, 'export function greet(name: string): string {\n  return `Hello, ${name}!`\n}\n', 'Writing the module.'),
      afterOk(write(greetTest, "import { greet } from './greet'\nconsole.assert(greet('Ada') === 'Hello, Ada!')\n")),
      afterOk({ tools: [{ name: 'ToolSearch', input: { query: 'select:TaskCreate' } }] }),
      afterOk((req) => {
        // The ToolSearch result holds tool_reference blocks, not text.
        const messages = req.body!.messages!
        if (!JSON.stringify(messages[messages.length - 1]).includes('"TaskCreate"')) throw new Error('ToolSearch did not load TaskCreate')
        return { tools: [{ name: 'TaskCreate', input: { subject: OPEN_TASK, description: 'Names like "Zoë" come in decomposed from some terminals.' } }] }
      }),
      afterOk(say('The greeting module and its test are written; non-ASCII names are still open.')),
      // Our Stop hook blocked: this request carries the reason. Write the handoff exactly as it asks.
      (req) => {
        const text = allText(req.body!)
        const m = /Stop hook feedback:\n(session-bookmark: before you stop, write the handoff[\s\S]*?Write only that file, then stop\.[^\n]*)/.exec(text)
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
          `${FIRST_PROMPT} Done means greet() exists, is tested, and the follow-up is tracked.`,
          '',
          '## Progress',
          'src/greet.ts and src/greet.test.ts are written (not committed). The non-ASCII follow-up is task #1.',
          '',
          '## Decisions',
          `- ${DECISION}`,
          '',
          '## Open items',
          `- ${OPEN_TASK} (task #1, open).`,
          '',
          '## Next step',
          NEXT_STEP,
          '',
          '## Files',
          '- src/greet.ts: the greeting function',
          '- src/greet.test.ts: its test',
          '',
        ].join('\n')
        return write(narrativePath, narrative, 'Writing the handoff.')
      },
      afterOk(say('Handoff written.')),
    )

    const mark = fake.mark()
    const r = await runClaude(world, FIRST_PROMPT, { sessionId: sid1, env: TASK_TOOLS_ENV })
    expect(r.json.session_id).toBe(sid1)
    expect(r.json.result).toBe('Handoff written.')
    expectScriptDone(fake, mark) // the second Stop (stop_hook_active) let the session end: no request after "Handoff written."

    // The request after the block carries our reason, with the identity header for this repository.
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: world.proj, encoding: 'utf8' }).trim()
    expect(blockReason).toContain('write the handoff for the next session (no narrative yet)')
    expect(blockReason).toContain(
      `<!-- BOOKMARK_IDENTITY\nscope: repo\nproject: proj\nrepo_path: ${world.proj}\nbranch: main\nhead: ${head}\nsession_id: ${sid1}\nwritten: `,
    )
    for (const s of ['## Task', '## Progress', '## Decisions', '## Open items', '## Next step', '## Files']) expect(blockReason).toContain(s)
    const main = fake.mainRequests(mark)
    expect(main).toHaveLength(7)
    const afterBlock = allText(main[5]!.body!)
    expect(afterBlock).toContain('Stop hook blocking error from command:')
    expect(afterBlock).toContain(`${BOOKMARK_BIN} stop`)
    for (const earlier of main.slice(0, 5)) expect(allText(earlier.body!)).not.toContain('write the handoff')

    // Files on disk: the two files, and the handoff where the reason said, byte for byte what the model wrote.
    expect(readFileSync(greet, 'utf8')).toContain('export function greet')
    expect(existsSync(greetTest)).toBe(true)
    expect(narrativePath).toBe(join(world.proj, '.bookmark', 'bookmark.context.md'))
    expect(readFileSync(narrativePath, 'utf8')).toBe(narrative)

    // The transcript shows one blocking Stop, then one that passed.
    const summaries = readJsonl(transcriptPath(world, world.proj, sid1)).filter((l) => l.type === 'system' && l.subtype === 'stop_hook_summary') as {
      hookErrors: string[]
    }[]
    expect(summaries.map((s) => s.hookErrors.length)).toEqual([1, 0])

    // A snapshot lists both files, the open task and the request; the store counts one narrative block.
    const snaps = snapshots().filter((s) => s.session.id === sid1)
    const stopSnap = snaps.find((s) => s.trigger === 'stop' && s.files.some((f) => f.path === 'src/greet.ts'))
    expect(stopSnap, JSON.stringify(snaps.map((s) => [s.trigger, s.files.map((f) => f.path)]))).toBeDefined()
    expect(stopSnap!.files.map((f) => f.path).sort()).toEqual(['src/greet.test.ts', 'src/greet.ts'])
    expect(stopSnap!.files.every((f) => f.op === 'created')).toBe(true)
    expect(stopSnap!.tasks).toEqual({ source: 'TaskCreate', items: [{ id: '1', text: OPEN_TASK, status: 'pending' }] })
    expect(stopSnap!.requests.all.map((p) => p.text)).toEqual([FIRST_PROMPT]) // the Stop feedback is not a user request
    const status = JSON.parse((await runBookmark(world, ['status', '--json'])).stdout) as { narrativeBlocks: number }
    expect(status.narrativeBlocks).toBe(1)
    expect(hookFailures(world.proj, sid1)).toEqual([])
    scenario1Done = true
  })

  it('1b. the handoff write is not counted as a change to the project (snapshots, trail)', () => {
    needScenario1()
    // The model wrote .bookmark/bookmark.context.md because our Stop hook asked: that is our store, not work
    // on the project. Today it is listed as a created file in the snapshots, LATEST.md, the trail and the
    // restore text ("Files changed (3, 2 named above)" with only this file left to show). Fails until src/extract skips it.
    const listed = snapshots().map((s) => `${s.id} ${s.trigger}: ${s.files.map((f) => f.path).join(', ')}`)
    expect(
      listed.filter((l) => l.includes('.bookmark/')),
      listed.join('\n'),
    ).toEqual([])
    const trail = JSON.parse(readFileSync(join(world.proj, '.bookmark', 'trails', 'files.json'), 'utf8')) as { files: Record<string, unknown> }
    expect(Object.keys(trail.files).sort()).toEqual(['src/greet.test.ts', 'src/greet.ts'])
  })

  it('2. a new session in the project: its first request carries the restored handoff, within the caps', async () => {
    needScenario1()
    const sid2 = newSessionId()
    fake.script(say('We were adding greet(); next is non-ASCII names.'))
    const mark = fake.mark()
    await runClaude(world, 'Where did we leave off?', { sessionId: sid2 })
    expectScriptDone(fake, mark)
    const [first, ...rest] = fake.mainRequests(mark)
    expect(rest).toHaveLength(0) // no work, no block

    const contexts = sessionStartContexts(world.proj, sid2)
    expect(contexts).toHaveLength(1)
    const ctx = contexts[0]!
    expect(ctx.length).toBeLessThanOrEqual(6_000) // our default restoreBudget
    // The narrative passed the identity check (this repo, this branch and HEAD): its content, not a warning.
    expect(ctx).toContain(DECISION)
    expect(ctx).toContain(NEXT_STEP)
    expect(ctx).toContain(OPEN_TASK)
    expect(ctx).not.toContain('BOOKMARK_IDENTITY')
    expect(ctx).not.toMatch(/another repository|tracked by git|old; check it|branch is now/)
    expect(hookFailures(world.proj, sid2)).toEqual([])

    // What the model received: the whole context, verbatim, as SessionStart context (not spilled to a file).
    // Ours is the only SessionStart context, so the whole of it is within Claude Code's 10,000-character cap.
    expect(sessionStartSegments(first!)).toEqual([ctx])
    expect(ctx.length).toBeLessThanOrEqual(10_000)
  })

  it('3. /compact: PreCompact captures and prepares the compact resume, which the next request carries', async () => {
    needScenario1()
    const mark = fake.mark()
    const compact = await runClaude(world, '/compact', { resume: sid1, env: TASK_TOOLS_ENV })
    expect(compact.json.session_id).toBe(sid1)
    const during = fake.messages().filter((r) => r.seq > mark)
    expect(during.map((r) => r.kind)).toEqual(['compaction'])
    expect(fake.mainRequests(mark)).toHaveLength(0)

    const pre = snapshots().filter((s) => s.session.id === sid1 && s.trigger === 'pre_compact')
    expect(pre).toHaveLength(1)
    expect(pre[0]!.files.map((f) => f.path)).toEqual(expect.arrayContaining(['src/greet.test.ts', 'src/greet.ts']))
    expect(pre[0]!.tasks.items).toEqual([{ id: '1', text: OPEN_TASK, status: 'pending' }])
    // The session's machine-local state lives in the project's folder of the bookmark home.
    const sessions = join(await stateDir(world.bookmarkHome, world.proj), 'sessions')
    const resumePath = join(sessions, `${sid1}.compact.md`)
    expect(existsSync(resumePath)).toBe(true)
    const resume = readFileSync(resumePath, 'utf8')
    expect(resume).toContain(FIRST_PROMPT)
    expect(resume).toContain(OPEN_TASK)
    expect(resume.length).toBeLessThanOrEqual(6_000)
    expect(JSON.parse(readFileSync(join(sessions, `${sid1}.json`), 'utf8'))).toMatchObject({ compactions: 1, blocks: 1 })

    // SessionStart(compact) handed back exactly the prepared resume.
    expect(sessionStartContexts(world.proj, sid1)).toContain(resume)

    // The first request after compaction: the summary replaced the history, and our compact resume is there.
    fake.script(say('Continuing with the non-ASCII names task.'))
    const mark2 = fake.mark()
    await runClaude(world, 'continue', { resume: sid1, env: TASK_TOOLS_ENV })
    expectScriptDone(fake, mark2)
    const after = fake.mainRequests(mark2)
    expect(after).toHaveLength(1)
    const body = allText(after[0]!.body!)
    expect(body).toContain('FAKE-COMPACT-SUMMARY')
    expect(sessionStartSegments(after[0]!)).toContain(resume)
    expect(body).not.toContain('Writing the module.') // the pre-compaction turns are gone
    expect(hookFailures(world.proj, sid1)).toEqual([])
  })

  it('4. a session started in HOME restores the last active project through the home pointer', async () => {
    needScenario1()
    const sid4 = newSessionId()
    fake.script(say('Picking up the greeting project.'))
    const mark = fake.mark()
    await runClaude(world, 'What was I doing?', { sessionId: sid4, cwd: world.home })
    expectScriptDone(fake, mark)
    const [first] = fake.mainRequests(mark)
    const ctx = sessionStartContexts(world.home, sid4)
    expect(ctx).toHaveLength(1)
    expect(ctx[0]!).toContain(`This session started outside any project. The last active project is proj (${world.proj})`)
    expect(ctx[0]!).toContain(DECISION)
    expect(ctx[0]!).toContain(NEXT_STEP)
    expect(ctx[0]!.length).toBeLessThanOrEqual(6_000)
    expect(sessionStartSegments(first!)).toEqual([ctx[0]])
    // HOME is not a project: no store was made there (BOOKMARK_HOME, home/.bookmark, holds only the pointer and registry).
    expect(existsSync(join(world.home, '.bookmark', 'snapshots'))).toBe(false)
    expect(existsSync(join(world.home, '.bookmark', 'index.json'))).toBe(false)
    expect(hookFailures(world.home, sid4)).toEqual([])
  })

  it('MCP: Claude Code started with our .mcp.json offers the bookmark tools, and bookmark_status returns the real status', async () => {
    needScenario1()
    const sid = newSessionId()
    const TOOL = 'mcp__session-bookmark__bookmark_status'
    let offered: string[] = []
    fake.script(
      (req) => {
        offered = (req.body!.tools ?? []).map((t) => t.name ?? '').filter((n) => n.startsWith('mcp__session-bookmark__'))
        const deferred = allText(req.body!).includes(TOOL)
        if (!offered.includes(TOOL) && deferred) return { tools: [{ name: 'ToolSearch', input: { query: `select:${TOOL}` } }] }
        return { tools: [{ name: TOOL, input: { cwd: world.proj } }] }
      },
      (req) => {
        const last = JSON.stringify(req.body!.messages!.at(-1))
        if (last.includes('tool_reference')) return { tools: [{ name: TOOL, input: { cwd: world.proj } }] }
        return say('Status read.')
      },
      say('Status read.'),
    )
    const statusNow = async () =>
      JSON.parse((await runBookmark(world, ['status', '--json'])).stdout) as {
        snapshots: number
        projectRoot: string
        narrativeBlocks: number
        latest: { id: string }
      }
    const before = await statusNow()
    const mark = fake.mark()
    // The plugin's .mcp.json, as Claude Code reads it: ${CLAUDE_PLUGIN_ROOT} is this repository.
    await runClaude(world, 'What does the bookmark store say?', {
      sessionId: sid,
      env: { CLAUDE_PLUGIN_ROOT: join(BOOKMARK_BIN, '..', '..') },
      extraArgs: ['--mcp-config', join(BOOKMARK_BIN, '..', '..', '.mcp.json'), '--allowedTools', TOOL],
    })
    const requests = fake.mainRequests(mark)
    const names = new Set(
      requests.flatMap((r) => [...(r.body!.tools ?? []).map((t) => t.name ?? ''), ...(allText(r.body!).match(/mcp__session-bookmark__bookmark_\w+/g) ?? [])]),
    )
    for (const t of ['bookmark_snapshot', 'bookmark_restore', 'bookmark_status', 'bookmark_list', 'bookmark_show', 'bookmark_export'])
      expect(names.has(`mcp__session-bookmark__${t}`), t).toBe(true)
    // The tool result the model received is our real status of this project.
    const results = requests.flatMap((r) => lastToolResults(r.body!)).map((r) => r.text)
    // Claude Code hands its model JSON.stringify(structuredContent) in place of the text whenever a result
    // carries it; our server leaves it out for Claude Code, so the model reads the status text (server.ts).
    expect(
      results.some((t) => t.includes('"narrativeBlocks"')),
      results.join('\n---\n'),
    ).toBe(false)
    const statusText = results.find((t) => /^Project .+: \d+ snapshots, \d+ sessions\.$/m.test(t))
    expect(statusText, results.join('\n---\n')).toBeDefined()
    // The hooks of this very session capture around the call (check before it, Stop after it), so the status
    // the model saw lies between the status before the run and after it, and names a snapshot on disk.
    const after = await statusNow()
    const num = (re: RegExp): number => Number(re.exec(statusText!)?.[1])
    const got = {
      snapshots: num(/: (\d+) snapshots,/),
      narrativeBlocks: num(/^Narrative blocks: (\d+);/m),
      latest: { id: /^Latest: (SNAP_\S+) /m.exec(statusText!)?.[1] ?? '' },
    }
    expect(statusText).toContain(`Project ${after.projectRoot}: `)
    expect(got.narrativeBlocks).toBe(after.narrativeBlocks)
    expect(got.snapshots).toBeGreaterThanOrEqual(before.snapshots)
    expect(got.snapshots).toBeLessThanOrEqual(after.snapshots)
    expect(existsSync(join(snapshotsDir(), `${got.latest.id}.json`))).toBe(true)
    expect(fake.problems().filter((p) => p.seq > mark)).toEqual([])
  })

  it("MCP: the model calls bookmark_search and gets a past session's request with its transcript line", async () => {
    needScenario1()
    // The earlier sessions of this config dir into the events log (the search catches up on its own from then on).
    const backfill = await runBookmark(world, ['index', '--backfill'])
    expect(backfill.code, backfill.stderr).toBe(0)
    const TOOL = 'mcp__session-bookmark__bookmark_search'
    const args = { query: 'greeting module follow-up task', cwd: world.proj }
    fake.script(
      (req) => {
        const offered = (req.body!.tools ?? []).map((t) => t.name ?? '')
        if (!offered.includes(TOOL) && allText(req.body!).includes(TOOL)) return { tools: [{ name: 'ToolSearch', input: { query: `select:${TOOL}` } }] }
        return { tools: [{ name: TOOL, input: args }] }
      },
      afterOk((req) => {
        const last = JSON.stringify(req.body!.messages!.at(-1))
        if (last.includes('tool_reference')) return { tools: [{ name: TOOL, input: args }] }
        return say('Found the first request.')
      }),
      say('Found the first request.'),
    )
    const mark = fake.mark()
    await runClaude(world, 'Where did we first ask for the greeting module?', {
      sessionId: newSessionId(),
      env: { CLAUDE_PLUGIN_ROOT: join(BOOKMARK_BIN, '..', '..') },
      extraArgs: ['--mcp-config', join(BOOKMARK_BIN, '..', '..', '.mcp.json'), '--allowedTools', TOOL],
    })
    // The request of scenario 1, as its transcript holds it: the line a hit must point at.
    const path = transcriptPath(world, world.proj, sid1)
    const line =
      readFileSync(path, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('"type":"user"') && l.includes(JSON.stringify(FIRST_PROMPT).slice(1, -1))) + 1
    expect(line).toBeGreaterThan(0)
    const results = fake
      .mainRequests(mark)
      .flatMap((r) => lastToolResults(r.body!))
      .filter((r) => !r.isError)
      .map((r) => r.text)
    const hit = results.find((t) => t.includes(`${path}:${line}  (id `))
    expect(hit, results.join('\n---\n')).toBeDefined()
    // The hit's line holds the request's text and the session it came from.
    const row = hit!.split('\n').findIndex((l) => l.includes(`${path}:${line}  (id `))
    expect(hit!.split('\n')[row - 1]).toContain(`request  ${sid1.slice(0, 8)}  ${FIRST_PROMPT}`)
    expect(fake.problems().filter((p) => p.seq > mark)).toEqual([])
  })

  it('5. bookmark uninstall gives back the settings file byte for byte, and the hooks stop running', async () => {
    const r = await uninstallHooks(world)
    expect(r.code, r.stderr).toBe(0)
    expect(readFileSync(world.settingsPath).equals(settingsBefore), readFileSync(world.settingsPath, 'utf8')).toBe(true)

    const before = snapshots().length
    const sid5 = newSessionId()
    fake.script(say('ok'))
    const mark = fake.mark()
    await runClaude(world, 'Anything left to do here?', { sessionId: sid5 })
    expectScriptDone(fake, mark)
    expect(sessionStartSegments(fake.mainRequests(mark)[0]!)).toEqual([])
    expect(snapshots().length).toBe(before)
  })

  it('no hook failure was logged by our hooks', () => {
    expect(existsSync(join(world.proj, '.bookmark', 'errors.log')) ? readFileSync(join(world.proj, '.bookmark', 'errors.log'), 'utf8') : '').toBe('')
    expect(existsSync(join(world.bookmarkHome, 'errors.log')) ? readFileSync(join(world.bookmarkHome, 'errors.log'), 'utf8') : '').toBe('')
  })

  it('every request reached the fake over 127.0.0.1, and none failed', () => {
    expect(fake.requests.length).toBeGreaterThan(0)
    expect([...new Set(fake.requests.map((r) => r.remoteAddress))]).toEqual(['127.0.0.1'])
    expect([...new Set(fake.requests.map((r) => r.localAddress))]).toEqual(['127.0.0.1'])
    expect([...new Set(fake.requests.map((r) => `${r.method} ${r.path}`))]).toEqual(['POST /v1/messages'])
    expect(fake.requests.filter((r) => r.status !== 200).map((r) => `${r.seq} ${r.kind} ${r.status} ${r.failure ?? ''}`)).toEqual([])
    expect(fake.requests.filter((r) => r.kind === 'side').map((r) => r.seq)).toEqual([])
  })
})
