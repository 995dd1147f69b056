/** Seed lines for the fuzz test: one of each tool shape the extractors handle. */
import { call, compactBoundary, jsonl, prompt, toolResult, toolUse } from './jsonl.js'

export function bashLines(): string[] {
  return jsonl([
    prompt('do things'),
    call(
      'b1',
      'Bash',
      { command: "cd src && cat > a.ts <<'EOF'\nexport class A {}\nEOF\nmv a.ts b.ts; git commit -m 'x'" },
      { stdout: '[main abc1234] x', stderr: '' },
    ),
    call(
      'w1',
      'Write',
      { file_path: '/proj/x.ts', content: 'function f() {}\n' },
      { type: 'update', originalFile: 'function g() {}\n', structuredPatch: [{ lines: ['-function g() {}', '+function f() {}'] }] },
    ),
    call('e1', 'Edit', { file_path: 'rel/y.py', old_string: 'def a():', new_string: 'def b():' }, { structuredPatch: [] }),
    call('m1', 'MultiEdit', { file_path: '/proj/z.go', edits: [{ old_string: 'a', new_string: 'func X() {}' }] }, 'ok'),
    call('t1', 'TodoWrite', { todos: [{ content: 'a', status: 'pending' }] }, { oldTodos: [], newTodos: [] }),
    call('c1', 'TaskCreate', { subject: 's' }, { task: { id: '1', subject: 's' } }),
    call('u1', 'TaskUpdate', { taskId: '1', status: 'completed' }, { success: true, statusChange: { from: 'pending', to: 'completed' } }),
    toolUse('p1', 'PowerShell', { command: 'Set-Content -Path C:\\x\\a.txt -Value 1; Remove-Item b.txt' }),
    toolResult('p1', 'Exit code 1', { isError: true }),
    compactBoundary(),
  ])
    .split('\n')
    .filter((l) => l !== '')
}
