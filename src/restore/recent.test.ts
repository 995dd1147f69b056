import { describe, expect, it } from 'vitest'
import { BASE, NARRATIVE, commit, file, requests, snap, task } from '../../test/helpers/restore.js'
import { didWork, sinceText, workAfter } from './recent.js'
import { renderStartup } from './render.js'

const QA = snap({
  id: 'SNAP_20261129_200000_000_qqqq',
  session: { id: 'qqqqqqqq-0000-0000-0000-000000000003', versions: [], models: {} },
  requests: requests('What does the bookmark store say?'),
  task: 'What does the bookmark store say?',
  lastAssistant: { text: 'It holds one snapshot per capture.', source: 'transcript' },
})
const WORK = snap({
  id: 'SNAP_20261129_183000_000_wwww',
  createdAt: '2026-11-29T18:30:00.000Z',
  session: { id: 'wwwwwwww-0000-0000-0000-000000000001', branch: 'feature/export-csv', versions: [], models: {} },
  files: [
    file('src/export/csv.ts', { op: 'created', added: 40, removed: 0, lastTs: '2026-11-29T18:20:00Z' }),
    file('src/cli.ts', { lastTs: '2026-11-29T18:25:00Z' }),
  ],
  git: [{ ts: '2026-11-29T18:28:00Z', event: { kind: 'commit', hash: '3f9c2a1aaaa', message: 'Add CSV exporter\n\nlong body' } }],
  tasks: { source: 'TaskCreate', items: [task('1', 'Write exporter', 'completed'), task('2', 'Quote fields', 'in_progress')] },
})

describe('didWork', () => {
  it.each([
    ['a Q&A session', QA, false],
    ['changed files', snap({ files: [file('a.ts')] }), true],
    ['a commit only', snap({ git: [commit('abc1234', 'x')] }), true],
    ['a push only', snap({ git: [{ event: { kind: 'push', ok: true } }] }), false],
    ['an open task only', snap({ tasks: { source: 'TaskCreate', items: [task('1', 'x', 'pending')] } }), true],
    ['only completed tasks', snap({ tasks: { source: 'TaskCreate', items: [task('1', 'x', 'completed')] } }), false],
  ])('%s: %s', (_n, s, want) => expect(didWork(s)).toBe(want))
})

describe('workAfter and sinceText', () => {
  it('counts commits and changed files after the time, each path once across snapshots', () => {
    const later = snap({ files: [file('src/cli.ts', { lastTs: '2026-11-29T19:00:00Z' }), file('old.ts', { lastTs: '2026-11-29T10:00:00Z' })] })
    const a = workAfter('2026-11-29T18:00:00Z', [WORK, later])
    expect(a).toEqual({ commits: 1, files: 2 })
    expect(sinceText(a)).toBe('1 commit and 2 file changes')
    expect(sinceText(workAfter('2026-11-29T18:22:00Z', [WORK]))).toBe('1 commit and 1 file change')
    expect(sinceText(workAfter('2026-11-29T18:29:00Z', [WORK]))).toBeUndefined()
    expect(workAfter(undefined, [WORK])).toEqual({ commits: 0, files: 0 })
  })

  it('a HEAD that moved on the same branch without a recorded commit', () => {
    expect(sinceText(workAfter('2026-11-29T18:29:00Z', [WORK], { then: '1111111', now: '2222222abc', sameBranch: true }))).toBe('a move of HEAD to 2222222')
    // an abbreviated sha of the same commit, or another branch (the identity note says that), is no move
    expect(workAfter('2026-11-29T18:29:00Z', [WORK], { then: '2222222', now: '2222222abc', sameBranch: true }).headMovedTo).toBeUndefined()
    expect(workAfter('2026-11-29T18:29:00Z', [WORK], { then: '1111111', now: '2222222', sameBranch: false }).headMovedTo).toBeUndefined()
    // a recorded commit already says why it moved
    expect(sinceText(workAfter('2026-11-29T18:00:00Z', [WORK], { then: '1111111', now: '3f9c2a1', sameBranch: true }))).toBe('1 commit and 2 file changes')
  })
})

describe('renderStartup with earlier work and a handoff older than the work', () => {
  it("a session that did no work: the latest as it is, then the earlier session's files, commit and open tasks, labelled", () => {
    const text = renderStartup({ ...BASE, snapshot: QA, earlier: WORK })
    expect(text).toContain('## Latest request\n\n```recorded\nWhat does the bookmark store say?\n```')
    expect(text).toContain(
      [
        '## Earlier work: session `wwwwwwww` on branch `feature/export-csv`, last capture 2026-11-29 18:30:00 UTC (the latest session left no changes)',
        '',
        '```recorded',
        '- commit 3f9c2a1 Add CSV exporter',
        '- [~] #2 Quote fields (in progress)',
        '- src/export/csv.ts created +40 -0',
        '- src/cli.ts modified +3 -1',
        '```',
      ].join('\n'),
    )
  })

  it('a handoff older than the work: the facts first, the handoff last and labelled with what came after it', () => {
    const n = { ...NARRATIVE, body: '## Where I stopped\n\nNothing committed yet; review `src/export/csv.ts`, then commit.' }
    const text = renderStartup({ ...BASE, snapshot: WORK, narrative: n, narrativeSince: '1 commit and 2 file changes' })
    const title = '## Handoff notes from the last session (written before 1 commit and 2 file changes that came after it)'
    expect(text).toContain(`${title}\n\n\`\`\`recorded\n### Where I stopped\n\nNothing committed yet;`)
    expect(text.indexOf('## Last commit')).toBeGreaterThan(0)
    expect(text.indexOf('## Last commit')).toBeLessThan(text.indexOf(title))
    // the file the handoff names is listed all the same: the handoff may be the first thing cut
    expect(text).toContain('- `src/export/csv.ts` created +40 -0')
    // under a tight budget the handoff goes before the facts
    const tight = renderStartup({ ...BASE, snapshot: WORK, narrative: n, narrativeSince: '1 commit', budget: 900 })
    expect(tight).toContain('## Last commit')
    expect(tight).not.toContain('Nothing committed yet')
  })

  it('a handoff with nothing after it stays first and hides what it names', () => {
    const text = renderStartup({ ...BASE, snapshot: WORK, narrative: NARRATIVE })
    expect(text.indexOf('## Handoff notes from the last session\n')).toBeLessThan(text.indexOf('## Last commit'))
    expect(text).not.toContain('- `src/export/csv.ts` created')
  })
})
