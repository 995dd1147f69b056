import { describe, expect, it } from 'vitest'
import { commandKeys, coveredWords, echoedCommands, failedTests, keyCovers, leadWord, notAnError, withFailedTests } from './error-match.js'

describe('notAnError', () => {
  it.each([
    ['Read', '<tool_use_error>File does not exist.</tool_use_error>'],
    ['Read', '<tool_use_error>File content (3.1MB) exceeds maximum allowed size (256KB).</tool_use_error>'],
    ['Grep', '<tool_use_error>Path does not exist: /p/src/nowhere</tool_use_error>'],
    ['Glob', "ENOENT: no such file or directory, posix_spawn '/opt/claude'"],
    ['WebFetch', 'Request failed with status code 404'],
    ['mcp__linear-server__get_issue', 'Entity not found: Issue'],
    ['Edit', '<tool_use_error>Sibling tool call errored</tool_use_error>'],
    ['Bash', 'Cancelled: parallel tool call Bash(npm test) errored'],
    ['Task" >\n<parameter name="description', '<tool_use_error>Error: No such tool available: Task" ></tool_use_error>'],
  ])('%s: %s', (tool, text) => {
    expect(notAnError(tool, text)).toBe(true)
  })

  it.each([
    ['Edit', '<tool_use_error>String to replace not found in file.</tool_use_error>'],
    ['Write', "Claude requested permissions to write to /p/CLAUDE.md, but you haven't granted it yet."],
    ['mcp__linear-server__create_issue', 'Argument Validation Error'],
    ['Bash', 'Exit code 1\nnpm ERR! Test failed.'],
  ])('still an error: %s', (tool, text) => {
    expect(notAnError(tool, text)).toBe(false)
  })
})

describe('commandKeys', () => {
  it.each([
    ['go test -v ./cmd/x/... -run "TestA" 2>&1 | head -20', ['go test ./cmd/x/... TestA'], false],
    ['cd /p/web && FOO=1 npm run lint -- --fix 2>&1 | tail -5', ['npm lint'], false],
    ['npm run lint && npm test', ['npm lint', 'npm test'], false],
    ['go build -o ./bin/app ./cmd/app/... && ./bin/app --help', ['go build ./cmd/app/...', 'app'], false],
    ['python -m pytest tests/test_a.py -x > out.txt', ['python pytest tests/test_a.py'], false],
    ['git rebase --continue', ['git rebase *'], false],
    [
      'git add a.go && git commit -m "$(cat <<\'EOF\'\nFix it\nEOF\n)"',
      ['git add a.go', 'git commit', 'git merge *', 'git cherry-pick *', 'git revert *', 'git pull *'],
      false,
    ],
    ['cat ~/.claude/current.txt 2>/dev/null', [], true],
    ['ls segments/ | grep -iE "cmd" && grep -n "Enabled" segments/x.go', [], true],
    ['git show 8312232 --no-stat', [], true],
    ['gh pr diff 343 -- a.go b.go 2>&1', [], true],
    ['test -f package.json && which node', [], true],
  ])('%s', (command, keys, probesOnly) => {
    expect(commandKeys(command, 'bash')).toEqual({ keys, probesOnly })
  })
})

describe('keyCovers', () => {
  it.each([
    ['go test ./cmd/x/... TestA', 'go test ./cmd/x/... TestA', true],
    ['go test ./...', 'go test ./cmd/x/... TestA', true],
    ['go test ./cmd/...', 'go test ./cmd/x', true],
    ['go test ./cmd/x/...', 'go test ./cmd/x/... TestResume_Log', true],
    ['go test ./cmd/x/... TestResume_', 'go test ./cmd/x/... TestResume_Log', true],
    ['go test ./cmd/x/... TestA|TestB', 'go test ./cmd/x/... TestB', true],
    ['go test ./cmd/y/...', 'go test ./cmd/x/...', false],
    ['go test ./cmd/x/... TestB', 'go test ./cmd/x/... TestA', false],
    ['go test ./cmd/x/...', 'go test ./...', false],
    ['pytest', 'pytest tests/test_a.py::test_one', true],
    ['pytest tests/test_a.py', 'pytest tests/test_a.py::test_one', true],
    ['cargo test', 'cargo test parse_line', true],
    ['npm test', 'npm lint', false],
    ['mise run test', 'mise run test:integration', false],
    ['git rebase *', 'git rebase origin/main', true],
    ['git merge *', 'git rebase origin/main', false],
    ['bun test', 'rtk bun test', true],
    ['git status', 'git show abc', false],
  ])('%s covers %s: %s', (success, failure, covers) => {
    expect(keyCovers(success, failure)).toBe(covers)
  })

  // resolveKeys compares a pair only when this holds: it must hold for every pair keyCovers accepts.
  it('covers only when the success starts with the first or second word of the failure', () => {
    const keys = [
      ...['go test ./...', 'go test ./cmd/x/... TestA', 'pytest', 'pytest tests/test_a.py::test_one', 'cargo test parse_line'],
      ...['git rebase *', 'git rebase origin/main', 'bun test', 'rtk bun test', 'npm test', 'npx vitest run', 'vitest run'],
      ...['', ' ', 'a', 'a ', ' a', 'a  b', 'a b c', 'test', 'test ', ' test', 'x test', 'x  test', 'rtk  bun test'],
    ]
    let covered = 0
    for (const success of keys) {
      for (const failure of keys) {
        if (!keyCovers(success, failure)) continue
        covered++
        expect(coveredWords(failure)).toContain(leadWord(success))
      }
    }
    expect(covered).toBeGreaterThan(keys.length)
  })
})

describe('failed go tests', () => {
  it('names the failing tests, subtests folded into theirs, and puts them in the key', () => {
    const out = '=== RUN   TestA\n--- FAIL: TestA (0.01s)\n    --- FAIL: TestA/sub (0.00s)\n--- FAIL: TestB (0.02s)\nFAIL\n'
    expect(failedTests(out)).toEqual(['TestA', 'TestB'])
    expect(withFailedTests('go test ./cmd/x/... TestA|TestB|TestC', ['TestA', 'TestB'])).toBe('go test ./cmd/x/... TestA TestB')
    expect(withFailedTests('npm test', ['TestA'])).toBe('npm test')
  })
})

describe('echoedCommands', () => {
  it('reads what mise and npm say they ran, not npm headers nor cut lines', () => {
    const out = '[lint] $ golangci-lint run ./...\n0 issues.\n\n> app@1.0.0 test\n> vitest run\n\n[test:integration] $ go test -tags=integration ./cmd/in…\n'
    expect(echoedCommands(out)).toEqual(['golangci-lint run ./...', 'vitest run'])
  })

  it('finds an echo at any line start, and none in an output without one', () => {
    expect(echoedCommands('done\r> vitest run\u2028[x] $ make all')).toEqual(['vitest run', 'make all'])
    expect(echoedCommands('a>b\n[x]$ make\n>vitest\n')).toEqual([])
  })
})
