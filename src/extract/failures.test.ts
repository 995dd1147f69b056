import { describe, expect, it } from 'vitest'
import { SUMMARIES, failureSummary } from './failures.js'

// Output shapes as the tools print them (and as the corpus shows them behind `2>&1 | tail`).
const FAILING: [string, string, string][] = [
  [
    'vitest',
    ' ✓ src/a.test.ts (3 tests)\n ❯ src/b.test.ts (2 tests | 1 failed)\n\n Test Files  1 failed | 1 passed (2)\n      Tests  1 failed | 4 passed (5)\n',
    'Test Files  1 failed | 1 passed (2)',
  ],
  ['jest', 'FAIL src/sum.test.js\n  ● adds\n\nTests:       2 failed, 7 passed, 9 total\n', 'Tests:       2 failed, 7 passed, 9 total'],
  [
    'pytest',
    'tests/test_a.py .F.\n=========================== 1 failed, 2 passed in 0.05s ===========================\n',
    '=========================== 1 failed, 2 passed in 0.05s ===========================',
  ],
  ['pytest -q', '.F\n1 failed, 1 passed in 0.02s\n', '1 failed, 1 passed in 0.02s'],
  ['cargo', 'running 2 tests\ntest a ... FAILED\n\ntest result: FAILED. 1 passed; 1 failed; 0 ignored\n', 'test result: FAILED. 1 passed; 1 failed; 0 ignored'],
  [
    'go test -v',
    '=== RUN   TestParse\n    parse_test.go:12: got 2\n--- FAIL: TestParse (0.00s)\nFAIL\nFAIL\texample.com/m/pkg\t0.012s\nFAIL\n',
    '--- FAIL: TestParse (0.00s)',
  ],
  ['go test, build failed', 'ok  \texample.com/m/a\t0.1s\nFAIL\texample.com/m/b [build failed]\nFAIL\n', 'FAIL\texample.com/m/b [build failed]'],
  ['go build', '# example.com/m/pkg\npkg/x.go:407:1: syntax error: unexpected keyword type\n', 'pkg/x.go:407:1: syntax error: unexpected keyword type'],
  ['eslint', '/p/src/a.ts\n  3:7  error  x is never used  no-unused-vars\n\n✖ 3 problems (2 errors, 1 warning)\n', '✖ 3 problems (2 errors, 1 warning)'],
  ['tsc', 'src/a.ts(3,7): error TS2304: Cannot find name y.\n', 'src/a.ts(3,7): error TS2304: Cannot find name y.'],
  ['tsc pretty', 'src/a.ts:3:7 - error TS2304: Cannot find name y.\n\nFound 1 error in src/a.ts:3\n', 'Found 1 error in src/a.ts:3'],
  [
    'mypy',
    'app.py:3: error: Incompatible types in assignment\nFound 1 error in 1 file (checked 2 source files)\n',
    'Found 1 error in 1 file (checked 2 source files)',
  ],
  ['ruff', 'app.py:1:8: F401 `os` imported but unused\nFound 1 error.\n', 'Found 1 error.'],
  ['flake8', 'app.py:1:1: F401 os imported but unused\n', 'app.py:1:1: F401 os imported but unused'],
  ['rustc', 'error[E0425]: cannot find value `y` in this scope\n', 'error[E0425]: cannot find value `y` in this scope'],
  ['bun test', ' 4 pass\n 1 fail\nRan 5 tests across 2 files.\n', '1 fail'],
]
const PASSING: [string, string][] = [
  ['eslint warnings only', '✖ 1 problem (0 errors, 1 warning)\n'],
  ['a log line that says failed', '[13:29:07] [Limiter] Task 2 failed: 84 |\n 12 pass\n 0 fail\n'],
  ['a custom report with none failed', 'tests: 21 packages ok, 0 failed\n'],
  ['go test passing', 'ok  \texample.com/m/pkg\t0.2s\n'],
  ['grep output naming FAIL mid-line', 'src/x.go:10:\tfmt.Println("--- FAIL: nope")\n'],
  ['vitest passing', ' Test Files  2 passed (2)\n      Tests  5 passed (5)\n'],
]

describe('failureSummary', () => {
  it.each(FAILING)('%s', (_, output, summary) => {
    expect(failureSummary(output)).toBe(summary)
  })

  it.each(PASSING)('no failure: %s', (_, output) => {
    expect(failureSummary(output)).toBeUndefined()
  })

  // A pattern runs only on an output holding its `needs`: each must be in every text the pattern matches.
  it('finds the texts a pattern needs in each of its matches', () => {
    const outputs = [...FAILING.map(([, output]) => output), ...PASSING.map(([, output]) => output)]
    outputs.push('   Compiling x v0.1.0\nerror: could not compile `x` (lib) due to 2 previous errors\n')
    const crlf = outputs.map((o) => o.replaceAll('\n', '\r\n'))
    for (const { re, needs } of SUMMARIES) {
      let matched = 0
      for (const output of [...outputs, ...crlf]) {
        const m = re.exec(output)
        if (m === null) continue
        matched++
        for (const text of needs) expect(m[0]).toContain(text)
      }
      expect(matched, String(re)).toBeGreaterThan(0)
    }
  })
})
