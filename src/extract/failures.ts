/**
 * Failure summaries of test runners, linters, compilers and type checkers in a command's output. A failure
 * behind a pipe exits 0 (`npm test 2>&1 | tail -50`), so the output is read whatever the exit code. Pure rules.
 */

/** A summary line: the pattern, and the capture that must be a count above zero when there is one. */
interface Summary {
  re: RegExp
  count?: number
  /**
   * Texts every match holds: a pattern runs only on an output that holds them all. Each multiline pattern tries
   * every line start of outputs of up to 16,000 characters, and most outputs naming an error hold none of them.
   */
  needs: string[]
}

/**
 * In the order their line is preferred as the message: a count of failures first, then a named failing test,
 * then the first compiler or linter error. Each is anchored at a line start so that logs quoting the words
 * (`Task 2 failed: …`, `grep FAIL`) do not count.
 */
export const SUMMARIES: readonly Summary[] = [
  // vitest `Tests  2 failed | 5 passed (7)`, `Test Files  1 failed`, jest `Tests:       2 failed, 5 passed, 7 total`
  { re: /^[ \t]*Test(?:s|s:| Files| Suites:)[ \t]+(\d+) failed\b.*$/m, count: 1, needs: ['Test', ' failed'] },
  // pytest `==== 2 failed, 3 passed in 0.12s ====` and its -q form
  { re: /^=*[ \t]*(?:\d+ \w+, )*(\d+) failed\b.*\bin [\d.]+s\b.*$/m, count: 1, needs: [' failed', 'in '] },
  // cargo
  { re: /^test result: FAILED\b.*$/m, needs: ['test result: FAILED'] },
  // bun test ` 2 fail`
  { re: /^[ \t]*(\d+) fail$/m, count: 1, needs: [' fail'] },
  // go test: the failing test, then the failing package
  { re: /^[ \t]*--- FAIL: \S+.*$/m, needs: ['--- FAIL: '] },
  { re: /^FAIL[ \t]+\S+.*$/m, needs: ['FAIL'] },
  // eslint `✖ 3 problems (2 errors, 1 warning)`
  { re: /^[ \t]*✖ \d+ problems? \((\d+) errors?\b.*$/m, count: 1, needs: ['✖ ', ' problem'] },
  // tsc (pretty), mypy, ruff: `Found 2 errors in 1 file.`
  { re: /^Found (\d+) errors?\b.*$/m, count: 1, needs: ['Found ', ' error'] },
  // tsc: `src/a.ts(3,7): error TS2304: …` and `src/a.ts:3:7 - error TS2304: …`
  { re: /^\S.*?(?:\(\d+,\d+\):|:\d+:\d+ -) error TS\d+: .*$/m, needs: [' error TS'] },
  // rustc
  { re: /^error\[E\d+\]: .*$/m, needs: ['error[E'] },
  { re: /^error: could not compile\b.*$/m, needs: ['error: could not compile'] },
  // go build: a `# package` header, then its first `file.go:line:col: message`
  { re: /^# \S+.*\r?\n(\S+\.go:\d+:\d+: .*)$/m, needs: ['# ', '.go:'] },
  // mypy `a.py:3: error: …`, flake8 `a.py:3:1: F401 …`, golangci-lint `a.go:3:1: … (errcheck)`
  { re: /^\S+\.py:\d+: error: .*$/m, needs: ['.py:', ': error: '] },
  { re: /^\S+\.py:\d+:\d+: [EFW]\d{3} .*$/m, needs: ['.py:'] },
]

/** Cheap test before the patterns: every summary holds one of these words. */
const ANY = /FAIL|fail|error|✖| [EFW]\d{3} /

/** The summary line of a failure in `output`, trimmed; undefined when it reports none. */
export function failureSummary(output: string): string | undefined {
  if (!ANY.test(output)) return undefined
  for (const { re, count, needs } of SUMMARIES) {
    if (!needs.every((text) => output.includes(text))) continue
    const m = re.exec(output)
    if (m === null) continue
    if (count !== undefined && Number(m[count]) === 0) continue
    // go build: the message is the file line the header introduces
    const line = re.source.startsWith('^# ') ? m[1]! : m[0]
    return line.trim()
  }
  return undefined
}
