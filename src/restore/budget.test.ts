import { describe, expect, it } from 'vitest'
import { type Section, cutToBudget, fitSections } from './budget.js'

const HEAD = ['# Title']
const FOOT = ['Full record: x']
const line = (tag: string): string => `- ${tag} ${'x'.repeat(15)}` // 20 characters: longer than a marker
const a = ['a1', 'a2', 'a3'].map(line)
const b = ['b1', 'b2', 'b3', 'b4'].map(line)
const c = ['c1', 'c2'].map(line)
const A: Section = { id: 'a', title: 'A', lines: a, priority: 1 }
const B: Section = { id: 'b', title: 'B', lines: b, priority: 2 }
const C: Section = { id: 'c', lines: c, priority: 3 }
const F3 = ['f1', 'f2', 'f3'].map(line)

/** The text of blocks joined the way fitSections joins them. */
const blocks = (...bs: string[][]): string => bs.map((x) => x.join('\n')).join('\n\n')
const HA = ['## A', '']
const HB = ['## B', '']
const FULL = blocks(HEAD, [...HA, ...a], [...HB, ...b], c, FOOT)
const C1 = blocks(HEAD, [...HA, ...a], [...HB, ...b], [c[0]!, '- … 1 more'], FOOT)
const C0 = blocks(HEAD, [...HA, ...a], [...HB, ...b], ['- … 2 more'], FOOT)
const NO_C = blocks(HEAD, [...HA, ...a], [...HB, ...b], FOOT)
const B1 = blocks(HEAD, [...HA, ...a], [...HB, b[0]!, '- … 3 more'], FOOT)

describe('fitSections: tables', () => {
  const rows: Array<{
    name: string
    head?: string[]
    sections?: Section[]
    foot?: string[]
    budget: number
    text: string
    dropped?: string[]
    shortened?: string[]
  }> = [
    { name: 'fits: everything, one blank line between blocks', budget: 10_000, text: FULL },
    { name: 'budget exactly the full length', budget: FULL.length, text: FULL },
    { name: 'one under: the least important section loses its last line for a marker', budget: FULL.length - 1, text: C1, shortened: ['c'] },
    { name: 'exactly the shortened length', budget: C1.length, text: C1, shortened: ['c'] },
    { name: 'one under that: down to the marker alone (minLines 0)', budget: C1.length - 1, text: C0, shortened: ['c'] },
    { name: 'one under the marker alone: dropped', budget: C0.length - 1, text: NO_C, dropped: ['c'] },
    { name: 'minLines: dropped rather than cut below it', sections: [A, B, { ...C, minLines: 1 }], budget: C1.length - 1, text: NO_C, dropped: ['c'] },
    {
      name: 'minLines equal to its length: never shortened, only dropped',
      sections: [A, B, { ...C, minLines: 2 }],
      budget: FULL.length - 1,
      text: NO_C,
      dropped: ['c'],
    },
    { name: 'least important dropped, the next shortened', budget: B1.length, text: B1, dropped: ['c'], shortened: ['b'] },
    {
      name: 'the last section is shortened while the foot is kept',
      sections: [A],
      budget: blocks(HEAD, [...HA, ...a]).length,
      text: blocks(HEAD, [...HA, a[0]!, '- … 2 more'], FOOT),
      shortened: ['a'],
    },
    {
      name: 'the foot goes before the last section, which then gets back the lines that fit',
      sections: [{ ...A, minLines: 2 }],
      budget: blocks(HEAD, [...HA, ...a]).length,
      text: blocks(HEAD, [...HA, ...a]),
      dropped: [':foot'],
    },
    {
      name: 'without the foot the last section may still be shortened',
      sections: [{ ...A, minLines: 2 }],
      budget: blocks(HEAD, [...HA, ...a]).length - 1,
      text: blocks(HEAD, [...HA, a[0]!, a[1]!, '- … 1 more']),
      dropped: [':foot'],
      shortened: ['a'],
    },
    { name: 'all sections dropped: head alone, foot gone', budget: '# Title'.length, text: '# Title', dropped: ['a', 'b', 'c', ':foot'] },
    { name: 'head and foot without sections, exactly', sections: [], budget: blocks(HEAD, FOOT).length, text: blocks(HEAD, FOOT) },
    { name: 'head and foot without sections, one under: foot goes', sections: [], budget: blocks(HEAD, FOOT).length - 1, text: '# Title', dropped: [':foot'] },
    {
      name: 'head lines go last, from the end',
      head: ['# Title', 'second line'],
      budget: 8,
      text: '# Title',
      dropped: ['a', 'b', 'c', ':foot'],
      shortened: [':head'],
    },
    { name: 'budget 0: nothing', budget: 0, text: '', dropped: ['a', 'b', 'c', ':foot', ':head'] },
    { name: 'negative budget: nothing', budget: -5, text: '', dropped: ['a', 'b', 'c', ':foot', ':head'] },
    { name: 'NaN budget: nothing', budget: Number.NaN, text: '', dropped: ['a', 'b', 'c', ':foot', ':head'] },
    {
      name: 'a line longer than the budget is omitted, never sliced, and counted in the marker',
      head: [],
      foot: [],
      sections: [{ id: 'x', lines: ['short', 'y'.repeat(50), 'end'], priority: 1 }],
      budget: 20,
      text: 'short\nend\n- … 1 more',
      shortened: ['x'],
    },
    {
      name: 'a head line longer than the budget is omitted',
      head: ['# T', 'h'.repeat(30)],
      sections: [],
      foot: [],
      budget: 20,
      text: '# T',
      shortened: [':head'],
    },
    {
      name: 'caller-omitted lines show as a marker even when all fits',
      head: [],
      foot: [],
      sections: [{ id: 'f', title: 'Files', lines: ['- a', '- b'], priority: 1, omitted: 7 }],
      budget: 100,
      text: '## Files\n\n- a\n- b\n- … 7 more',
    },
    {
      name: 'caller-omitted lines add to the lines cut',
      head: [],
      foot: [],
      sections: [{ id: 'f', lines: ['- a', '- b', '- c'], priority: 1, omitted: 7 }],
      budget: '- a\n- … 9 more'.length,
      text: '- a\n- … 9 more',
      shortened: ['f'],
    },
    {
      name: 'equal priority: the later section is cut first',
      head: [],
      foot: [],
      sections: [
        { id: 'p', lines: ['p1', 'p2'], priority: 1 },
        { id: 'q', lines: ['q1', 'q2'], priority: 1 },
      ],
      budget: 'p1\np2\n\nq1'.length,
      text: 'p1\np2',
      dropped: ['q'],
    },
    {
      name: 'display order is the input order, not the priority order',
      head: [],
      foot: [],
      sections: [
        { id: 'low', lines: ['low'], priority: 9 },
        { id: 'high', lines: ['high'], priority: 1 },
      ],
      budget: 100,
      text: 'low\n\nhigh',
    },
    {
      name: 'a fence wraps the kept lines and counts in the length: all fits',
      head: [],
      foot: [],
      sections: [{ id: 'f', title: 'F', lines: F3, priority: 1, fence: { open: '```recorded', close: '```' } }],
      budget: ['## F', '', '```recorded', ...F3, '```'].join('\n').length,
      text: ['## F', '', '```recorded', ...F3, '```'].join('\n'),
    },
    {
      name: 'a cut fenced section still ends its fence, and the marker comes after it',
      head: [],
      foot: [],
      sections: [{ id: 'f', title: 'F', lines: F3, priority: 1, fence: { open: '```recorded', close: '```' } }],
      budget: ['## F', '', '```recorded', ...F3, '```'].join('\n').length - 1,
      text: ['## F', '', '```recorded', F3[0], F3[1], '```', '- … 1 more'].join('\n'),
      shortened: ['f'],
    },
    {
      name: 'down to no line: no empty fence, the marker alone',
      head: [],
      foot: [],
      sections: [{ id: 'f', title: 'F', lines: F3, priority: 1, fence: { open: '```recorded', close: '```' } }],
      budget: ['## F', '', '```recorded', F3[0], '```', '- … 2 more'].join('\n').length - 1,
      text: '## F\n\n- … 3 more',
      shortened: ['f'],
    },
    {
      name: 'a fence line longer than the budget: its lines are left out, never shown bare',
      head: [],
      foot: [],
      sections: [{ id: 'f', lines: ['l1'], priority: 1, fence: { open: `\`\`\`${'r'.repeat(40)}`, close: '```' } }],
      budget: 20,
      text: '- … 1 more',
      shortened: ['f'],
    },
    {
      name: 'empty sections render nothing and are not reported',
      sections: [{ id: 'e', title: 'Empty', lines: [], priority: 1 }, C],
      budget: 1_000,
      text: blocks(HEAD, c, FOOT),
    },
  ]
  it.each(rows)('$name', (row) => {
    const got = fitSections(row.head ?? HEAD, row.sections ?? [A, B, C], row.foot ?? FOOT, row.budget)
    expect(got.text).toBe(row.text)
    expect(got.text.length).toBeLessThanOrEqual(Number.isNaN(row.budget) ? 0 : Math.max(0, row.budget))
    expect(got.dropped).toEqual(row.dropped ?? [])
    expect(got.shortened).toEqual(row.shortened ?? [])
  })
})

describe('fitSections: properties over seeded random inputs', () => {
  let seed = 7
  const rand = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return (seed >>> 8) % n
  }
  const word = (): string => {
    const kinds = ['', 'x', '- item', '> quoted line', '## not a title', '…', 'a longer line of text that goes on for a while']
    const base = kinds[rand(kinds.length)]!
    return base + (rand(3) === 0 ? ' ' + 'z'.repeat(rand(120)) : '')
  }
  const lines = (max: number): string[] => Array.from({ length: rand(max + 1) }, word)
  const MARKER = /^- … \d+ more$/

  it('never exceeds the budget; every line is an input line, a title, a marker or blank; deterministic', () => {
    for (let run = 0; run < 2_000; run++) {
      const head = lines(3)
      const foot = lines(2)
      const sections: Section[] = Array.from({ length: rand(6) }, (_, i) => ({
        id: `s${i}`,
        ...(rand(2) === 0 ? { title: `T${i}` } : {}),
        lines: lines(12),
        priority: rand(4),
        ...(rand(3) === 0 ? { minLines: rand(5) } : {}),
        ...(rand(4) === 0 ? { omitted: rand(30) } : {}),
        ...(rand(2) === 0 ? { fence: { open: `${'`'.repeat(3 + i)}recorded`, close: '`'.repeat(3 + i) } } : {}),
      }))
      const budget = rand(4) === 0 ? rand(40) : rand(1_500)
      const got = fitSections(head, sections, foot, budget)
      expect(got.text.length).toBeLessThanOrEqual(budget)

      const fences = sections.flatMap((s) => (s.fence ? [s.fence.open, s.fence.close] : []))
      const allowed = new Set<string>([...head, ...foot, '', ...fences, ...sections.flatMap((s) => [...s.lines, ...(s.title ? [`## ${s.title}`] : [])])])
      for (const line of got.text === '' ? [] : got.text.split('\n')) {
        if (!allowed.has(line) && !MARKER.test(line)) throw new Error(`run ${run}: unexpected line ${JSON.stringify(line)}`)
      }
      // Every fenced line shown sits between its section's opening and closing fence lines.
      const shown = got.text.split('\n')
      for (const s of sections) {
        if (!s.fence) continue
        const at = shown.indexOf(s.fence.open)
        const inside = s.lines.filter((l) => l !== '' && !head.includes(l) && !foot.includes(l) && shown.includes(l))
        if (at < 0) {
          if (!sections.some((o) => o !== s && o.lines.some((l) => inside.includes(l)))) expect(inside).toEqual([])
          continue
        }
        let end = at + 1
        while (end < shown.length && shown[end] !== s.fence.close) end++
        expect(end, `run ${run}: fence of ${s.id} not closed`).toBeLessThan(shown.length)
        expect(end - at - 1, `run ${run}: empty fence in ${s.id}`).toBeGreaterThan(0)
      }
      expect(fitSections(head, sections, foot, budget)).toEqual(got)

      // nothing is cut when everything fits
      const whole = fitSections(head, sections, foot, 1_000_000)
      if (whole.text.length <= budget) expect(got.text).toBe(whole.text)
      // no section is both dropped and shortened
      expect(got.dropped.filter((id) => got.shortened.includes(id))).toEqual([])
    }
  })

  it('a more important section is never cut while a less important one is kept whole', () => {
    for (let run = 0; run < 1_000; run++) {
      const sections: Section[] = Array.from({ length: 2 + rand(4) }, (_, i) => ({
        id: `s${i}`,
        title: `T${i}`,
        lines: Array.from({ length: 1 + rand(8) }, (_, j) => `line ${i}.${j} ${'w'.repeat(rand(40))}`),
        priority: i,
      }))
      const got = fitSections(['# H'], sections, ['foot'], rand(800))
      const cut = new Set([...got.dropped, ...got.shortened])
      for (const s of sections) {
        if (!cut.has(s.id)) continue
        for (const other of sections) if (other.priority > s.priority) expect(got.dropped).toContain(other.id)
      }
    }
  })
})

describe('cutToBudget', () => {
  const TEXT = ['# Head', '', '## A', '', '````recorded', 'first line', '```sh', 'inner', '```', 'last line', '````', '', 'Full record: x'].join('\n')
  const rows: Array<{ name: string; budget: number; text: string }> = [
    { name: 'fits: unchanged', budget: TEXT.length, text: TEXT },
    { name: 'the foot goes, whole lines', budget: TEXT.length - 1, text: TEXT.split('\n').slice(0, 11).join('\n') },
    {
      name: 'a cut inside the block closes it (an inner fence does not count as the close)',
      budget: '# Head\n\n## A\n\n````recorded\nfirst line\n```sh\ninner\n````'.length,
      text: '# Head\n\n## A\n\n````recorded\nfirst line\n```sh\ninner\n````',
    },
    {
      name: 'no room for the closing line: lines go back until it fits',
      budget: '# Head\n\n## A\n\n````recorded\nfirst line\n```sh\ninner\n````'.length - 1,
      text: '# Head\n\n## A\n\n````recorded\nfirst line\n```sh\n````',
    },
    { name: 'never an empty block: the opening line goes too', budget: '# Head\n\n## A\n\n````recorded\nfirst line'.length, text: '# Head\n\n## A' },
    { name: 'budget 0: nothing', budget: 0, text: '' },
    { name: 'NaN: nothing', budget: Number.NaN, text: '' },
  ]
  it.each(rows)('$name', (row) => {
    const got = cutToBudget(TEXT, row.budget)
    expect(got).toBe(row.text)
    expect(got.length).toBeLessThanOrEqual(Number.isNaN(row.budget) ? 0 : row.budget)
  })

  it('at every budget: within it, and every block opened is closed', () => {
    for (let budget = 0; budget <= TEXT.length; budget++) {
      const got = cutToBudget(TEXT, budget)
      expect(got.length).toBeLessThanOrEqual(budget)
      const opened = got.split('\n').filter((l) => l === '````recorded').length
      const closed = got.split('\n').filter((l) => l === '````').length
      expect(closed, `budget ${budget}`).toBe(opened)
    }
  })
})
