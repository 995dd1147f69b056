import { describe, expect, it } from 'vitest'
import { extractText } from '../../test/helpers/extract.js'
import { META as SNAPSHOT_META, SESSION, error, file } from '../../test/helpers/snapshot.js'
import { createState } from '../extract/extract.js'
import type { GitRecord } from '../extract/model.js'
import { type Snapshot, type SnapshotMeta, toSnapshot } from './model.js'
import { fileLine, gitLine, renderLatest, renderTrails } from './render.js'

/** The shared meta, with a short id for the rendered lines. */
const META: SnapshotMeta = { ...SNAPSHOT_META, id: 'SNAP_1' }

/** An empty snapshot with some fields set. */
const snap = (over: Partial<Snapshot> = {}): Snapshot => ({ ...toSnapshot(createState(), META), ...over })

/** The lines of the section headed `heading`, up to the next heading. */
function section(md: string, heading: string): string[] {
  const lines = md.split('\n')
  const at = lines.indexOf(heading)
  if (at < 0) return []
  const next = lines.findIndex((l, i) => i > at && l.startsWith('## '))
  return lines.slice(at, next < 0 ? undefined : next)
}

const headings = (md: string) => md.split('\n').filter((l) => l.startsWith('#'))

describe('renderLatest of a small session', () => {
  it('renders every section it has, exactly', () => {
    const { state } = extractText(SESSION)
    expect(renderLatest(toSnapshot(state, META)).split('\n')).toEqual([
      '# Bookmark: proj',
      '',
      'Snapshot `SNAP_1` (stop) of session `sess-1` on `main`, captured 2026-11-28 10:00:00 UTC.',
      '',
      '## Current task',
      '',
      '> Add a parser for the config file please',
      '',
      '## Latest message from the user',
      '',
      '> yes',
      '',
      '## Open tasks (2 of 3)',
      '',
      '- [~] test parser (in progress)',
      '- [ ] docs',
      '',
      '## Files changed (2)',
      '',
      '- `src/b.ts` modified +2 -1',
      '- `src/a.ts` created +2 -0 — +fn parse',
      '',
      '## Outside the project (1)',
      '',
      '- `/tmp/notes.md` created +1 -0',
      '',
      '## Unresolved errors (1)',
      '',
      '- Bash `npm test`: FAIL src/a.test.ts',
      '',
      '## Last assistant message',
      '',
      '> Done with the parser.',
      '',
      '## Tools',
      '',
      'Write 2, Bash 1, Edit 1, TodoWrite 1',
      '',
      '## Session',
      '',
      'models: claude-sonnet-4-5; 2 requests.',
      'Transcript: `/t.jsonl`',
      '',
    ])
  })
})

describe('renderLatest of an empty snapshot', () => {
  it('says what is missing and leaves out the empty sections', () => {
    expect(renderLatest(snap())).toBe(
      [
        '# Bookmark: proj',
        '',
        'Snapshot `SNAP_1` (stop) of session `sess-1`, captured 2026-11-28 10:00:00 UTC.',
        '',
        '## Current task',
        '',
        '_No request from the user was recorded._',
        '',
        '## Files changed (0)',
        '',
        '_No file inside the project was changed._',
        '',
        '## Session',
        '',
        '0 requests.',
        'Transcript: `/t.jsonl`',
        '',
      ].join('\n'),
    )
  })
})

describe('renderLatest: header and requests', () => {
  it('shows the title on one line, and a time without milliseconds', () => {
    const md = renderLatest(snap({ createdAt: '2026-01-02T03:04:05Z', session: { id: 's', title: 'Fix\n  the   parser', versions: [], models: {} } }))
    expect(md.split('\n').slice(2, 4)).toEqual(['Snapshot `SNAP_1` (stop) of session `s`, captured 2026-01-02 03:04:05 UTC.', 'Session title: Fix the parser'])
  })

  it('lists up to four earlier requests, not the task, oldest first, with their times', () => {
    const texts = ['one is the first', 'the actual task here', 'three comes next', 'four after', 'five after', 'six after', 'latest words']
    const recent = texts.map((text, i) => ({ line: i, text, ...(i === 4 ? {} : { ts: `2026-11-28T09:0${i}:00.000Z` }) }))
    const md = renderLatest(snap({ task: 'the actual task here', requests: { count: 7, dropped: 0, all: recent, recent } }))
    expect(section(md, '## Latest message from the user')).toEqual(['## Latest message from the user', '', '> latest words', ''])
    expect(section(md, '## Earlier requests')).toEqual([
      '## Earlier requests',
      '',
      '- 2026-11-28 09:02:00 UTC: three comes next',
      '- 2026-11-28 09:03:00 UTC: four after',
      '- time unknown: five after',
      '- 2026-11-28 09:05:00 UTC: six after',
      '',
    ])
    expect(md).toContain('\n7 requests.\n')
  })

  it('has no "latest message" when the latest request is the task', () => {
    const recent = [{ line: 1, text: 'refactor the store module' }]
    const md = renderLatest(snap({ task: 'refactor the store module', requests: { count: 1, dropped: 0, all: recent, recent } }))
    expect(headings(md)).toEqual(['# Bookmark: proj', '## Current task', '## Files changed (0)', '## Session'])
    expect(md).toContain('\n1 request.\n')
  })

  it('quotes a long task to twenty lines, and marks the rest', () => {
    const task = Array.from({ length: 25 }, (_, i) => `line ${i + 1}`).join('\n')
    const lines = section(renderLatest(snap({ task })), '## Current task')
    expect(lines.slice(2, 4)).toEqual(['> line 1', '> line 2'])
    expect(lines.slice(20, 24)).toEqual(['> line 19', '> line 20', '> …', ''])
  })

  it('cuts a very long one-line task at 2,000 characters', () => {
    const lines = section(renderLatest(snap({ task: 'a'.repeat(3_000) })), '## Current task')
    expect(lines[2]).toBe(`> ${'a'.repeat(1_999)}…`)
  })

  it('keeps blank lines of a quote as a bare ">"', () => {
    expect(section(renderLatest(snap({ task: 'first part\n\nsecond part' })), '## Current task')).toEqual([
      '## Current task',
      '',
      '> first part',
      '>',
      '> second part',
      '',
    ])
  })
})

describe('renderLatest: tasks', () => {
  it('numbers TaskCreate tasks and leaves out the completed ones', () => {
    const md = renderLatest(
      snap({
        tasks: {
          source: 'TaskCreate',
          items: [
            { id: '1', text: 'done already', status: 'completed' },
            { id: '2', text: 'doing  now', status: 'in_progress' },
            { id: '3', text: 'later', status: 'pending' },
          ],
        },
      }),
    )
    expect(section(md, '## Open tasks (2 of 3)')).toEqual(['## Open tasks (2 of 3)', '', '- [~] #2 doing now (in progress)', '- [ ] #3 later', ''])
  })

  it('says when all tasks are completed', () => {
    const md = renderLatest(snap({ tasks: { source: 'TodoWrite', items: [{ text: 'x', status: 'completed' }] } }))
    expect(section(md, '## Open tasks (0 of 1)')).toEqual(['## Open tasks (0 of 1)', '', '_All tasks are completed._', ''])
  })

  it('has no tasks section for an empty list', () => {
    expect(renderLatest(snap({ tasks: { source: 'TodoWrite', items: [] } }))).not.toContain('## Open tasks')
  })
})

describe('renderLatest: files', () => {
  it('renders moves, counts, hints and subagent files on one line each', () => {
    expect(fileLine(file('src/new.ts', { op: 'moved', from: 'src/old.ts' }))).toBe('- `src/new.ts` moved (from src/old.ts)')
    expect(fileLine(file('a.ts', { added: 0, removed: 3 }))).toBe('- `a.ts` modified +0 -3')
    expect(fileLine(file('a.ts', { hints: ['+fn a', '-class B'] }))).toBe('- `a.ts` modified — +fn a, -class B')
    expect(fileLine(file('a.ts', { op: 'deleted', subagent: true }))).toBe('- `a.ts` deleted [subagent]')
  })

  it('shows twenty outside files and counts the rest', () => {
    const outsideFiles = Array.from({ length: 23 }, (_, i) => file(`/tmp/f${i}`))
    const lines = section(renderLatest(snap({ outsideFiles })), '## Outside the project (23)')
    expect(lines).toHaveLength(2 + 20 + 2)
    expect(lines[2]).toBe('- `/tmp/f0` modified')
    expect(lines[21]).toBe('- `/tmp/f19` modified')
    expect(lines[22]).toBe('- … and 3 more')
  })
})

describe('renderLatest: git, errors, plan, tools', () => {
  it.each([
    [{ kind: 'commit', message: 'fix:  the\nparser', hash: 'abc1234', branch: 'main' }, '- commit `abc1234` on main: fix: the parser'],
    [{ kind: 'commit', message: 'wip' }, '- commit wip'],
    [{ kind: 'branch', to: 'feat/x', created: true }, '- created branch `feat/x`'],
    [{ kind: 'branch', to: 'main', created: false }, '- switched to `main`'],
    [{ kind: 'push', remote: 'origin', branch: 'main', ok: true }, '- push to origin main'],
    [{ kind: 'push', ok: false }, '- push (failed)'],
    [{ kind: 'rebase', detail: 'onto main' }, '- rebase onto main'],
  ] as const)('renders %j', (event, line) => {
    expect(gitLine({ event } as GitRecord)).toBe(line)
  })

  it('shows the last fifteen git events', () => {
    const git = Array.from({ length: 17 }, (_, i) => ({ event: { kind: 'commit', message: `c${i}` } }) as GitRecord)
    const lines = section(renderLatest(snap({ git })), '## Git activity')
    expect(lines.slice(2, -1)).toEqual(Array.from({ length: 15 }, (_, i) => `- commit c${i + 2}`))
  })

  it('counts only unresolved errors and shows the last ten', () => {
    const errors = [error('fixed later', { resolved: true }), ...Array.from({ length: 12 }, (_, i) => error(`e${i}`, { target: i === 11 ? '' : 'npm test' }))]
    const lines = section(renderLatest(snap({ errors })), '## Unresolved errors (12)')
    expect(lines).toHaveLength(2 + 10 + 1)
    expect(lines[2]).toBe('- Bash `npm test`: e2')
    expect(lines[11]).toBe('- Bash: e11') // no target, no backticks
  })

  it('has no errors section when every error was resolved', () => {
    expect(renderLatest(snap({ errors: [error('gone', { resolved: true })] }))).not.toContain('errors')
  })

  it('quotes the latest plan, saying when it was not approved', () => {
    const md = renderLatest(
      snap({
        plans: [
          { text: 'old plan', approved: true },
          { text: 'Step 1\nStep 2', approved: false },
        ],
      }),
    )
    expect(section(md, '## Latest plan (not approved)')).toEqual(['## Latest plan (not approved)', '', '> Step 1', '> Step 2', ''])
    expect(renderLatest(snap({ plans: [{ text: 'p' }] }))).toContain('\n## Latest plan\n\n> p\n')
  })

  it('quotes the last assistant message from the hook like one from the transcript', () => {
    const md = renderLatest(snap({ lastAssistant: { text: 'All done.', source: 'hook' } }))
    expect(section(md, '## Last assistant message')).toEqual(['## Last assistant message', '', '> All done.', ''])
  })
})

describe('renderLatest: the session line and its plurals', () => {
  const sessionLine = (over: Partial<Snapshot>) => section(renderLatest(snap(over)), '## Session')[2]
  const sub = { description: 'explore', type: 'Explore' }

  it.each([
    [{}, '0 requests.'],
    [{ compactions: [{}] }, '1 compaction; 0 requests.'],
    [{ compactions: [{}, {}] }, '2 compactions; 0 requests.'],
    [{ microcompactions: 1 }, '1 microcompaction; 0 requests.'],
    [{ microcompactions: 3 }, '3 microcompactions; 0 requests.'],
    [{ subagents: [sub] }, '1 subagent; 0 requests.'],
    [{ subagents: [sub, sub] }, '2 subagents; 0 requests.'],
  ] as [Partial<Snapshot>, string][])('%j -> %s', (over, line) => {
    expect(sessionLine(over)).toBe(line)
  })

  it('joins every note, models and requests last', () => {
    const s = snap({ compactions: [{}, {}], microcompactions: 1, subagents: [sub] })
    s.session.models = { 'claude-opus-4-1': 3, 'claude-haiku-4-5': 1 }
    s.requests = { ...s.requests, count: 1 }
    expect(section(renderLatest(s), '## Session')[2]).toBe(
      '2 compactions; 1 microcompaction; 1 subagent; models: claude-opus-4-1, claude-haiku-4-5; 1 request.',
    )
  })

  it('says when subagent activity was left out', () => {
    const s = snap({ subagents: [sub] })
    s.capture = { ...s.capture, subagentsLeftOut: true }
    expect(section(renderLatest(s), '## Session')[2]).toBe('1 subagent (their activity is not captured: `subagents` is 0); 0 requests.')
  })
})

describe('renderTrails', () => {
  it('lists files by their newest change, each change newest first', () => {
    const entry = (ts: string, op: string, more: object = {}) => ({
      ts,
      snapshot: `SNAP_${ts.slice(11, 13)}`,
      session: '0123456789abcdef',
      op,
      added: 0,
      removed: 0,
      hints: [],
      ...more,
    })
    const md = renderTrails('proj', {
      version: 1,
      files: {
        'old.ts': [entry('2026-11-28T08:00:00.000Z', 'created')],
        'b.ts': [entry('2026-11-28T10:00:00.000Z', 'modified', { added: 2, removed: 1, hints: ['+fn b'] }), entry('2026-11-28T07:00:00.000Z', 'created')],
        'a.ts': [entry('2026-11-28T10:00:00.000Z', 'deleted')],
      },
    })
    expect(md.split('\n')).toEqual([
      '# File trail: proj',
      '',
      'Every captured change per file, newest first.',
      '',
      '## a.ts',
      '',
      '- 2026-11-28 10:00:00 UTC `SNAP_10` session `01234567`: deleted',
      '',
      '## b.ts',
      '',
      '- 2026-11-28 10:00:00 UTC `SNAP_10` session `01234567`: modified +2 -1 — +fn b',
      '- 2026-11-28 07:00:00 UTC `SNAP_07` session `01234567`: created',
      '',
      '## old.ts',
      '',
      '- 2026-11-28 08:00:00 UTC `SNAP_08` session `01234567`: created',
      '',
    ])
  })

  it('is only the header for no files', () => {
    expect(renderTrails('p', { version: 1, files: {} })).toBe('# File trail: p\n\nEvery captured change per file, newest first.\n')
  })
})
