/**
 * Issue 16 in the real host: `claude -p` (Claude Code 2.1.332) with our hooks installed by `bookmark setup`.
 * The scripted model changes a file and answers. The run's JSON `result` must be that answer, not the
 * model's reply to a handoff request. With narrativeInHeadless opted in, the block comes back, and so
 * does the problem it causes (the reply to our request becomes `result`). That is why the key is off
 * by default. Evidence for the signal: docs/HEADLESS.md.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeAnthropic, allText, say, startFakeAnthropic, write } from './fake-anthropic.js'
import { BOOKMARK_BIN, type World, claudeStatus, createWorld, installHooks, newSessionId, runBookmark, runClaude, stopBlocks } from './harness.js'
import { afterOk, expectScriptDone } from './script.js'

const claude = claudeStatus()
if (!claude.available) console.warn(`real-host headless tests skipped: ${claude.why}`)

let fake: FakeAnthropic
let world: World

function stopSnapshotFiles(sessionId: string): string[][] {
  const dir = join(world.proj, '.bookmark', 'snapshots')
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { trigger: string; session: { id: string }; files: { path: string }[] })
    .filter((s) => s.session.id === sessionId && s.trigger === 'stop')
    .map((s) => s.files.map((f) => f.path).sort())
}

describe.skipIf(!claude.available)('real host: claude -p keeps its answer (issue 16)', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    fake = await startFakeAnthropic()
    world = createWorld(fake, 'bm-realhost-headless-')
    await installHooks(world)
  })

  beforeEach(() => fake.clearScript())

  afterAll(async () => {
    await fake?.close()
    world?.cleanup()
  })

  it('by default: the file is written, the result is the answer, the turn is captured, and no block is sent', async () => {
    const sid = newSessionId()
    const answerFile = join(world.proj, 'answer.txt')
    fake.script(write(answerFile, '42\n', 'Writing the answer down.'), afterOk(say('The answer is 42; it is in answer.txt.')))
    const mark = fake.mark()
    const r = await runClaude(world, 'Compute six times seven, write it to answer.txt and tell me the answer.', { sessionId: sid })

    expect(r.json.result).toBe('The answer is 42; it is in answer.txt.')
    expect(r.json.num_turns).toBe(2)
    expectScriptDone(fake, mark) // no request after the answer: the Stop hook let the run end
    const main = fake.mainRequests(mark)
    expect(main).toHaveLength(2)
    for (const req of main) expect(allText(req.body!)).not.toContain('write the handoff')
    expect(readFileSync(answerFile, 'utf8')).toBe('42\n')

    // The deterministic capture still happened at Stop; no block, so no narrative either.
    expect(stopBlocks(world, sid)).toEqual([0])
    expect(stopSnapshotFiles(sid)).toContainEqual(['answer.txt'])
    expect(existsSync(join(world.proj, '.bookmark', 'bookmark.context.md'))).toBe(false)
    const status = JSON.parse((await runBookmark(world, ['status', '--json'])).stdout) as { narrativeBlocks: number }
    expect(status.narrativeBlocks).toBe(0)
  })

  it('opted in with BOOKMARK_NARRATIVE_IN_HEADLESS=1: the Stop hook blocks once, and the reply to it becomes the result', async () => {
    const sid = newSessionId()
    const second = join(world.proj, 'second.txt')
    let afterBlock = ''
    fake.script(write(second, 'two\n'), afterOk(say('The second answer is two.')), (req) => {
      afterBlock = allText(req.body!)
      return say('Done.') // a model that does not write the handoff: the next Stop has stop_hook_active and passes
    })
    const mark = fake.mark()
    const r = await runClaude(world, 'Write two to second.txt and tell me what you wrote.', { sessionId: sid, env: { BOOKMARK_NARRATIVE_IN_HEADLESS: '1' } })

    expect(r.json.result).toBe('Done.') // what issue 16 is about: the answer is lost to the handoff request
    expectScriptDone(fake, mark)
    expect(fake.mainRequests(mark)).toHaveLength(3)
    expect(afterBlock).toContain('Stop hook blocking error from command:')
    expect(afterBlock).toContain(`${BOOKMARK_BIN} stop`)
    expect(afterBlock).toContain('session-bookmark: before you stop, write the handoff')
    expect(stopBlocks(world, sid)).toEqual([1, 0])
    expect(stopSnapshotFiles(sid)).toContainEqual(['second.txt'])
  })
})
