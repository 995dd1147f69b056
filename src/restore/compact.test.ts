import { describe, expect, it } from 'vitest'
import { BASE, NARRATIVE, NOTE, RICH, commit, file, files, requests, snap, task } from '../../test/helpers/restore.js'
import type { NarrativeInput } from './render.js'
import { authorship, renderCompactResume } from './compact.js'

const COMPACT = snap({
  ...RICH,
  session: { ...RICH.session, firstTs: '2026-11-29T18:00:00Z' },
  task: 'Add CSV export to the notes list, with a header row and quoted fields',
  requests: requests(
    'first request, long gone',
    'Add CSV export to the notes list, with a header row and quoted fields',
    'also handle newlines in notes',
    'yes, and make the tests pass',
  ),
})
const OWN: NarrativeInput = {
  ...NARRATIVE,
  identity: { ...NARRATIVE.identity, session_id: COMPACT.session.id, written: '2026-11-29T19:40:00Z', head: '1111111' },
}
const GIT = { branch: 'feature/export-csv', head: '3f9c2a1ffff0000' }
const input = (over: Partial<Parameters<typeof renderCompactResume>[0]> = {}): Parameters<typeof renderCompactResume>[0] => ({
  project: 'acme-notes',
  snapshot: COMPACT,
  budget: 6_000,
  latestPath: BASE.latestPath,
  git: GIT,
  ...over,
})

describe('renderCompactResume', () => {
  it('the exact latest request, the task it continues, open tasks, message end, commits, files, own handoff, errors', () => {
    expect(renderCompactResume(input({ narrative: OWN }))).toBe(
      [
        '# Bookmark: `acme-notes` after compaction',
        'This session was just compacted; here is what a summary tends to lose (branch `feature/export-csv`, HEAD `3f9c2a1`).',
        NOTE,
        '',
        '## Latest request, exactly',
        '',
        '```recorded',
        'yes, and make the tests pass',
        '```',
        '',
        "## The task it continues, in the user's words",
        '',
        '```recorded',
        'Add CSV export to the notes list, with a header row and quoted fields',
        '```',
        '',
        '## Open tasks (2 of 3)',
        '',
        '```recorded',
        '- [~] #2 Quote fields with commas (in progress)',
        '- [ ] #3 Add CLI flag --csv',
        '```',
        '',
        '## Last assistant message (its end)',
        '',
        '```recorded',
        'The exporter works; quoting of commas is next.',
        '```',
        '',
        '## Commits this session (1, oldest first)',
        '',
        '```recorded',
        '- 3f9c2a1 Add CSV exporter',
        '```',
        '',
        '## Files changed this session (2)',
        '',
        '```recorded',
        '- src/export/csv.ts (created +40 -0)',
        '- src/cli.ts (modified +3 -1)',
        '```',
        '',
        '## Handoff notes (written by this session, before 1 commit that came after it)',
        '',
        '```recorded',
        '### Where I stopped',
        '',
        'The exporter in `src/export/csv.ts` works.',
        'Next: quote fields that contain commas.',
        '```',
        '',
        '## Unresolved errors (1, newest first)',
        '',
        '```recorded',
        '- Bash `npm test`: 1 failing test: quotes commas',
        '```',
        '',
        'Full record: `/home/dev/acme-notes/.bookmark/LATEST.md` (`bookmark show`).',
      ].join('\n'),
    )
  })

  it('a handoff written after the work of this session carries no "before" label', () => {
    const text = renderCompactResume(input({ narrative: { ...OWN, identity: { ...OWN.identity, written: '2026-11-29T19:55:00Z', head: GIT.head } } }))
    expect(text).toContain('## Handoff notes (written by this session)\n')
  })

  it("another session's handoff is named in the head and left out", () => {
    const other = { ...OWN, identity: { ...OWN.identity, session_id: 'abcdef12-0000-0000-0000-000000000000' } }
    const text = renderCompactResume(input({ narrative: other }))
    expect(text).toContain(
      '\nThe handoff in `/home/dev/acme-notes/.bookmark/bookmark.context.md` is from session `abcdef12`, written 2026-11-29 19:40:00 UTC, not this one: left out.\n',
    )
    expect(text).not.toContain('Where I stopped')
    expect(text).not.toContain('## Handoff notes')
  })

  it('without a session id, the written time against the session start decides, and the title says so', () => {
    const noId = (written: string): NarrativeInput => ({ ...NARRATIVE, identity: { ...NARRATIVE.identity, written } })
    const after = renderCompactResume(input({ narrative: noId('2026-11-29T19:55:00Z') }))
    expect(after).toContain('## Handoff notes (no session id; written after this session began)\n')
    expect(after).toContain('Where I stopped')
    const before = renderCompactResume(input({ narrative: noId('2026-11-29T17:00:00Z') }))
    expect(before).toContain('is from another session, written 2026-11-29 17:00:00 UTC, not this one: left out.')
    expect(before).not.toContain('Where I stopped')
    expect(authorship({ ...NARRATIVE }, COMPACT)).toEqual({ own: false })
  })

  it('a long latest request stands alone; the task comes far behind it', () => {
    const long = `Please rework the exporter so that ${'every field is quoted, '.repeat(4)}and check it`
    const s = snap({ task: 'The big refactor', requests: requests('The big refactor', long) })
    const text = renderCompactResume(input({ snapshot: s, budget: 2_000 }))
    expect(text.indexOf(long)).toBeLessThan(text.indexOf('The big refactor'))
    const tight = renderCompactResume(input({ snapshot: s, budget: 520 }))
    expect(tight).toContain(long)
    expect(tight).not.toContain('The big refactor')
  })

  it('the end of a long last message, where its question is', () => {
    const text = `${'I changed the parser and ran the tests. '.repeat(40)}Shall I also update the docs, or leave them as they are?`
    const out = renderCompactResume(input({ snapshot: snap({ lastAssistant: { text, source: 'transcript' } }) }))
    expect(out).toMatch(/## Last assistant message \(its end\)\n\n```recorded\n…I changed .*Shall I also update the docs, or leave them as they are\?\n```/)
    const quoted = /```recorded\n(…[^\n]*)\n```/.exec(out)![1]!
    expect(quoted.length).toBeLessThanOrEqual(301)
  })

  it('the in-progress task comes first among open tasks; pending ones are shortened', () => {
    const s = snap({
      tasks: {
        source: 'TaskCreate',
        items: [task('1', `Pending ${'x'.repeat(120)}`, 'pending'), task('2', 'Done', 'completed'), task('3', 'Doing it now', 'in_progress')],
      },
    })
    const text = renderCompactResume(input({ snapshot: s }))
    expect(text).toContain(`## Open tasks (2 of 3)\n\n\`\`\`recorded\n- [~] #3 Doing it now (in progress)\n- [ ] #1 Pending ${'x'.repeat(71)}…\n\`\`\``)
  })

  it('commit subjects only, the newest eight', () => {
    const git = Array.from({ length: 10 }, (_, i) => commit(`${i}abcdef0123`, `Subject ${i}\n\nBody of the message ${i}`))
    const text = renderCompactResume(input({ snapshot: snap({ git }) }))
    expect(text).toContain('## Commits this session (10, oldest first)\n\n```recorded\n- 2abcdef Subject 2\n')
    expect(text).toContain('- 9abcdef Subject 9\n```\n- … 2 more')
    expect(text).not.toContain('Body of the message')
  })

  it('every file of the session: with counts when they fit, else paths only grouped by folder', () => {
    const many = [...files(60), file('docs/plan.md', { lastLine: 0 }), file('README.md', { lastLine: 0 })]
    const roomy = renderCompactResume(input({ snapshot: snap({ files: many }), budget: 10_000 }))
    expect(roomy).toContain('## Files changed this session (62)\n')
    expect(roomy).toContain('- src/f01.ts (modified +3 -1)')
    const short = renderCompactResume(input({ snapshot: snap({ files: many }), budget: 2_000 }))
    expect(short.length).toBeLessThanOrEqual(2_000)
    expect(short).toContain('## Files changed this session (62, paths only)\n')
    for (let i = 1; i <= 60; i++) expect(short).toContain(`f${String(i).padStart(2, '0')}.ts`)
    expect(short).toContain('- docs/: plan.md\n- README.md\n')
    expect(short).toMatch(/- src\/: f60\.ts, f59\.ts, .*, f\d\d\.ts\n- src\/: f\d\d\.ts, /)
  })

  it('the branch comes from the transcript when git gave none; no HEAD then', () => {
    const text = renderCompactResume(input({ git: {} }))
    expect(text.split('\n')[1]).toBe('This session was just compacted; here is what a summary tends to lose (branch `feature/export-csv`).')
  })

  it('stays within every budget and is deterministic; under 2,000 the latest request outlives everything', () => {
    const big = snap({ ...COMPACT, files: files(60), git: Array.from({ length: 12 }, (_, i) => commit(`${i}aaaaaa`, `c${i}`)) })
    for (let budget = 0; budget <= 3_000; budget += 41) {
      const text = renderCompactResume(input({ snapshot: big, narrative: OWN, budget }))
      expect(text.length).toBeLessThanOrEqual(budget)
      expect(renderCompactResume(input({ snapshot: big, narrative: OWN, budget }))).toBe(text)
    }
    const tight = renderCompactResume(input({ narrative: OWN, budget: 450 }))
    expect(tight).toContain('```recorded\nyes, and make the tests pass\n```')
    expect(tight).not.toContain('Handoff notes')
  })
})
