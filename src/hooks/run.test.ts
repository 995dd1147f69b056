import { claudeHost } from '../hosts/claude/host.js'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { testDeps } from '../../test/helpers/deps.js'
import type { StdinResult } from '../cli/stdin.js'
import { HOOK_LOCK_BUDGET_MS } from '../shared/deps.js'
import { type HookBody, type HookContext, type HookFlags, envDisables, runHook } from './run.js'

const input = (text: string, more: Partial<StdinResult> = {}): (() => Promise<StdinResult>) => {
  return () => Promise.resolve({ text, truncated: false, timedOut: false, ...more })
}

/** A temp home with an empty project folder, and a body that records the context it was given. */
async function setup(env: NodeJS.ProcessEnv = {}) {
  const deps = await testDeps()
  deps.env = { ...deps.env, ...env }
  const proj = join(deps.dir, 'proj')
  mkdirSync(proj)
  const seen: HookContext[] = []
  const body =
    (out: unknown): HookBody =>
    (ctx) => {
      seen.push(ctx)
      return Promise.resolve(out)
    }
  const run = (b: HookBody, text: string, flags: HookFlags = {}, more: Partial<StdinResult> = {}) => runHook(claudeHost, 'stop', b, flags, deps, input(text, more), proj)
  return { deps, proj, seen, body, run }
}

describe('envDisables', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['1', true],
    ['true', true],
    [' YES ', true],
    ['on', true],
    ['0', false],
    ['off', false],
    ['maybe', false],
    ['2', false],
  ])('BOOKMARK_DISABLE=%j: %s', (raw, off) => {
    expect(envDisables(raw === undefined ? {} : { BOOKMARK_DISABLE: raw })).toBe(off)
  })
})

describe('runHook: BOOKMARK_DISABLE', () => {
  it.each(['1', 'true', 'yes'])('%j: empty output, and neither stdin nor the body is touched', async (v) => {
    const { deps, proj } = await setup({ BOOKMARK_DISABLE: v })
    let read = 0
    let ran = 0
    const r = await runHook(claudeHost, 'stop',
      () => {
        ran++
        return Promise.resolve({ decision: 'block' })
      },
      {},
      deps,
      () => {
        read++
        return Promise.reject(new Error('stdin must not be read'))
      },
      proj,
    )
    expect(r).toEqual({ stdout: '', notes: [] })
    expect([read, ran]).toEqual([0, 0])
    expect(existsSync(deps.bookmarkHome)).toBe(false)
  })

  it('"0" runs the hook as usual', async () => {
    const { run, body, seen } = await setup({ BOOKMARK_DISABLE: '0' })
    expect(await run(body({ ok: 1 }), '{}')).toEqual({ stdout: '{"ok":1}', notes: [] })
    expect(seen).toHaveLength(1)
  })

  it('a value it cannot read runs the hook and says so in a note', async () => {
    const { run, body, seen } = await setup({ BOOKMARK_DISABLE: 'maybe' })
    const r = await run(body(undefined), '{}')
    expect(seen).toHaveLength(1)
    expect(r.stdout).toBe('')
    expect(r.notes).toEqual(['environment: disable must be 0 or 1 (or on/off, yes/no, true/false), got "maybe"; using 0'])
  })

  it('capture switched off in the global config: silent, no notes, body not run', async () => {
    const { run, body, seen, deps } = await setup()
    mkdirSync(deps.bookmarkHome, { recursive: true })
    writeFileSync(join(deps.bookmarkHome, 'config.json'), JSON.stringify({ version: 1, values: { disable: 1 } }))
    expect(await run(body({ x: 1 }), 'not json at all', {}, { timedOut: true })).toEqual({ stdout: '', notes: [] })
    expect(seen).toEqual([])
  })
})

describe('runHook: the HookRun it returns', () => {
  it('stdout is the body’s value as one line of JSON', async () => {
    const { run, body } = await setup()
    const out = { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'two\nlines' } }
    const r = await run(body(out), JSON.stringify({ session_id: 's1' }))
    expect(r).toEqual({ stdout: JSON.stringify(out), notes: [] })
    expect(r.stdout).not.toContain('\n')
  })

  it('a body that returns undefined prints nothing', async () => {
    const { run, body } = await setup()
    expect(await run(body(undefined), '{}')).toEqual({ stdout: '', notes: [] })
  })

  it('the body gets the host, its event, cwd, session, transcript, home scope, the clock and a project', async () => {
    const { run, body, seen, proj } = await setup()
    const payload = { session_id: 'abc', transcript_path: '/t/abc.jsonl', cwd: proj, hook_event_name: 'Stop', stop_hook_active: true, extra: 1 }
    await run(body(undefined), JSON.stringify(payload))
    const ctx = seen[0]!
    expect(ctx.event).toEqual({ sessionId: 'abc', transcript: '/t/abc.jsonl', cwd: proj, eventName: 'Stop', stopHookActive: true })
    expect(ctx.host.id).toBe('claude')
    expect([ctx.cwd, ctx.sessionId, ctx.transcript, ctx.homeScope]).toEqual([proj, 'abc', '/t/abc.jsonl', false])
    expect(ctx.cfg.projectRoot).toBe(proj)
    // testDeps' clock starts at 10:00:00 and steps 1 s per call
    expect(ctx.now.toISOString()).toMatch(/^2026-11-28T10:00:\d\d\.000Z$/)
  })

  it('flags win over the payload; the fallback cwd is used when neither names one', async () => {
    const { run, body, seen, proj, deps } = await setup()
    const other = join(deps.dir, 'other')
    mkdirSync(other)
    await run(body(undefined), JSON.stringify({ session_id: 'p', transcript_path: '/p.jsonl', cwd: proj }), {
      cwd: other,
      sessionId: 'f',
      transcript: '/f.jsonl',
    })
    await run(body(undefined), JSON.stringify({ session_id: 'p' }))
    expect(seen.map((c) => [c.cwd, c.sessionId, c.transcript])).toEqual([
      [other, 'f', '/f.jsonl'],
      [proj, 'p', undefined],
    ])
    expect('transcript' in seen[1]!).toBe(false)
  })

  it('the home folder is home scope', async () => {
    const { run, body, seen, deps } = await setup()
    mkdirSync(deps.env.HOME!, { recursive: true })
    await run(body(undefined), JSON.stringify({ cwd: deps.env.HOME }))
    expect(seen[0]!.homeScope).toBe(true)
  })

  it('the body’s deps carry a lock deadline of about 1.4 s from the start, or the one given', async () => {
    const { run, body, seen, deps, proj } = await setup()
    const t0 = Date.now()
    await run(body(undefined), '{}')
    const t1 = Date.now()
    expect(seen[0]!.deps.lockDeadline).toBeGreaterThanOrEqual(t0 + HOOK_LOCK_BUDGET_MS)
    expect(seen[0]!.deps.lockDeadline).toBeLessThanOrEqual(t1 + HOOK_LOCK_BUDGET_MS)
    await runHook(claudeHost, 'stop', body(undefined), {}, { ...deps, lockDeadline: 42 }, input('{}'), proj)
    expect(seen[1]!.deps.lockDeadline).toBe(42)
  })
})

describe('runHook: stdin', () => {
  it('a payload that is not JSON: a note saying why (no payload text in it), and the body still runs', async () => {
    const { run, body, seen, proj } = await setup()
    const text = 'sk-ant-secret-token'
    expect(await run(body({ ok: true }), text)).toEqual({
      stdout: '{"ok":true}',
      notes: [`hook payload is not JSON (${text.length} characters; it does not start with {)`],
    })
    const inside = await run(body(undefined), '{"a": 1, x}')
    expect(inside.notes).toEqual(['hook payload is not JSON (11 characters; invalid at character 10)'])
    expect([...inside.notes, ...(await run(body(undefined), text)).notes].join(' ')).not.toContain('sk-ant')
    expect(seen[0]!.event).toEqual({})
    expect(seen[0]!.cwd).toBe(proj)
  })

  it('a broken payload: the plain fields are salvaged for the body', async () => {
    const { run, body, seen, proj } = await setup()
    const text = `{"session_id": "s9", "cwd": ${JSON.stringify(proj)}, "transcript_path": "/x/s9.jsonl"`
    const r = await run(body(undefined), text)
    expect(r.notes).toEqual([`hook payload is not JSON (${text.length} characters; it ends before its JSON does)`])
    expect(seen[0]!.event).toEqual({ sessionId: 's9', cwd: proj, transcript: '/x/s9.jsonl' })
    expect(seen[0]!.sessionId).toBe('s9')
  })

  it('a truncated payload says so', async () => {
    const { run, body } = await setup()
    expect((await run(body(undefined), '{"session_id": "s1", "prompt": "aaaa', {}, { truncated: true })).notes).toEqual([
      'hook payload too large: only its head was read',
    ])
  })

  it('JSON that is not an object, and fields of the wrong type', async () => {
    const { run, body } = await setup()
    expect((await run(body(undefined), '[1,2]')).notes).toEqual(['hook payload is not a JSON object: got an array'])
    expect((await run(body(undefined), '{"session_id": 7, "stop_hook_active": "yes"}')).notes).toEqual([
      'payload field session_id ignored: expected a string, got number',
      'payload field stop_hook_active ignored: expected a boolean',
    ])
  })

  it('stdin that timed out: a note, and the hook goes on with what it read', async () => {
    const { run, body, seen } = await setup()
    expect(await run(body({ a: 1 }), '{"session_id": "s2"}', {}, { timedOut: true })).toEqual({
      stdout: '{"a":1}',
      notes: ['stdin stayed open with no end: went on without waiting'],
    })
    expect(seen[0]!.sessionId).toBe('s2')
  })

  it('timed out with nothing read: both notes, in that order', async () => {
    const { run, body } = await setup()
    expect((await run(body(undefined), '', {}, { timedOut: true })).notes).toEqual([
      'stdin stayed open with no end: went on without waiting',
      'empty hook payload on stdin',
    ])
  })

  it('an empty payload is not worth a note when --cwd or --transcript stand in for it', async () => {
    const { run, body, proj } = await setup()
    expect((await run(body(undefined), '  \n')).notes).toEqual(['empty hook payload on stdin'])
    expect((await run(body(undefined), '', { cwd: proj })).notes).toEqual([])
    expect((await run(body(undefined), '', { transcript: '/t/x.jsonl' })).notes).toEqual([])
    expect((await run(body(undefined), '', { sessionId: 'x' })).notes).toEqual(['empty hook payload on stdin'])
  })
})

describe('runHook: failures never escape', () => {
  it('a body that throws: nothing on stdout, one note naming the hook', async () => {
    const { deps, proj } = await setup()
    const r = await runHook(claudeHost, 'precompact', () => Promise.reject(new Error('disk full')), {}, deps, input('{}'), proj)
    expect(r).toEqual({ stdout: '', notes: ['precompact hook failed: disk full'] })
    // no store yet: the failure is not logged into a folder made for it
    expect(existsSync(deps.bookmarkHome)).toBe(false)
  })

  it('a body that throws synchronously is caught the same way, after the notes gathered so far', async () => {
    const { run } = await setup()
    const r = await run(
      () => {
        throw new Error('sync boom')
      },
      '',
      {},
      { timedOut: true },
    )
    expect(r).toEqual({
      stdout: '',
      notes: ['stdin stayed open with no end: went on without waiting', 'empty hook payload on stdin', 'stop hook failed: sync boom'],
    })
  })

  it('a failure is appended to the home errors.log when the bookmark home exists, whitespace folded', async () => {
    const { deps, proj } = await setup()
    mkdirSync(deps.bookmarkHome, { recursive: true })
    const r = await runHook(claudeHost, 'stop', () => Promise.reject(new Error('line one\n  line two')), {}, deps, input('{}'), proj)
    expect(r).toEqual({ stdout: '', notes: ['stop hook failed: line one\n  line two'] })
    // testDeps' clock: 10:00:01 for the context, 10:00:02 for the log line
    expect(readFileSync(join(deps.bookmarkHome, 'errors.log'), 'utf8')).toBe('2026-11-28T10:00:02.000Z stop hook failed: line one line two\n')
  })

  it('a body that rejects with null or undefined is caught too (nothing escapes runHook)', async () => {
    const { deps, proj } = await setup()
    for (const thrown of [null, undefined]) {
      const r = await runHook(claudeHost, 'stop', () => Promise.reject(thrown), {}, deps, () => Promise.resolve({ text: '', truncated: false, timedOut: false }), proj)
      expect(r).toEqual({ stdout: '', notes: ['empty hook payload on stdin', `stop hook failed: ${String(thrown)}`] })
    }
  })

  it('a readInput that rejects is a failure of the hook, not of the process', async () => {
    const { deps, proj } = await setup()
    const r = await runHook(claudeHost, 'check', body0, {}, deps, () => Promise.reject(new Error('EIO: i/o error, read')), proj)
    expect(r).toEqual({ stdout: '', notes: ['check hook failed: EIO: i/o error, read'] })
  })

  it('a working directory that does not exist: a note, the body is not run', async () => {
    const { run, body, seen, deps } = await setup()
    const gone = join(deps.dir, 'gone')
    expect(await run(body({ x: 1 }), JSON.stringify({ cwd: gone }))).toEqual({
      stdout: '',
      notes: [`working directory ${gone} does not exist: nothing to do`],
    })
    expect(seen).toEqual([])
  })

  it('configuration problems are passed on as notes, after the payload notes', async () => {
    const { run, body, seen } = await setup({ BOOKMARK_INTERVAL: 'soon' })
    const r = await run(body(undefined), '{"session_id": 3}')
    expect(seen).toHaveLength(1)
    expect(r.notes).toEqual([
      'payload field session_id ignored: expected a string, got number',
      'environment: interval must be a whole number (minutes) from 1 to 1440, got "soon"; using 5',
    ])
  })
})

const body0: HookBody = () => Promise.resolve(undefined)
