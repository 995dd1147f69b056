import { describe, expect, it } from 'vitest'
import { lineDiff, patchLines } from './diff.js'

const lines = (n: number, make: (i: number) => string): string => Array.from({ length: n }, (_, i) => make(i) + '\n').join('')
const hundred = lines(100, (i) => `line ${i}`)

describe('lineDiff', () => {
  const rows: Array<{ name: string; old: string; new: string; added: string[]; removed: string[] }> = [
    { name: 'identical', old: 'a\nb\n', new: 'a\nb\n', added: [], removed: [] },
    { name: 'both empty', old: '', new: '', added: [], removed: [] },
    { name: 'empty old: all added', old: '', new: 'a\nb\n', added: ['a', 'b'], removed: [] },
    { name: 'empty new: all removed', old: 'a\nb', new: '', added: [], removed: ['a', 'b'] },
    { name: 'one line changed in 100', old: hundred, new: hundred.replace('line 50\n', 'line fifty\n'), added: ['line fifty'], removed: ['line 50'] },
    { name: 'insert in middle', old: 'a\nb\nc\n', new: 'a\nb\nx\nc\n', added: ['x'], removed: [] },
    { name: 'delete at start', old: 'a\nb\nc\n', new: 'b\nc\n', added: [], removed: ['a'] },
    { name: 'CRLF vs LF is no change', old: 'a\r\nb\r\nc\r\n', new: 'a\nb\nc\n', added: [], removed: [] },
    { name: 'CRLF old, LF new, one change', old: 'a\r\nb\r\nc\r\n', new: 'a\nB\nc\n', added: ['B'], removed: ['b'] },
    { name: 'mixed endings in one text', old: 'a\r\nb\nc', new: 'a\nb\r\nc\r\n', added: [], removed: [] },
    { name: 'missing final newline is no change', old: 'a\nb', new: 'a\nb\n', added: [], removed: [] },
    { name: 'missing final newline and a change', old: 'a\nb', new: 'a\nc\n', added: ['c'], removed: ['b'] },
    { name: 'blank line added', old: 'a\nb\n', new: 'a\n\nb\n', added: [''], removed: [] },
    { name: 'lone CR stays in the line', old: 'a\rb\n', new: 'a\nb\n', added: ['a', 'b'], removed: ['a\rb'] },
    { name: 'swap of two lines', old: 'a\nb\nc\n', new: 'a\nc\nb\n', added: ['b'], removed: ['b'] },
    {
      name: 'repeated lines align minimally',
      old: '}\n}\nx\n}\n',
      new: '}\ny\n}\n}\n',
      added: ['y'],
      removed: ['x'],
    },
  ]
  it.each(rows)('$name', (row) => {
    expect(lineDiff(row.old, row.new)).toEqual({ added: row.added, removed: row.removed })
  })

  it('is a minimal edit script (checked against an LCS table on seeded random texts)', () => {
    let seed = 42
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return (seed >>> 12) % n
    }
    for (let round = 0; round < 300; round++) {
      const a = Array.from({ length: rand(25) }, () => 'abcde'[rand(5)] ?? '')
      const b = Array.from({ length: rand(25) }, () => 'abcde'[rand(5)] ?? '')
      const d = lineDiff(a.map((l) => l + '\n').join(''), b.map((l) => l + '\n').join(''))
      const lcs = lcsLength(a, b)
      expect(d.removed.length).toBe(a.length - lcs)
      expect(d.added.length).toBe(b.length - lcs)
      expect(isSubsequenceAfterRemoving(a, d.removed)).toBe(true)
      expect(isSubsequenceAfterRemoving(b, d.added)).toBe(true)
      expect(d.approximate).toBeUndefined()
      expect(sorted(without(a, d.removed))).toEqual(sorted(without(b, d.added)))
    }
  })

  it('handles 50,000 totally different lines each side, exactly and quickly', { timeout: 3000 }, () => {
    const d = lineDiff(
      lines(50_000, (i) => `old ${i}`),
      lines(50_000, (i) => `new ${i}`),
    )
    expect(d.added).toHaveLength(50_000)
    expect(d.removed).toHaveLength(50_000)
    expect(d.added[0]).toBe('new 0')
    expect(d.removed[49_999]).toBe('old 49999')
    expect(d.approximate).toBeUndefined() // unique lines are set aside before the search
  })

  it('falls back to a multiset difference for 50,000 shuffled shared lines', { timeout: 3000 }, () => {
    const old = Array.from({ length: 50_000 }, (_, i) => `row ${i % 5000}`)
    const shuffled = old.map((_, i) => old[(i * 7919) % 50_000] ?? '')
    shuffled[10] = 'brand new'
    const d = lineDiff(old.join('\n'), shuffled.join('\n'))
    expect(d.approximate).toBe(true)
    expect(d.added).toEqual(['brand new'])
    expect(d.removed).toHaveLength(1) // one copy of the replaced row; moves are not counted
  })

  it('marks the approximation when the edit-distance cap is hit', () => {
    const d = lineDiff('a\nb\nc\nd\nx\n', 'd\nc\nb\na\ny\n', { maxEditDistance: 2 })
    expect(d).toEqual({ added: ['y'], removed: ['x'], approximate: true })
    expect(lineDiff('a\nb\nc\nd\nx\n', 'd\nc\nb\na\ny\n')).toEqual({ added: ['c', 'b', 'a', 'y'], removed: ['a', 'b', 'c', 'x'] })
  })
})

describe('patchLines', () => {
  // Real Edit results from the corpus (cc-2.1.5-api-error-compact2, cc-2.1.63-small).
  const goSignatureChange = [
    {
      oldStart: 356,
      oldLines: 7,
      newStart: 356,
      newLines: 8,
      lines: [
        ' ',
        ' // resumeSession restores and displays the resume command for a specific session.',
        ' // For multi-session checkpoints, restores ALL sessions and shows commands for each.',
        '-func resumeSession(sessionID, checkpointID string) error {',
        '+// If force is false, prompts for confirmation when local logs have newer timestamps.',
        '+func resumeSession(sessionID, checkpointID string, force bool) error {',
        '   // Get the current agent (auto-detect or use default)',
        '   ag, err := agent.Detect()',
        '   if err != nil {',
      ],
    },
  ]
  const changelog = [
    {
      oldStart: 1,
      oldLines: 5,
      newStart: 1,
      newLines: 9,
      lines: [
        ' # [Unreleased]',
        ' ',
        '+## Changed',
        '+',
        '+- Default CLI report mode changed from `terminal` to `json` for structured, comprehensive output',
        '+',
        ' # [0.4.1] - 2026-02-26',
        ' ',
        ' ## Added',
      ],
    },
  ]

  const rows: Array<{ name: string; patch: unknown; expected: ReturnType<typeof patchLines> }> = [
    {
      name: 'real Go signature change',
      patch: goSignatureChange,
      expected: {
        added: [
          '// If force is false, prompts for confirmation when local logs have newer timestamps.',
          'func resumeSession(sessionID, checkpointID string, force bool) error {',
        ],
        removed: ['func resumeSession(sessionID, checkpointID string) error {'],
      },
    },
    {
      name: 'real Markdown insertion',
      patch: changelog,
      expected: {
        added: ['## Changed', '', '- Default CLI report mode changed from `terminal` to `json` for structured, comprehensive output', ''],
        removed: [],
      },
    },
    {
      name: 'several hunks in order',
      patch: [
        { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-a', '+b'] },
        { oldStart: 9, oldLines: 1, newStart: 9, newLines: 1, lines: ['-c', '+d'] },
      ],
      expected: { added: ['b', 'd'], removed: ['a', 'c'] },
    },
    {
      name: 'CRLF file: trailing CR dropped',
      patch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-old\r', '+new\r', ' ctx\r'] }],
      expected: { added: ['new'], removed: ['old'] },
    },
    {
      name: '"No newline at end of file" marker ignored',
      patch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-a', '\\ No newline at end of file', '+a'] }],
      expected: { added: ['a'], removed: ['a'] },
    },
    { name: 'empty array (Write create) is not usable', patch: [], expected: null },
    { name: 'not an array', patch: { lines: ['+a'] }, expected: null },
    { name: 'null', patch: null, expected: null },
    { name: 'string', patch: '+a', expected: null },
    { name: 'hunk is not an object', patch: [42], expected: null },
    { name: 'hunk without lines', patch: [{ oldStart: 1 }], expected: null },
    { name: 'non-string line', patch: [{ lines: ['+a', 7] }], expected: null },
    { name: 'unknown line prefix', patch: [{ lines: ['+a', '?b'] }], expected: null },
    { name: 'non-numeric position', patch: [{ oldStart: '1', lines: ['+a'] }], expected: null },
    { name: 'positions are optional', patch: [{ lines: ['+a', '-b'] }], expected: { added: ['a'], removed: ['b'] } },
  ]
  it.each(rows)('$name', (row) => {
    expect(patchLines(row.patch)).toEqual(row.expected)
  })
})

function lcsLength(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0)
  for (const x of a) {
    let diag = 0
    for (let j = 1; j <= b.length; j++) {
      const up = row[j] ?? 0
      row[j] = x === b[j - 1] ? diag + 1 : Math.max(up, row[j - 1] ?? 0)
      diag = up
    }
  }
  return row[b.length] ?? 0
}

/** Whether `removed` can be taken out of `seq` in order (it is a subsequence of seq). */
function isSubsequenceAfterRemoving(seq: string[], removed: string[]): boolean {
  let i = 0
  for (const line of seq) if (i < removed.length && removed[i] === line) i++
  return i === removed.length
}

function without(seq: string[], drop: string[]): string[] {
  const rest = [...seq]
  for (const line of drop) rest.splice(rest.indexOf(line), 1)
  return rest
}

const sorted = (xs: string[]): string[] => [...xs].sort()
