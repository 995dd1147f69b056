/**
 * Issue 16 in the real host: in Claude Code's default permission mode (claude -p without --permission-mode,
 * 2.1.332), the handoff Write the Stop hook asks for goes through with the rule `bookmark setup` adds, and is
 * denied without it. The session's own edit is allowed by a narrow --allowedTools rule for src/ only, so the
 * handoff is allowed by nothing but setup's rule. Evidence and other versions: docs/PERMISSIONS.md.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeAnthropic, type ToolResult, allText, lastToolResults, say, startFakeAnthropic, write } from './fake-anthropic.js'
import { type World, claudeStatus, createWorld, installHooks, newSessionId, runBookmark, runClaude, stopBlocks } from './harness.js'
import { afterOk, expectScriptDone } from './script.js'

const claude = claudeStatus()
if (!claude.available) console.warn(`real-host permission tests skipped: ${claude.why}`)

const RULE = 'Edit(//**/.bookmark/bookmark.context.md)'

let fake: FakeAnthropic
let world: World

interface Settings {
  permissions?: { allow?: string[] }
}
const readSettings = (): Settings => JSON.parse(readFileSync(world.settingsPath, 'utf8')) as Settings

interface Denial {
  tool_name: string
  tool_input: { file_path?: string }
}

/**
 * One session of real work in the default mode: the model writes src/<name> (allowed for src/ only), answers,
 * gets our Stop block, writes the handoff at the path the reason names, and ends. Returns what happened.
 */
async function sessionWithHandoff(
  name: string,
): Promise<{ denials: Denial[]; handoffPath: string; handoff: string; handoffResult: ToolResult | undefined; sid: string; mark: number }> {
  const sid = newSessionId()
  let handoffPath = ''
  let handoff = ''
  let handoffResult: ToolResult | undefined
  fake.script(
    write(join(world.proj, 'src', name), `export const ${name.replace(/\W/g, '')} = 1\n`),
    afterOk(say(`src/${name} is written.`)),
    (req) => {
      const reason = /Stop hook feedback:\n(session-bookmark: before you stop, write the handoff[\s\S]*?Write only that file, then stop\.[^\n]*)/.exec(
        allText(req.body!),
      )?.[1]
      const header = reason && /<!-- BOOKMARK_IDENTITY\n[\s\S]*?\n-->/.exec(reason)
      const target = reason && /Use your Write tool to write (\S+) now/.exec(reason)
      if (!header || !target) throw new Error('the request after the Stop block does not carry our reason')
      handoffPath = target[1]!
      handoff = `${header[0]}\n# Handoff: proj\n\n## Task\nWrite src/${name}.\n\n## Next step\nNone.\n`
      return write(handoffPath, handoff, 'Writing the handoff.')
    },
    (req) => {
      handoffResult = lastToolResults(req.body!)[0]
      return say('Handoff step done.')
    },
  )
  const mark = fake.mark()
  const r = await runClaude(world, `Write src/${name}.`, {
    sessionId: sid,
    permissionMode: null,
    extraArgs: ['--allowedTools', `Edit(/${join(world.proj, 'src')}/**)`],
  })
  expect(r.json.result).toBe('Handoff step done.')
  expectScriptDone(fake, mark)
  return { denials: (r.json.permission_denials ?? []) as Denial[], handoffPath, handoff, handoffResult, sid, mark }
}

describe.skipIf(!claude.available)('real host: the handoff write in the default permission mode (issue 16)', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    fake = await startFakeAnthropic()
    world = createWorld(fake, 'bm-realhost-perm-')
    world.env.BOOKMARK_NARRATIVE_IN_HEADLESS = '1' // the Stop hook asks in claude -p only when opted in
    await installHooks(world)
  })

  beforeEach(() => fake.clearScript())

  afterAll(async () => {
    await fake?.close()
    world?.cleanup()
  })

  it('with the rule bookmark setup adds, the model writes the handoff without a prompt or a denial', async () => {
    expect(readSettings().permissions).toEqual({ allow: [RULE] })
    const s = await sessionWithHandoff('a.ts')
    expect(s.handoffPath).toBe(join(world.proj, '.bookmark', 'bookmark.context.md'))
    expect(s.denials).toEqual([])
    expect(s.handoffResult?.isError).toBe(false)
    expect(readFileSync(s.handoffPath, 'utf8')).toBe(s.handoff)
    expect(stopBlocks(world, s.sid)).toEqual([1, 0])
    expect(readFileSync(join(world.proj, 'src', 'a.ts'), 'utf8')).toContain('export const ats')
  })

  it('without the rule the same write is denied, and the next session is not told of it as an error', async () => {
    const settings = readSettings()
    settings.permissions!.allow = settings.permissions!.allow!.filter((r) => r !== RULE)
    writeFileSync(world.settingsPath, JSON.stringify(settings, null, 2))
    const handoffPath = join(world.proj, '.bookmark', 'bookmark.context.md')
    rmSync(handoffPath) // no handoff: the next Stop after work asks for one again
    const s = await sessionWithHandoff('b.ts')
    expect(s.handoffPath).toBe(handoffPath)
    expect(s.denials.map((d) => [d.tool_name, d.tool_input.file_path])).toEqual([['Write', handoffPath]])
    expect(s.handoffResult).toMatchObject({ isError: true, text: `Claude requested permissions to write to ${handoffPath}, but you haven't granted it yet.` })
    expect(existsSync(handoffPath)).toBe(false)
    expect(existsSync(join(world.proj, 'src', 'b.ts'))).toBe(true) // src/ stays allowed: only the handoff lacks a rule

    // A capture of the whole session (the Stop after the denial had nothing new to snapshot) reads the denial
    // in the transcript and keeps it out of the errors the next session is shown.
    const snap = await runBookmark(world, ['snapshot', '--session-id', s.sid, '--json'])
    const { snapshotFile } = JSON.parse(snap.stdout) as { snapshotFile: string }
    const captured = JSON.parse(readFileSync(snapshotFile, 'utf8')) as { session: { id: string }; errors: { target: string }[] }
    expect(captured.session.id).toBe(s.sid)
    expect(captured.errors.filter((e) => e.target.endsWith('bookmark.context.md'))).toEqual([])
  })
})
