import { describe, expect, it } from 'vitest'
import { createState } from '../extract/model.js'
import { type NarrativeState, type SessionHooks, decideStop, narrativeFreshness, newSessionHooks, workSince, workSinceClock } from './freshness.js'

const good: NarrativeState = {
  exists: true,
  bytes: 900,
  identityOk: true,
  written: '2026-11-28T10:00:00Z',
  hasSection: true,
  templateOnly: false,
  tracked: false,
}
const hooks = (over: Partial<SessionHooks> = {}): SessionHooks => ({ ...newSessionHooks('s'), ...over })
const none = { files: 0, requests: 0 }

describe('narrativeFreshness', () => {
  it.each([
    ['missing', { ...good, exists: false }, hooks(), none, false, 'no narrative yet'],
    ['tracked by git', { ...good, tracked: true }, hooks(), none, false, 'tracked by git'],
    ['200 bytes is too short', { ...good, bytes: 200 }, hooks(), none, false, 'too short'],
    ['no section', { ...good, hasSection: false }, hooks(), none, false, 'no "## " section'],
    ['template only', { ...good, templateOnly: true }, hooks(), none, false, 'still the template'],
    ['foreign or broken identity', { ...good, identityOk: false }, hooks(), none, false, 'identity header'],
    ['written after the block that asked', good, hooks({ lastBlockAt: '2026-11-28T09:59:59.500Z' }), { files: 5, requests: 9 }, true, 'after the last request'],
    ['written before the block', good, hooks({ lastBlockAt: '2026-11-28T10:00:01.000Z' }), { files: 1, requests: 0 }, false, '1 files changed'],
    [
      'written on request, then 31 minutes of work',
      good,
      hooks({ lastBlockAt: '2026-11-28T09:59:59.500Z' }),
      { files: 2, requests: 0 },
      false,
      '31 minutes after it was last asked for',
      Date.parse('2026-11-28T10:31:00Z'),
    ],
    ['no work since it was written', good, hooks(), { files: 0, requests: 2 }, true, 'no meaningful work'],
    ['files changed since', good, hooks(), { files: 2, requests: 0 }, false, '2 files changed'],
    ['three requests since', good, hooks(), { files: 0, requests: 3 }, false, '3 requests'],
    // Issue 18: "nothing committed yet" is wrong once a commit follows, even inside the refresh window.
    ['a commit since, nothing else', good, hooks(), { files: 0, requests: 1, commits: 1 }, false, '1 commit, 0 files changed and 1 requests since'],
    [
      'a commit after a handoff written on request, within the refresh window',
      good,
      hooks({ lastBlockAt: '2026-11-28T09:59:59.500Z' }),
      { files: 1, requests: 1, commits: 2 },
      false,
      '2 commits, 1 files changed',
    ],
    ['a cursor without commit times counts none', good, hooks(), { files: 0, requests: 1 }, true, 'no meaningful work'],
  ])('%s', (_n, state, h, work, fresh, reason, nowMs = Date.parse('2026-11-28T10:20:00Z')) => {
    const f = narrativeFreshness(state as NarrativeState, h, work, { requestsThreshold: 3, refreshMinutes: 30, nowMs })
    expect(f.fresh).toBe(fresh)
    expect(f.reason).toContain(reason)
  })
})

describe('decideStop (loop guards)', () => {
  const stale = { fresh: false, reason: 'no narrative yet' }
  const base = {
    stopHookActive: false,
    freshness: stale,
    hooks: hooks(),
    work: { files: 1, requests: 1 },
    nowMs: Date.parse('2026-11-28T12:00:00Z'),
    maxBlocks: 1,
    refreshMinutes: 30,
    requestsThreshold: 3,
    headless: false,
    narrativeInHeadless: false,
  }
  it.each([
    ['blocks when stale after meaningful work', base, true, 'narrative stale'],
    ['never on stop_hook_active', { ...base, stopHookActive: true }, false, 'stop_hook_active'],
    ['not when fresh', { ...base, freshness: { fresh: true, reason: 'x' } }, false, 'narrative fresh'],
    ['not without meaningful work', { ...base, work: { files: 0, requests: 2 } }, false, 'no meaningful work'],
    ['several requests are meaningful work', { ...base, work: { files: 0, requests: 3 } }, true, 'stale'],
    ['a commit alone is meaningful work', { ...base, work: { files: 0, requests: 1, commits: 1 } }, true, 'stale'],
    ['disabled with maxBlocks 0', { ...base, maxBlocks: 0 }, false, 'disabled'],
    [
      'at most once per session',
      { ...base, hooks: hooks({ blocks: 1, lastBlockAt: '2026-11-28T11:50:00Z' }), workSinceBlock: { files: 3, requests: 0 } },
      false,
      're-arms 20 minutes',
    ],
    [
      're-armed after the refresh window with further work',
      { ...base, hooks: hooks({ blocks: 1, lastBlockAt: '2026-11-28T11:29:00Z' }), workSinceBlock: { files: 1, requests: 0 } },
      true,
      '31 minutes of further work',
    ],
    [
      'not re-armed without work since the block',
      { ...base, hooks: hooks({ blocks: 1, lastBlockAt: '2026-11-28T11:00:00Z' }), workSinceBlock: { files: 0, requests: 1 } },
      false,
      'no meaningful work since the last block',
    ],
    [
      'never in a non-interactive run by default (claude -p keeps its answer)',
      { ...base, headless: true },
      false,
      'non-interactive run (narrativeInHeadless 0); would have asked: narrative stale',
    ],
    ['in a non-interactive run when narrativeInHeadless opts in', { ...base, headless: true, narrativeInHeadless: true }, true, 'narrative stale'],
    ['opting in changes nothing in an interactive run', { ...base, narrativeInHeadless: true }, true, 'narrative stale'],
    [
      'a headless run with nothing to ask says why it passed, not that it is headless',
      { ...base, headless: true, freshness: { fresh: true, reason: 'x' } },
      false,
      'narrative fresh',
    ],
    [
      'a headless re-arm is held back too',
      { ...base, headless: true, hooks: hooks({ blocks: 1, lastBlockAt: '2026-11-28T11:29:00Z' }), workSinceBlock: { files: 1, requests: 0 } },
      false,
      'would have asked: narrative stale after 31 minutes',
    ],
  ])('%s', (_n, input, block, why) => {
    const d = decideStop(input)
    expect(d.block).toBe(block)
    expect(d.why).toContain(why)
  })
})

describe('workSince', () => {
  it('counts files and requests after a time, across timestamp formats', () => {
    const s = createState()
    s.files['a.ts'] = {
      path: 'a.ts',
      op: 'created',
      added: 1,
      removed: 0,
      hints: [],
      changes: 1,
      tools: ['Write'],
      lastTs: '2026-11-28T10:00:00.500Z',
      lastLine: 1,
      subagent: false,
    }
    s.files['b.ts'] = {
      path: 'b.ts',
      op: 'created',
      added: 1,
      removed: 0,
      hints: [],
      changes: 1,
      tools: ['Write'],
      lastTs: '2026-11-28T09:00:00.000Z',
      lastLine: 1,
      subagent: false,
    }
    s.prompts = [
      { ts: '2026-11-28T09:00:00.000Z', line: 1, text: 'old' },
      { ts: '2026-11-28T10:00:01.000Z', line: 2, text: 'new' },
    ]
    s.git = [
      { ts: '2026-11-28T09:30:00Z', event: { kind: 'commit', hash: 'aaaaaaa', message: 'before' } },
      { ts: '2026-11-28T10:05:00Z', event: { kind: 'push', ok: true } },
      { ts: '2026-11-28T10:06:00Z', event: { kind: 'commit', hash: 'bbbbbbb', message: 'after' } },
    ]
    expect(workSince(s, '2026-11-28T10:00:00Z')).toEqual({ files: 1, requests: 1, commits: 1 })
    expect(workSince(s, undefined)).toEqual({ files: 2, requests: 2, commits: 2 })
  })

  it('reads a cursor head written before commits were counted, or with a broken commit list', () => {
    const clock = { files: [Date.parse('2026-11-28T09:00:00Z')], prompts: [] }
    expect(workSinceClock(clock, '2026-11-28T08:00:00Z')).toEqual({ files: 1, requests: 0, commits: 0 })
    expect(workSinceClock({ ...clock, commits: 'x' } as never, '2026-11-28T08:00:00Z')).toEqual({ files: 1, requests: 0, commits: 0 })
  })
})
