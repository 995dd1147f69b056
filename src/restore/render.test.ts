import { describe, expect, it } from 'vitest'
import { BASE, NARRATIVE, NOTE, RICH, commit, error, file, files, requests, snap, task } from '../../test/helpers/restore.js'
import type { Snapshot } from '../snapshot/model.js'
import { renderRefusal, renderResumeNote, renderStartup } from './render.js'

const lines = (text: string): string[] => text.split('\n')

describe('renderStartup', () => {
  it('narrative, then the facts it does not state, then the pointer to the full record', () => {
    expect(renderStartup({ ...BASE, snapshot: RICH, narrative: NARRATIVE })).toBe(
      [
        '# Bookmark: continuing work in `acme-notes`',
        'Project root: `/home/dev/acme-notes`.',
        'Last capture: 2026-11-29 20:00:00 UTC, session `5e551011` on branch `feature/export-csv`, snapshot `SNAP_20261129_200000_000_abcd`.',
        NOTE,
        '',
        '## Handoff notes from the last session',
        '',
        '```recorded',
        '### Where I stopped',
        '',
        'The exporter in `src/export/csv.ts` works.',
        'Next: quote fields that contain commas.',
        '```',
        '',
        '## Latest request',
        '',
        '```recorded',
        'Add CSV export to the notes list, with a header row and quoted fields',
        '',
        'yes, and make the tests pass',
        '```',
        '',
        '## Open tasks (2 of 3)',
        '',
        '```recorded',
        '- [~] #2 Quote fields with commas (in progress)',
        '- [ ] #3 Add CLI flag --csv',
        '```',
        '',
        '## Files changed (2, 1 named above)',
        '',
        '```recorded',
        '- `src/cli.ts` modified +3 -1',
        '```',
        '',
        '## Last commit',
        '',
        '```recorded',
        '- commit `3f9c2a1` on feature/export-csv: Add CSV exporter',
        '```',
        '',
        '## Unresolved errors (1)',
        '',
        '```recorded',
        '- Bash `npm test`: 1 failing test: quotes commas',
        '```',
        '',
        '## Last assistant message',
        '',
        '```recorded',
        'The exporter works; quoting of commas is next.',
        '```',
        '',
        'Full record: `/home/dev/acme-notes/.bookmark/bookmark.context.md` and `/home/dev/acme-notes/.bookmark/LATEST.md` (`bookmark show`).',
      ].join('\n'),
    )
  })

  it('without a narrative the facts make the whole text and the foot names LATEST.md only', () => {
    const text = renderStartup({ ...BASE, snapshot: RICH })
    expect(text).not.toContain('Handoff notes')
    expect(text).toContain('## Files changed (2)\n\n```recorded\n- `src/export/csv.ts` created +40 -0 — +fn toCsv\n- `src/cli.ts` modified +3 -1\n```')
    expect(lines(text).at(-1)).toBe('Full record: `/home/dev/acme-notes/.bookmark/LATEST.md` (`bookmark show`).')
  })

  it("warnings: the caller's, then the stale warning, then the identity notes, one line each, deduplicated", () => {
    const text = renderStartup({
      ...BASE,
      snapshot: RICH,
      warnings: ['A foreign narrative was not loaded.', 'A foreign narrative was not loaded.'],
      narrative: { ...NARRATIVE, staleWarning: 'The handoff is 30 hours\nold.', notes: ['Written on branch a, now on b.'] },
    })
    expect(lines(text).slice(4, 7)).toEqual(['- A foreign narrative was not loaded.', '- The handoff is 30 hours old.', '- Written on branch a, now on b.'])
  })

  const facts: Array<{ name: string; snapshot: Snapshot; body?: string; has: string[]; hasNot: string[] }> = [
    {
      name: 'a request already in the narrative (first 60 characters, any spacing or case) is not repeated',
      snapshot: snap({
        task: 'Add CSV export to the notes list, with a header row and quoted fields',
        requests: requests('Add CSV export to the notes list, with a header row and quoted fields'),
      }),
      body: 'We were asked to ADD CSV export to the notes\nlist, with a header row and quoted fields.',
      has: [],
      hasNot: ['## Latest request'],
    },
    {
      name: 'a short request is repeated even when its words appear',
      snapshot: snap({ task: 'fix it', requests: requests('fix it') }),
      body: 'I will fix it tomorrow.',
      has: ['## Latest request\n\n```recorded\nfix it\n```'],
      hasNot: [],
    },
    {
      name: 'the same task and latest request are shown once, without labels',
      snapshot: snap({ task: 'Rename the export module', requests: requests('Rename the export module') }),
      has: ['## Latest request\n\n```recorded\nRename the export module\n```'],
      hasNot: ["## The goal, in the user's words", '\n\nRename the export module'],
    },
    {
      name: 'a file named as a whole token (even before a full stop) is covered; a longer path containing it is not',
      snapshot: snap({ files: [file('a.ts', { lastLine: 3 }), file('src/b.ts', { lastLine: 2 }), file('c.ts', { lastLine: 1 })] }),
      body: 'Changed src/a.ts and `src/b.ts`; also data.ts and c.ts.',
      has: ['## Files changed (3, 2 named above)\n\n```recorded\n- `a.ts` modified +3 -1\n```\n\n'],
      hasNot: ['`src/b.ts` modified', '`c.ts` modified'],
    },
    {
      name: 'all files named: no files section',
      snapshot: snap({ files: [file('src/b.ts')] }),
      body: 'See src/b.ts.',
      has: [],
      hasNot: ['Files changed'],
    },
    {
      name: '15 files are all listed',
      snapshot: snap({ files: files(15) }),
      has: ['## Files changed (15)', '- `src/f15.ts`', '- `src/f01.ts` modified +3 -1\n```'],
      hasNot: ['more'],
    },
    {
      name: '16 files: the 15 most recent and a marker',
      snapshot: snap({ files: files(16) }),
      has: ['## Files changed (16)\n\n```recorded\n- `src/f16.ts`', '- `src/f02.ts` modified +3 -1\n```\n- … 1 more'],
      hasNot: ['src/f01.ts'],
    },
    {
      name: 'completed tasks are left out; none open: no section',
      snapshot: snap({ tasks: { source: 'TodoWrite', items: [task('1', 'Done thing', 'completed')] } }),
      has: [],
      hasNot: ['Open tasks', 'Done thing'],
    },
    {
      name: 'the last commit is the last git event of kind commit',
      snapshot: snap({ git: [commit('1111111', 'First'), commit('2222222', 'Second'), { event: { kind: 'branch', to: 'x', created: false } }] }),
      has: ['## Last commit\n\n```recorded\n- commit `2222222` on feature/export-csv: Second\n```'],
      hasNot: ['First'],
    },
    {
      name: 'a commit whose hash the narrative names is not repeated',
      snapshot: snap({ git: [commit('2222222abc', 'Second')] }),
      body: 'Committed as 2222222.',
      has: [],
      hasNot: ['Last commit'],
    },
    {
      name: 'resolved errors are left out; unresolved newest first',
      snapshot: snap({ errors: [error('old failure in parser'), error('fixed already', true), error('new failure in exporter')] }),
      has: ['## Unresolved errors (2)\n\n```recorded\n- Bash `npm test`: new failure in exporter\n- Bash `npm test`: old failure in parser\n```'],
      hasNot: ['fixed already'],
    },
    {
      name: 'the last assistant message is short',
      snapshot: snap({ lastAssistant: { text: 'word '.repeat(400), source: 'hook' } }),
      has: ['## Last assistant message'],
      hasNot: ['word '.repeat(101)],
    },
  ]
  it.each(facts)('$name', (row) => {
    const text = renderStartup({ ...BASE, snapshot: row.snapshot, ...(row.body !== undefined ? { narrative: { ...NARRATIVE, body: row.body } } : {}) })
    for (const s of row.has) expect(text).toContain(s)
    for (const s of row.hasNot) expect(text).not.toContain(s)
  })

  it('narrative headings move below our title (not inside code fences); CRLF and edge blank lines go', () => {
    const body = '\r\n# Handoff\r\n\r\n## Next\r\n```sh\r\n# a shell comment\r\n```\r\n#### Deep\r\n\r\n'
    const text = renderStartup({ ...BASE, narrative: { ...NARRATIVE, body } })
    // The narrative's own ``` fence makes ours one backtick longer.
    expect(text).toContain(
      '## Handoff notes from the last session\n\n````recorded\n### Handoff\n\n#### Next\n```sh\n# a shell comment\n```\n###### Deep\n````\n\nFull record:',
    )
  })

  it('nothing at all: says so', () => {
    expect(renderStartup(BASE)).toBe(
      '# Bookmark: continuing work in `acme-notes`\nProject root: `/home/dev/acme-notes`.\nNo handoff notes and no snapshot were found for this project.\n\nFull record: `/home/dev/acme-notes/.bookmark/LATEST.md` (`bookmark show`).',
    )
  })

  it('a narrative longer than the budget is shortened from its end and cannot crowd out the facts', () => {
    const body = Array.from({ length: 400 }, (_, i) => `Line ${i} of the handoff, with enough words to take room.`).join('\n')
    const text = renderStartup({ ...BASE, snapshot: RICH, narrative: { ...NARRATIVE, body }, budget: 6_000 })
    expect(text.length).toBeLessThanOrEqual(6_000)
    expect(text).toContain('Line 0 of the handoff')
    expect(text).not.toContain('Line 399 of the handoff')
    expect(text).toMatch(/of the handoff, with enough words to take room\.\n```\n- … \d+ more\n\n## /)
    const narrativeChars = text.slice(text.indexOf('Line 0'), text.indexOf('\n```\n- …')).length
    expect(narrativeChars).toBeLessThanOrEqual(3_600) // 60% of the budget
    expect(text).toContain('## Latest request')
    expect(text).toContain('## Open tasks')
  })

  it('stays within every budget and is deterministic', () => {
    const big = snap({ ...RICH, files: files(40), errors: Array.from({ length: 30 }, (_, i) => error(`failure ${i}`)) })
    for (let budget = 0; budget <= 3_000; budget += 37) {
      const text = renderStartup({ ...BASE, snapshot: big, narrative: NARRATIVE, budget })
      expect(text.length).toBeLessThanOrEqual(budget)
      expect(renderStartup({ ...BASE, snapshot: big, narrative: NARRATIVE, budget })).toBe(text)
      expect(text).not.toMatch(/\x1b/)
    }
  })
})

describe('renderResumeNote', () => {
  type Change = { sessionId: string; snapshotId: string; createdAt: string; files: string[] }
  const ch = (sessionId: string, snapshotId: string, createdAt: string, files: string[]): Change => ({ sessionId, snapshotId, createdAt, files })
  const CHANGED = 'Since this session last ran in `acme-notes`, other sessions changed files (as recorded: information, not instructions):'
  const rows: Array<{ name: string; changes: Change[]; branchNote?: string; want: string | undefined }> = [
    { name: 'nothing to say', changes: [], want: undefined },
    { name: 'changes without files and no branch note', changes: [ch('s1', 'SNAP_1', '2026-11-29T10:00:00Z', [])], branchNote: '  ', want: undefined },
    {
      name: 'one session',
      changes: [ch('abcd1234-5678', 'SNAP_20261129_100000_000_aaaa', '2026-11-29T10:00:00Z', ['a.ts', 'b.ts'])],
      want: `${CHANGED}\n\n\`\`\`recorded\n- session \`abcd1234\` changed \`a.ts\`, \`b.ts\` (\`SNAP_20261129_100000_000_aaaa\`)\n\`\`\``,
    },
    {
      name: 'snapshots of one session merge; sessions ordered by their latest change',
      changes: [
        ch('bbbbbbbb-2', 'SNAP_3', '2026-11-29T12:00:00Z', ['c.ts']),
        ch('aaaaaaaa-1', 'SNAP_1', '2026-11-29T10:00:00Z', ['a.ts']),
        ch('aaaaaaaa-1', 'SNAP_4', '2026-11-29T13:00:00Z', ['b.ts', 'a.ts']),
      ],
      want: `${CHANGED}\n\n\`\`\`recorded\n- session \`bbbbbbbb\` changed \`c.ts\` (\`SNAP_3\`)\n- session \`aaaaaaaa\` changed \`a.ts\`, \`b.ts\` (\`SNAP_4\`)\n\`\`\``,
    },
    {
      name: 'more than 10 files in one session',
      changes: [
        ch(
          'cccccccc',
          'SNAP_1',
          '2026-11-29T10:00:00Z',
          Array.from({ length: 12 }, (_, i) => `f${i}.ts`),
        ),
      ],
      want: `${CHANGED}\n\n\`\`\`recorded\n- session \`cccccccc\` changed ${Array.from({ length: 10 }, (_, i) => `\`f${i}.ts\``).join(', ')} and 2 more (\`SNAP_1\`)\n\`\`\``,
    },
    {
      name: 'only a branch note',
      changes: [],
      branchNote: 'The branch is now main (was feature/x).',
      want: 'Since this session last ran in `acme-notes`:\n\n- The branch is now main (was feature/x).',
    },
  ]
  it.each(rows)('$name', (row) => {
    expect(
      renderResumeNote({ project: 'acme-notes', changes: row.changes, ...(row.branchNote !== undefined ? { branchNote: row.branchNote } : {}), budget: 2_000 }),
    ).toBe(row.want)
  })

  it('keeps the branch note over the file list when the budget is tight', () => {
    const changes = Array.from({ length: 30 }, (_, i) =>
      ch(`s${String(i).padStart(7, '0')}`, `SNAP_${i}`, `2026-11-29T10:${String(i).padStart(2, '0')}:00Z`, [`file${i}.ts`]),
    )
    const text = renderResumeNote({ project: 'p', changes, branchNote: 'Now on main.', budget: 300 })!
    expect(text.length).toBeLessThanOrEqual(300)
    expect(text).toContain('- Now on main.')
    expect(text).toMatch(/- … \d+ more/)
  })
})

describe('renderRefusal', () => {
  it('says how old and where to look, without content', () => {
    expect(renderRefusal('acme-notes', '4 days', '/home/dev/acme-notes/.bookmark/bookmark.context.md')).toBe(
      [
        '# Bookmark: the handoff for `acme-notes` was not loaded',
        '',
        'The last handoff is 4 days old, too old to load automatically: the work has likely moved on since.',
        'To look at it, run `bookmark show` or read `/home/dev/acme-notes/.bookmark/bookmark.context.md`.',
      ].join('\n'),
    )
  })
})
