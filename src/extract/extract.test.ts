import { describe, expect, it } from 'vitest'
import { extractText, snapshotOf } from '../../test/helpers/extract.js'
import { type ExtractState, createState, reviveState } from './model.js'
import { agentProgress, assistantText, call, compactBoundary, compactSummary, jsonl, meta, prompt, toolResult, toolUse } from '../../test/helpers/jsonl.js'

const bash = (id: string, command: string, out = '') => call(id, 'Bash', { command }, { stdout: out, stderr: '', interrupted: false, isImage: false })
const files = (text: string, root = '/proj') => {
  const { state } = extractText(text, root)
  return Object.values(state.files).map((f) => ({ path: f.path, op: f.op, added: f.added, removed: f.removed }))
}
const paths = (text: string, root = '/proj') => Object.keys(extractText(text, root).state.files).sort()

describe('files from file tools', () => {
  it('records Write (create) with every line added', () => {
    expect(
      files(
        jsonl([
          call(
            'w1',
            'Write',
            { file_path: '/proj/src/a.ts', content: 'a\nb\nc\n' },
            { type: 'create', filePath: '/proj/src/a.ts', content: 'a\nb\nc\n', structuredPatch: [], originalFile: null },
          ),
        ]),
      ),
    ).toEqual([{ path: 'src/a.ts', op: 'created', added: 3, removed: 0 }])
  })

  it('records Write (update) from a real diff of the original file', () => {
    const original = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n') + '\n'
    const updated = original.replace('line 50\n', 'line fifty\n')
    expect(
      files(
        jsonl([
          call(
            'w1',
            'Write',
            { file_path: '/proj/a.txt', content: updated },
            { type: 'update', filePath: '/proj/a.txt', content: updated, originalFile: original },
          ),
        ]),
      ),
    ).toEqual([{ path: 'a.txt', op: 'modified', added: 1, removed: 1 }])
  })

  it('records Edit from its structuredPatch, or from old/new strings', () => {
    const patch = [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 3, lines: [' keep', '-old', '+new', '+newer'] }]
    expect(
      files(
        jsonl([
          call('e1', 'Edit', { file_path: '/proj/x.py', old_string: 'old', new_string: 'new\nnewer' }, { filePath: '/proj/x.py', structuredPatch: patch }),
        ]),
      ),
    ).toEqual([{ path: 'x.py', op: 'modified', added: 2, removed: 1 }])
    expect(files(jsonl([call('e2', 'Edit', { file_path: '/proj/y.py', old_string: 'a\nb', new_string: 'a\nc' }, 'The file has been updated.')]))).toEqual([
      { path: 'y.py', op: 'modified', added: 1, removed: 1 },
    ])
  })

  it('records MultiEdit and NotebookEdit', () => {
    const t = jsonl([
      call(
        'm1',
        'MultiEdit',
        {
          file_path: '/proj/m.ts',
          edits: [
            { old_string: 'a', new_string: 'b' },
            { old_string: 'c', new_string: 'd\ne' },
          ],
        },
        'Applied 2 edits',
      ),
      call('n1', 'NotebookEdit', { notebook_path: '/proj/nb.ipynb', cell_id: 'c1', new_source: 'print(1)\nprint(2)', edit_mode: 'insert' }, 'Inserted cell'),
    ])
    expect(files(t)).toEqual([
      { path: 'm.ts', op: 'modified', added: 3, removed: 2 },
      { path: 'nb.ipynb', op: 'modified', added: 2, removed: 0 },
    ])
  })

  it('ignores file tools whose result was an error, and calls that never got a result', () => {
    const t = jsonl([
      toolUse('e1', 'Edit', { file_path: '/proj/a.ts', old_string: 'x', new_string: 'y' }),
      toolResult('e1', '<tool_use_error>String to replace not found in file.</tool_use_error>', { isError: true }),
      toolUse('w1', 'Write', { file_path: '/proj/never.ts', content: 'x' }),
    ])
    expect(paths(t)).toEqual([])
  })

  it('resolves relative paths against the session cwd and keeps outside files apart', () => {
    const t = jsonl([
      call('w1', 'Write', { file_path: 'src/rel.ts', content: 'x' }, { type: 'create' }, { cwd: '/proj' }),
      call('w2', 'Write', { file_path: '/proj-other/sib.ts', content: 'x' }, { type: 'create' }),
      call('w3', 'Write', { file_path: '/tmp/scratch.txt', content: 'x' }, { type: 'create' }),
    ])
    const { state } = extractText(t)
    expect(Object.keys(state.files)).toEqual(['src/rel.ts'])
    expect(Object.keys(state.outside).sort()).toEqual(['/proj-other/sib.ts', '/tmp/scratch.txt'])
    const snap = snapshotOf(state)
    expect(snap.files.map((f) => f.path)).toEqual(['src/rel.ts'])
    expect(snap.outsideFiles.map((f) => f.path)).toEqual(['/tmp/scratch.txt', '/proj-other/sib.ts'])
  })

  it('handles Windows paths from a Windows session', () => {
    const t = jsonl([call('w1', 'Write', { file_path: 'D:\\repo\\src\\main.go', content: 'package main\n' }, { type: 'create' }, { cwd: 'D:\\repo' })])
    expect(paths(t, 'D:\\repo')).toEqual(['src/main.go'])
  })

  it('records structural hints', () => {
    const t = jsonl([call('w1', 'Write', { file_path: '/proj/s.ts', content: 'export class Store {}\nexport function parseLine() {}\n' }, { type: 'create' })])
    expect(extractText(t).state.files['s.ts']?.hints).toEqual(expect.arrayContaining(['+class Store']))
  })
})

describe('files from shell commands', () => {
  it.each([
    ['echo hi > notes.txt', ['notes.txt']],
    ['echo more >> log/app.log', ['log/app.log']],
    ['printf x | tee out.txt', ['out.txt']],
    ["sed -i 's/a/b/' src/c.ts", ['src/c.ts']],
    ['touch new.md', ['new.md']],
    ['rm old.ts', ['old.ts']],
    ['cp a.ts b.ts', ['b.ts']],
    ["cat > gen.py <<'EOF'\nprint(1)\nEOF", ['gen.py']],
    ['mkdir -p src/newdir', []],
    ['git mv a.ts src/a.ts', ['src/a.ts']],
    ['git rm stale.js', ['stale.js']],
    ['echo x > /proj-other/y.txt', []],
    ['ls -la && cat README.md | grep x', []],
    ['echo x > /dev/null 2>&1', []],
  ])('%s', (command, expected) => {
    expect(paths(jsonl([bash('b1', command)]))).toEqual(expected)
  })

  it('moves a file it knows: the record follows the file', () => {
    const t = jsonl([call('w1', 'Write', { file_path: '/proj/a.ts', content: 'x\n' }, { type: 'create' }), bash('b1', 'mv a.ts b.ts')])
    const { state } = extractText(t)
    expect(Object.keys(state.files)).toEqual(['b.ts'])
    expect(state.files['b.ts']).toMatchObject({ op: 'created', added: 1 })
  })

  it('counts heredoc lines as added', () => {
    const t = jsonl([bash('b1', "cat > notes.md <<'EOF'\none\ntwo\nEOF")])
    expect(files(t)).toEqual([{ path: 'notes.md', op: 'created', added: 2, removed: 0 }])
  })

  it('ignores shell writes of a command that failed', () => {
    const t = jsonl([toolUse('b1', 'Bash', { command: 'echo x > a.txt && false' }), toolResult('b1', 'Exit code 1', { isError: true })])
    expect(paths(t)).toEqual([])
  })

  it('never records a directory removed recursively', () => {
    expect(paths(jsonl([bash('b1', 'rm -rf build node_modules')]))).toEqual([])
  })
})

describe('conversation', () => {
  it('keeps the real requests, not meta, notifications, compact summaries or subagent prompts', () => {
    const t = jsonl([
      prompt('add a login page'),
      meta('<local-command-caveat>Caveat</local-command-caveat>'),
      compactBoundary(),
      compactSummary(),
      prompt('subagent instructions', { sidechain: true }),
      prompt('<task-notification>done</task-notification>'),
      prompt('now add tests for it'),
    ])
    const { state } = extractText(t)
    expect(state.prompts.map((p) => p.text)).toEqual(['add a login page', 'now add tests for it'])
    expect(state.compactions.length).toBe(1)
    expect(snapshotOf(state).task).toBe('now add tests for it')
  })

  it('takes the latest substantial request as the task, not "yes"', () => {
    const { state } = extractText(jsonl([prompt('refactor the store into layout and writer'), prompt('yes')]))
    expect(snapshotOf(state).task).toBe('refactor the store into layout and writer')
  })

  it('keeps the last assistant text of the main thread and the models used', () => {
    const t = jsonl([
      assistantText('first', { model: 'claude-opus-4-1' }),
      assistantText('from a subagent', { sidechain: true }),
      assistantText('final words', { model: 'claude-sonnet-4-5' }),
    ])
    const { state } = extractText(t)
    expect(state.lastAssistant?.text).toBe('final words')
    expect(state.models).toEqual({ 'claude-opus-4-1': 1, 'claude-sonnet-4-5': 1 })
    expect(state.usage?.contextTokens).toBe(1030)
  })

  it('counts tools in a histogram, subagent tools apart', () => {
    const t = jsonl([
      bash('b1', 'ls'),
      bash('b2', 'pwd'),
      call('r1', 'Read', { file_path: '/proj/a' }, 'x'),
      call('g1', 'Grep', { pattern: 'x' }, 'x', { sidechain: true }),
    ])
    const { state } = extractText(t)
    expect(state.tools).toEqual({ Bash: 2, Read: 1 })
    expect(state.subagentTools).toEqual({ Grep: 1 })
  })
})

describe('tasks', () => {
  it('keeps the final TodoWrite list', () => {
    const t = jsonl([
      call('t1', 'TodoWrite', { todos: [{ content: 'a', status: 'pending', activeForm: 'A' }] }, { oldTodos: [], newTodos: [] }),
      call(
        't2',
        'TodoWrite',
        {
          todos: [
            { content: 'a', status: 'completed', activeForm: 'A' },
            { content: 'b', status: 'in_progress', activeForm: 'B' },
          ],
        },
        { oldTodos: [], newTodos: [] },
      ),
    ])
    expect(snapshotOf(extractText(t).state).tasks).toEqual({
      source: 'TodoWrite',
      items: [
        { text: 'a', status: 'completed' },
        { text: 'b', status: 'in_progress' },
      ],
    })
  })

  it('matches TaskCreate and TaskUpdate by the ids in their results, not by position', () => {
    const t = jsonl([
      // Results arrive in the opposite order of the calls: the ids decide.
      toolUse('c1', 'TaskCreate', { subject: 'first task', description: 'd' }),
      toolUse('c2', 'TaskCreate', { subject: 'second task', description: 'd' }),
      toolResult('c2', 'Task #7 created successfully: second task', { result: { task: { id: '7', subject: 'second task' } } }),
      toolResult('c1', 'Task #9 created successfully: first task', { result: { task: { id: '9', subject: 'first task' } } }),
      call(
        'u1',
        'TaskUpdate',
        { taskId: '9', status: 'completed' },
        { success: true, taskId: '9', updatedFields: ['status'], statusChange: { from: 'pending', to: 'completed' } },
      ),
      call(
        'u2',
        'TaskUpdate',
        { taskId: '7', status: 'in_progress' },
        { success: true, taskId: '7', updatedFields: ['status'], statusChange: { from: 'pending', to: 'in_progress' } },
      ),
    ])
    expect(snapshotOf(extractText(t).state).tasks.items).toEqual([
      { id: '7', text: 'second task', status: 'in_progress' },
      { id: '9', text: 'first task', status: 'completed' },
    ])
  })

  it('records plans and subagents', () => {
    const t = jsonl([
      call('p1', 'ExitPlanMode', { plan: '1. do x\n2. do y' }, 'User has approved your plan.'),
      call('a1', 'Task', { description: 'Review security', prompt: 'review', subagent_type: 'general-purpose' }, { status: 'completed' }),
    ])
    const { state } = extractText(t)
    expect(state.plans).toMatchObject([{ text: '1. do x\n2. do y', approved: true }])
    expect(state.subagents).toMatchObject([{ description: 'Review security', type: 'general-purpose', status: 'completed' }])
  })
})

describe('errors and git', () => {
  it('records failures and resolves them by a later success on the same target', () => {
    const t = jsonl([
      toolUse('b1', 'Bash', { command: 'npm test' }),
      toolResult('b1', 'Exit code 1\nFAIL src/a.test.ts', { isError: true }),
      toolUse('e1', 'Edit', { file_path: '/proj/a.ts', old_string: 'q', new_string: 'r' }),
      toolResult('e1', '<tool_use_error>String to replace not found in file.</tool_use_error>', { isError: true }),
      ...bash('b2', 'npm test', 'all passed'),
      toolUse('x1', 'Bash', { command: 'rm -rf /' }),
      toolResult('x1', "The user doesn't want to proceed with this tool use.", { isError: true }),
    ])
    const { state } = extractText(t)
    expect(state.errors.map((e) => [e.tool, e.target, e.message, e.resolved])).toEqual([
      ['Bash', 'npm test', 'Exit code 1: FAIL src/a.test.ts', true],
      ['Edit', '/proj/a.ts', 'String to replace not found in file.', false],
    ])
  })

  it('drops failed writes of our own handoff (a denied permission), keeps those of other files', () => {
    // The tool_result text Claude Code 2.1.332 gives in claude -p when no rule allows the write (docs/PERMISSIONS.md).
    const denied = (path: string) => `Claude requested permissions to write to ${path}, but you haven't granted it yet.`
    const t = jsonl([
      toolUse('w1', 'Write', { file_path: '/proj/.bookmark/bookmark.context.md', content: '# Handoff' }),
      toolResult('w1', denied('/proj/.bookmark/bookmark.context.md'), { isError: true }),
      toolUse('w2', 'Write', { file_path: '/home/u/.bookmark/bookmark.context.md', content: '# Handoff' }),
      toolResult('w2', denied('/home/u/.bookmark/bookmark.context.md'), { isError: true }),
      toolUse('w3', 'Write', { file_path: '/proj/.bookmark/bookmark.context.md', content: '# Handoff' }),
      toolResult('w3', '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>', { isError: true }),
      toolUse('w4', 'Write', { file_path: '/proj/notes/bookmark.context.md', content: 'x' }),
      toolResult('w4', denied('/proj/notes/bookmark.context.md'), { isError: true }),
      toolUse('w5', 'Write', { file_path: '/proj/.bookmark/other.md', content: 'x' }),
      toolResult('w5', denied('/proj/.bookmark/other.md'), { isError: true }),
    ])
    expect(extractText(t).state.errors.map((e) => [e.tool, e.target, e.message])).toEqual([
      ['Write', '/proj/notes/bookmark.context.md', denied('/proj/notes/bookmark.context.md')],
      ['Write', '/proj/.bookmark/other.md', denied('/proj/.bookmark/other.md')],
    ])
  })

  it('records commits with hash and message, branch changes and pushes', () => {
    const t = jsonl([
      ...bash('g1', 'git checkout -b feature/x', "Switched to a new branch 'feature/x'"),
      ...bash('g2', 'git add -A && git commit -m "Add parser"', '[feature/x 1a2b3c4] Add parser\n 1 file changed, 3 insertions(+)'),
      ...bash('g3', 'git push -u origin feature/x', "branch 'feature/x' set up to track 'origin/feature/x'."),
    ])
    const events = extractText(t).state.git.map((g) => g.event)
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'branch', to: 'feature/x', created: true }),
        expect.objectContaining({ kind: 'commit', hash: '1a2b3c4', message: 'Add parser' }),
        expect.objectContaining({ kind: 'push', ok: true }),
      ]),
    )
  })
})

describe('pending tool calls', () => {
  const calls = (ids: string[]) => jsonl(ids.map((id) => toolUse(id, 'Read', { file_path: `/proj/${id}.ts` })))

  it('keeps the last 500 calls whose result has not come, dropping the oldest first', () => {
    const ids = Array.from({ length: 503 }, (_, i) => `toolu_${i}`)
    const { state } = extractText(calls(ids))
    expect(Object.keys(state.pending)).toEqual(ids.slice(3))
    // Read back from its cursor: a result takes its call out; a later call then fits without dropping another.
    const stored = reviveState(JSON.parse(JSON.stringify(state)) as ExtractState)
    const more = extractText(`${calls(['toolu_x'])}\n${jsonl([toolResult('toolu_10', 'done')])}\n${calls(['toolu_y'])}`, '/proj', stored).state
    expect(Object.keys(more.pending)).toEqual([...ids.slice(4, 10), ...ids.slice(11), 'toolu_x', 'toolu_y'])
  })

  it("drops by the size of the inputs as redacted, whether a call's target was read yet or not", () => {
    // Eight Writes fill the 8 MiB to the character with eight Reads (22 characters each, path and cwd): nothing goes.
    const write = (id: string) => toolUse(id, 'Write', { file_path: `/proj/${id}.ts`, content: 'x'.repeat(1_048_538) })
    const reads = Array.from({ length: 8 }, (_, i) => `toolu_r${i}`)
    const writes = Array.from({ length: 8 }, (_, i) => `w${i}`)
    const { state } = extractText(`${calls(reads)}${jsonl(writes.map(write))}`)
    expect(Object.keys(state.pending)).toEqual([...reads, ...writes])
    // One more Read is 22 over: the oldest call goes, and no other.
    const more = extractText(calls(['toolu_rx']), '/proj', state).state
    expect(Object.keys(more.pending)).toEqual([...reads.slice(1), ...writes, 'toolu_rx'])
  })

  it('keeps the target of a call redacted, in the table and in the error of a failed call', () => {
    const token = `ghp_${'a1B2c3D4e5'.repeat(4).slice(0, 36)}`
    const { state } = extractText(
      jsonl([
        toolUse('toolu_1', 'Read', { file_path: `/proj/${token}.txt` }),
        // a tool that writes (a failed Read is exploration, not an error)
        toolUse('toolu_2', 'mcp__notes__save', { file_path: `/proj/notes/${token}` }),
        toolResult('toolu_2', 'Disk full.', { isError: true }),
      ]),
    )
    expect(JSON.stringify(state.pending)).toBe(
      JSON.stringify({ toolu_1: { ...state.pending.toolu_1, input: { file_path: '/proj/[REDACTED:github-token].txt' } } }),
    )
    expect(state.errors.map((e) => e.target)).toEqual(['/proj/notes/[REDACTED:github-token]'])
    expect(JSON.stringify(state)).not.toContain(token)
  })

  it('drops the oldest in key order when an id looks like an integer (listed first by JavaScript)', () => {
    const ids = ['toolu_a', '7', ...Array.from({ length: 499 }, (_, i) => `toolu_${i}`)]
    const { state } = extractText(calls(ids))
    expect(Object.keys(state.pending)).toEqual(['toolu_a', ...ids.slice(2)])
  })
})

describe('the subagents key', () => {
  // One session in the two shapes the corpus shows for a subagent's lines: inline with `isSidechain: true`
  // (1.0.x, cc-1.0.98-inline-sidechains-*) and embedded in `agent_progress` records (2.1.12 … 2.1.63,
  // cc-2.1.20-taskcreate-*). The main thread creates task #1, hands it to a subagent, and writes CLAUDE.md.
  const session = (shape: 'sidechain' | 'progress') => {
    const sub = (r: Record<string, unknown>) => (shape === 'sidechain' ? { ...r, isSidechain: true } : agentProgress(r, 'task1'))
    const subCall = (id: string, name: string, input: Record<string, unknown>, result: unknown) => [
      sub(toolUse(id, name, input)),
      sub(toolResult(id, 'ok', { result })),
    ]
    return jsonl([
      prompt('build the todo app'),
      call('c1', 'TaskCreate', { subject: 'Create data models' }, { task: { id: '1', subject: 'Create data models' } }),
      toolUse('task1', 'Task', { description: 'Create data models', prompt: 'Create the types in types/', subagent_type: 'general-purpose' }),
      sub(prompt('Create the types in types/')),
      subCall('s1', 'Write', { file_path: '/proj/types/todo.ts', content: 'export interface Todo {\n  id: string\n}\n' }, { type: 'create' }),
      subCall('s2', 'Bash', { command: 'mv types/old.ts types/legacy.ts' }, { stdout: '', stderr: '' }),
      subCall('s3', 'Bash', { command: 'rm notes/scratch.md' }, { stdout: '', stderr: '' }),
      subCall('s4', 'TaskUpdate', { taskId: '1', status: 'completed' }, { success: true, taskId: '1', statusChange: { from: 'pending', to: 'completed' } }),
      sub(assistantText('The types are in types/todo.ts.')),
      toolResult('task1', 'The types are in types/todo.ts.', {
        result: { status: 'completed', content: [{ type: 'text', text: 'The types are in types/todo.ts.' }], totalToolUseCount: 4 },
      }),
      call('w1', 'Write', { file_path: '/proj/CLAUDE.md', content: '# Todo\n' }, { type: 'create' }),
      assistantText('Done: types and CLAUDE.md.'),
    ])
  }

  it.each(['sidechain', 'progress'] as const)('on (the default) keeps what a subagent did, in the %s shape', (shape) => {
    const text = session(shape)
    const { state } = extractText(text, '/proj', createState(), { subagents: true })
    expect(state).toEqual(extractText(text).state) // on is the behaviour without the key
    expect(
      Object.values(state.files)
        .map((f) => [f.path, f.op, f.from, f.subagent])
        .sort(),
    ).toEqual([
      ['CLAUDE.md', 'created', undefined, false],
      ['notes/scratch.md', 'deleted', undefined, true],
      ['types/legacy.ts', 'moved', 'types/old.ts', true],
      ['types/todo.ts', 'created', undefined, true],
    ])
    expect(state.subagentTools).toEqual({ Write: 1, Bash: 2, TaskUpdate: 1 })
    expect(state.tasks['1']?.status).toBe('completed')
    expect(state.counts.sidechainEntries).toBeGreaterThan(0)
  })

  it.each(['sidechain', 'progress'] as const)('off leaves out every trace of the subagent but the Task call, in the %s shape', (shape) => {
    const { state } = extractText(session(shape), '/proj', createState(), { subagents: false })
    expect(Object.keys(state.files)).toEqual(['CLAUDE.md'])
    expect(state.outside).toEqual({})
    expect(state.subagentTools).toEqual({})
    expect(state.tools).toEqual({ TaskCreate: 1, Task: 1, Write: 1 })
    // The task list is the main thread's view: the subagent's update is not applied.
    expect(state.tasks['1']).toEqual({ id: '1', subject: 'Create data models', status: 'pending' })
    expect(state.counts.sidechainEntries).toBe(0)
    expect(state.errors).toEqual([])
    // The main agent's own call stays: one record that a subagent ran.
    expect(state.subagents).toEqual([{ description: 'Create data models', type: 'general-purpose', ts: expect.any(String), status: 'completed' }])
    // The main thread's own words are untouched.
    expect(state.prompts.map((p) => p.text)).toEqual(['build the todo app'])
    expect(state.lastAssistant?.text).toBe('Done: types and CLAUDE.md.')
    expect(JSON.stringify(state)).not.toContain('types/')
  })

  it('off records a Task call without a description by its type alone, never by the prompt it gave the subagent', () => {
    const t = jsonl([call('a1', 'Task', { prompt: 'Create cmd/summarize.go with tests', subagent_type: 'dev' }, { status: 'completed' })])
    expect(extractText(t).state.subagents).toMatchObject([{ description: 'Create cmd/summarize.go with tests', type: 'dev' }])
    expect(extractText(t, '/proj', createState(), { subagents: false }).state.subagents).toMatchObject([{ description: '', type: 'dev', status: 'completed' }])
  })
})

describe('git by subagents, and the branch of each change', () => {
  const sub = { sidechain: true }
  it("keeps a subagent's commits, not its branch switches", () => {
    const { state } = extractText(
      jsonl([
        prompt('go'),
        call('s1', 'Bash', { command: 'git checkout -b agent-work' }, { stdout: "Switched to a new branch 'agent-work'", stderr: '' }, sub),
        call('s2', 'Bash', { command: 'git commit -qm "fix: from the agent"' }, { stdout: '', stderr: '' }, sub),
      ]),
    )
    expect(state.git.map((g) => g.event)).toEqual([{ kind: 'commit', message: 'fix: from the agent' }])
    expect(state.branch).toBe('main')
  })

  it('records on each file the branch it was last changed on', () => {
    const { state } = extractText(
      jsonl([
        prompt('go'),
        call('w1', 'Write', { file_path: '/proj/a.ts', content: 'a\n' }, { type: 'create' }),
        bash('b1', 'git checkout -b feat', "Switched to a new branch 'feat'"),
        // Claude Code stamps the lines after the switch with the new branch.
        call('w2', 'Write', { file_path: '/proj/b.ts', content: 'b\n' }, { type: 'create' }, { branch: 'feat' }),
      ]),
    )
    expect([state.files['a.ts']?.branch, state.files['b.ts']?.branch]).toEqual(['main', 'feat'])
  })
})
