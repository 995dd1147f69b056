import { describe, expect, it } from 'vitest'
import { extractText } from '../../test/helpers/extract.js'
import { jsonl, toolResult, toolUse } from '../../test/helpers/jsonl.js'
import { type ExtractState, reviveState } from './model.js'

const failed = (id: string, tool: string, input: Record<string, unknown>, text: string) => [toolUse(id, tool, input), toolResult(id, text, { isError: true })]
const ok = (id: string, tool: string, input: Record<string, unknown>, text = 'ok') => [
  toolUse(id, tool, input),
  toolResult(id, text, { result: { stdout: text, stderr: '' } }),
]
const sh = (id: string, command: string, out: string, exit = 0) =>
  exit === 0 ? ok(id, 'Bash', { command }, out) : failed(id, 'Bash', { command }, `Exit code ${exit}\n${out}`)
const NOT_READ = '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>'
const NOT_FOUND = '<tool_use_error>String to replace not found in file.\nString: const a = 1</tool_use_error>'

function errors(state: ExtractState): [string, string, string, boolean][] {
  return state.errors.map((e) => [e.tool, e.target, e.message, e.resolved])
}

describe('errors a person would not hand over', () => {
  it('exploration, probes, cancelled siblings and a commit with nothing to commit are no errors', () => {
    const { state } = extractText(
      jsonl([
        failed('r1', 'Read', { file_path: '/proj/src/missing.ts' }, '<tool_use_error>File does not exist.</tool_use_error>'),
        failed('g1', 'Grep', { pattern: 'Condense' }, '<tool_use_error>Path does not exist: /proj/src/gone</tool_use_error>'),
        failed('g2', 'Glob', { pattern: '**/*.md' }, "ENOENT: no such file or directory, posix_spawn '/opt/claude'"),
        sh('b1', 'cat ~/.config/app/session.txt 2>/dev/null', '', 1),
        sh('b2', 'ls build/docs && grep -n "toc" build/docs/index.html', "ls: cannot access 'build/docs': No such file or directory", 2),
        sh('b3', 'git show 8312232 --no-stat', 'fatal: unrecognized argument: --no-stat', 128),
        failed('e1', 'Edit', { file_path: '/proj/a.ts', old_string: 'x', new_string: 'y' }, '<tool_use_error>Sibling tool call errored</tool_use_error>'),
        sh('b4', 'git add .gitignore && git commit -m "Ignore coverage"', 'On branch main\nnothing to commit, working tree clean', 1),
      ]),
    )
    expect(state.errors).toEqual([])
  })

  it('an edit refused as not read yet goes once the file is changed by another editing tool, and stays otherwise', () => {
    const { state } = extractText(
      jsonl([
        failed('e1', 'Edit', { file_path: '/proj/src/a.ts', old_string: 'a', new_string: 'b' }, NOT_READ),
        failed('e2', 'Write', { file_path: '/proj/src/b.ts', content: 'b' }, NOT_READ),
        ok('m1', 'MultiEdit', { file_path: '/proj/src/a.ts', edits: [{ old_string: 'a', new_string: 'b' }] }),
      ]),
    )
    expect(errors(state)).toEqual([['Write', '/proj/src/b.ts', 'File has not been read yet. Read it first before writing to it.', false]])
  })
})

describe('errors resolved by a later success', () => {
  it('a failed edit, by a later change of the file by any tool, a shell write included', () => {
    const { state } = extractText(
      jsonl([
        failed('e1', 'Edit', { file_path: '/proj/src/a.ts', old_string: 'const a = 1', new_string: 'x' }, NOT_FOUND),
        failed('e2', 'Edit', { file_path: '/proj/src/b.ts', old_string: 'const a = 1', new_string: 'x' }, NOT_FOUND),
        failed('e3', 'Edit', { file_path: '/proj/src/c.ts', old_string: 'const a = 1', new_string: 'x' }, NOT_FOUND),
        ok('w1', 'Write', { file_path: '/proj/src/a.ts', content: 'const a = 2\n' }),
        sh('s1', "cat > src/b.ts <<'EOF'\nconst b = 2\nEOF", ''),
      ]),
    )
    expect(state.errors.map((e) => [e.target, e.resolved])).toEqual([
      ['/proj/src/a.ts', true],
      ['/proj/src/b.ts', true],
      ['/proj/src/c.ts', false],
    ])
  })

  it('a failed edit, by a shell change of the file in a later capture (a state read back), a move onto it included', () => {
    const first = extractText(
      jsonl([
        failed('e1', 'Edit', { file_path: '/proj/src/d.ts', old_string: 'const a = 1', new_string: 'x' }, NOT_FOUND),
        failed('e2', 'Edit', { file_path: '/proj/src/e.ts', old_string: 'const a = 1', new_string: 'x' }, NOT_FOUND),
        ok('w1', 'Write', { file_path: '/proj/src/old.ts', content: 'const a = 2\n' }),
      ]),
    ).state
    const { state } = extractText(
      jsonl([ok('r1', 'Read', { file_path: '/proj/README.md' }, 'readme'), sh('s1', 'mv src/old.ts src/d.ts', ''), sh('s2', 'touch src/e.ts', '')]),
      '/proj',
      reviveState(JSON.parse(JSON.stringify(first)) as ExtractState),
    )
    expect(state.errors.map((e) => [e.target, e.resolved])).toEqual([
      ['/proj/src/d.ts', true],
      ['/proj/src/e.ts', true],
    ])
  })

  it('a command, by the same one modulo pipes, redirections, cd and flags', () => {
    const { state } = extractText(
      jsonl([
        sh('t1', 'go test ./pkg/x/... 2>&1', '--- FAIL: TestParse (0.00s)\nFAIL\nFAIL\texample.com/m/pkg/x\t0.01s', 1),
        sh('t2', 'cd /proj && go test -count=1 ./pkg/x/... -v 2>&1 | head -20', 'ok  \texample.com/m/pkg/x\t0.01s'),
        sh('l1', 'npm run lint 2>&1', '✖ 2 problems (2 errors, 0 warnings)', 1),
        sh('l2', 'npm run lint && npm test', 'Tests  4 passed (4)'),
        sh('x1', 'npm run build', 'error TS2304', 2),
      ]),
    )
    expect(errors(state)).toEqual([
      ['Bash', 'go test ./pkg/x/... 2>&1', 'Exit code 1: --- FAIL: TestParse (0.00s)', true],
      ['Bash', 'npm run lint 2>&1', 'Exit code 1: ✖ 2 problems (2 errors, 0 warnings)', true],
      ['Bash', 'npm run build', 'Exit code 2: error TS2304', false],
    ])
  })

  it('a failing test named in the output, by a later run of that test; a git conflict, by --continue', () => {
    const { state } = extractText(
      jsonl([
        sh('t1', 'go test ./cmd/s/... -v 2>&1 | tail -30', '--- FAIL: TestPostCommit_Condenses (0.11s)\nFAIL\nFAIL\texample.com/cmd/s\t8.1s\nFAIL'),
        sh('t2', 'go test ./cmd/s/... -run "TestPostCommit_Condenses|TestOther" 2>&1', 'PASS\nok  \texample.com/cmd/s\t0.6s'),
        sh('g1', 'git rebase origin/main 2>&1', 'Auto-merging a.go\nCONFLICT (content): Merge conflict in a.go', 1),
        sh('g2', 'git add a.go && GIT_EDITOR=true git rebase --continue', 'Successfully rebased and updated refs/heads/x.'),
      ]),
    )
    expect(state.errors.map((e) => [e.message, e.resolved])).toEqual([
      ['--- FAIL: TestPostCommit_Condenses (0.11s)', true],
      ['Exit code 1: Auto-merging a.go', true],
    ])
  })
})

describe('failures behind a pipe', () => {
  it('are recorded from their summary whatever the exit code, and resolved like any other', () => {
    const first = extractText(
      jsonl([
        sh('t1', 'npm test 2>&1 | tail -50', ' Test Files  1 failed | 3 passed (4)\n      Tests  1 failed | 20 passed (21)'),
        sh('t2', 'npx eslint src 2>&1 | tail -3', '✖ 1 problem (0 errors, 1 warning)'),
      ]),
    ).state
    expect(errors(first)).toEqual([['Bash', 'npm test 2>&1 | tail -50', 'Test Files  1 failed | 3 passed (4)', false]])
    // A later capture continues from the saved state: the keys were saved with it.
    const saved = reviveState(JSON.parse(JSON.stringify(first)))
    const { state } = extractText(jsonl([sh('t3', 'npm run test -- --reporter=dot', ' Test Files  4 passed (4)')]), '/proj', saved)
    expect(state.errors.map((e) => e.resolved)).toEqual([true])
  })

  it('the commands before the failing one in a chain succeeded', () => {
    const { state } = extractText(
      jsonl([
        sh('l1', 'mise run lint 2>&1', 'a.go:3:1: Error return value is not checked (errcheck)', 1),
        sh('c1', 'mise run fmt && mise run lint && mise run test:ci 2>&1 | tail -20', 'FAIL\texample.com/cmd/s\t13.5s\nFAIL'),
      ]),
    )
    expect(errors(state)).toEqual([
      ['Bash', 'mise run lint 2>&1', 'Exit code 1: a.go:3:1: Error return value is not checked (errcheck)', true],
      ['Bash', 'mise run fmt && mise run lint && mise run test:ci 2>&1 | tail -20', 'FAIL\texample.com/cmd/s\t13.5s', false],
    ])
  })
})

describe('what an error keeps of its command', () => {
  // The stress suite's yaml-api-token-letters form: the key `deploy api_token: …` alone reads as plain words.
  const SECRET = 'qzkvbnwmxrtp'
  const command = `cat <<'EOF' > deploy.yml\napi_token: '${SECRET}'\nEOF\ndeploy --config deploy.yml api_token: '${SECRET}'`

  it('keys read from the redacted command: no secret in the stored state, and a later success still resolves it', () => {
    const { state } = extractText(jsonl([...sh('b1', command, 'deploy: unauthorized', 1)]))
    expect(state.errors).toHaveLength(1)
    expect(JSON.stringify(state)).not.toContain(SECRET)
    const after = extractText(jsonl([...sh('b1', command, 'deploy: unauthorized', 1), ...sh('b2', command, 'deployed')])).state
    expect(after.errors.map((e) => e.resolved)).toEqual([true])
  })
})
