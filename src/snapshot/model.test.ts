import { describe, expect, it } from 'vitest'
import { extractText, snapshotOf } from '../../test/helpers/extract.js'
import { ghp } from '../../test/helpers/fake-secrets.js'
import { assistantText, call, jsonl, prompt } from '../../test/helpers/jsonl.js'
import { META, SESSION, file } from '../../test/helpers/snapshot.js'
import { createState } from '../extract/extract.js'
import { CAPS, type ExtractState } from '../extract/model.js'
import { SNAPSHOT_FIELDS, SNAPSHOT_VERSION, currentTask, openTasks, taskItems, toSnapshot } from './model.js'

describe('toSnapshot from an extraction', () => {
  const { state } = extractText(SESSION)
  const s = toSnapshot(state, META)

  it('copies the meta: id, time, trigger, project, session id, capture', () => {
    expect(s.version).toBe(SNAPSHOT_VERSION)
    expect(s.id).toBe('SNAP_20261128_100000_000_abcd')
    expect(s.createdAt).toBe('2026-11-28T10:00:00.000Z')
    expect(s.trigger).toBe('stop')
    expect(s.project).toEqual({ root: '/proj', name: 'proj' })
    expect(s.capture).toEqual(META.capture)
    expect(s.seq).toBeUndefined() // the store sets it
  })

  it('takes the session facts from the transcript', () => {
    expect(s.session).toEqual({
      id: 'sess-1',
      cwd: '/proj',
      branch: 'main',
      firstTs: '2026-11-28T09:00:00.000Z',
      lastTs: state.lastTs,
      versions: ['2.1.63'],
      models: { 'claude-sonnet-4-5': 6 }, // five tool calls and one text, one line each
    })
  })

  it('keeps the substantial request as the task, past the later "yes"', () => {
    expect(s.task).toBe('Add a parser for the config file please')
    expect(s.requests.count).toBe(2)
    expect(s.requests.dropped).toBe(0)
    expect(s.requests.all.map((p) => p.text)).toEqual(['Add a parser for the config file please', 'yes'])
    expect(s.requests.recent.map((p) => p.text)).toEqual(['Add a parser for the config file please', 'yes'])
  })

  it('lists the files inside the project newest first, and the outside ones apart', () => {
    expect(s.files.map((f) => [f.path, f.op, f.added, f.removed, f.hints])).toEqual([
      ['src/b.ts', 'modified', 2, 1, []],
      ['src/a.ts', 'created', 2, 0, ['+fn parse']],
    ])
    expect(s.outsideFiles.map((f) => [f.path, f.op, f.added])).toEqual([['/tmp/notes.md', 'created', 1]])
  })

  it('takes the todo list as the tasks, and the open ones are those not completed', () => {
    expect(s.tasks).toEqual({
      source: 'TodoWrite',
      items: [
        { text: 'write parser', status: 'completed' },
        { text: 'test parser', status: 'in_progress' },
        { text: 'docs', status: 'pending' },
      ],
    })
    expect(openTasks(s).map((t) => t.text)).toEqual(['test parser', 'docs'])
  })

  it('orders tools by use, then by name', () => {
    expect(Object.entries(s.tools)).toEqual([
      ['Write', 2],
      ['Bash', 1],
      ['Edit', 1],
      ['TodoWrite', 1],
    ])
    expect(s.subagentTools).toEqual({})
  })

  it('keeps the failed command as an unresolved error', () => {
    expect(s.errors).toHaveLength(1)
    expect(s.errors[0]).toMatchObject({ tool: 'Bash', target: 'npm test', message: 'FAIL src/a.test.ts', resolved: false })
  })

  it("keeps the transcript's last assistant text, and the counts", () => {
    expect(s.lastAssistant).toEqual({ text: 'Done with the parser.', ts: state.lastTs, source: 'transcript' })
    expect(s.counts).toEqual({ entries: 13, prompts: 2, sidechainEntries: 0, apiErrors: 0, interrupts: 0 })
    expect(s.usage).toEqual({ contextTokens: 1030, outputTokens: 5, model: 'claude-sonnet-4-5', ts: state.lastTs })
    expect([s.plans, s.git, s.subagents, s.compactions, s.microcompactions, s.prLinks]).toEqual([[], [], [], [], 0, []])
  })

  it('uses only the field names it declares', () => {
    const keys = (o: object) => Object.keys(o)
    for (const k of [...keys(s), ...keys(s.project), ...keys(s.session), ...keys(s.requests), ...keys(s.tasks), ...keys(s.capture)])
      expect(SNAPSHOT_FIELDS, k).toContain(k)
  })

  it('is the same for the same input (pure)', () => {
    expect(toSnapshot(extractText(SESSION).state, META)).toEqual(toSnapshot(extractText(SESSION).state, META))
  })
})

describe('toSnapshot from an empty extraction', () => {
  it('has no task, no tasks, no last message and only the session id', () => {
    const s = toSnapshot(createState(), META)
    expect(s.session).toEqual({ id: 'sess-1', versions: [], models: {} })
    expect(s.task).toBeNull()
    expect(s.requests).toEqual({ count: 0, dropped: 0, all: [], recent: [] })
    expect(s.lastAssistant).toBeNull()
    expect(s.tasks).toEqual({ source: null, items: [] })
    expect(s.files).toEqual([])
    expect(s.outsideFiles).toEqual([])
    expect(s.usage).toBeNull()
    expect(openTasks(s)).toEqual([])
  })
})

describe('the last assistant message of the Stop payload', () => {
  const { state } = extractText(jsonl([prompt('Please rename the module'), assistantText('Renamed it.')]))

  it('replaces the transcript text when it differs (the transcript lags)', () => {
    const s = toSnapshot(state, { ...META, lastAssistantMessage: 'Renamed it, and updated the imports.' })
    expect(s.lastAssistant).toEqual({ text: 'Renamed it, and updated the imports.', source: 'hook' })
  })

  it('keeps the transcript text (with its time) when they agree', () => {
    const s = toSnapshot(state, { ...META, lastAssistantMessage: 'Renamed it.' })
    expect(s.lastAssistant).toEqual({ text: 'Renamed it.', ts: state.lastAssistant!.ts, source: 'transcript' })
  })

  it.each(['', '   \n'])('ignores a blank message %j', (msg) => {
    expect(toSnapshot(state, { ...META, lastAssistantMessage: msg }).lastAssistant?.source).toBe('transcript')
  })

  it('is the only last message when the transcript has none', () => {
    const s = toSnapshot(createState(), { ...META, lastAssistantMessage: 'Hello.' })
    expect(s.lastAssistant).toEqual({ text: 'Hello.', source: 'hook' })
  })

  it('is redacted and cut like the transcript text', () => {
    const long = `${'word '.repeat(CAPS.assistantText / 4)}Shall I commit?`
    const cut = toSnapshot(createState(), { ...META, lastAssistantMessage: long }).lastAssistant!.text
    // Its head and its tail, where the closing question sits (issue 18).
    expect(cut.length).toBeLessThanOrEqual(CAPS.assistantText)
    expect(cut).toMatch(/^word word [\s\S]*\n…\nword [\s\S]*word Shall I commit\?$/)
    // The same long text in the transcript is stored cut the same way: the two agree, the transcript's is kept.
    const { state: longState } = extractText(jsonl([prompt('Please write a lot'), assistantText(long)]))
    expect(toSnapshot(longState, { ...META, lastAssistantMessage: long }).lastAssistant?.source).toBe('transcript')
    const secret = toSnapshot(createState(), { ...META, lastAssistantMessage: `the token is ${ghp} now` }).lastAssistant!.text
    expect(secret).not.toContain(ghp)
    expect(secret).toMatch(/^the token is \[REDACTED:[^\]]+\] now$/)
  })
})

describe('currentTask', () => {
  const p = (...texts: string[]) => texts.map((text, i) => ({ line: i + 1, text }))

  it.each([
    [[], null],
    [['fix the flaky login test'], 'fix the flaky login test'],
    [['fix the flaky login test', 'yes'], 'fix the flaky login test'],
    [['fix the flaky login test', 'Go ahead!'], 'fix the flaky login test'],
    [['fix the flaky login test', 'LGTM.'], 'fix the flaky login test'],
    [['fix the flaky login test', 'thank you'], 'fix the flaky login test'],
    [['fix the flaky login test', '/review'], 'fix the flaky login test'],
    [['fix the flaky login test', 'short one'], 'fix the flaky login test'], // under 12 characters
    [['fix the flaky login test', '  now add a changelog entry  '], 'now add a changelog entry'],
    [['fix the flaky login test', '/review src/a.ts'], '/review src/a.ts'], // a command with arguments says something
    [['yes', 'ok'], 'ok'], // nothing substantial: the latest one, as written
    [['/clear'], '/clear'],
  ] as const)('in %j is %j', (texts, task) => {
    expect(currentTask(p(...texts))).toBe(task)
  })

  it('comes from the recent prompts in full, else from the shortened list', () => {
    const state = createState()
    state.prompts = p('the shortened request…')
    state.recentPrompts = p('the full request, with all its words')
    expect(toSnapshot(state, META).task).toBe('the full request, with all its words')
    state.recentPrompts = []
    expect(toSnapshot(state, META).task).toBe('the shortened request…')
  })
})

describe('taskItems', () => {
  const withTasks = (tasks: ExtractState['tasks'], todos: ExtractState['todos'] = null): ExtractState => ({ ...createState(), tasks, todos })

  it('prefers TaskCreate tasks over a todo list, in id order (numeric, then text)', () => {
    const state = withTasks(
      {
        '10': { id: '10', subject: 'ten', status: 'pending' },
        '2': { id: '2', subject: 'two', status: 'completed' },
        '1': { id: '1', subject: 'one', status: 'in_progress' },
      },
      [{ content: 'a todo', status: 'pending' }],
    )
    expect(taskItems(state)).toEqual({
      source: 'TaskCreate',
      items: [
        { id: '1', text: 'one', status: 'in_progress' },
        { id: '2', text: 'two', status: 'completed' },
        { id: '10', text: 'ten', status: 'pending' },
      ],
    })
  })

  it('takes the todo list when there are no tasks, and an empty list counts', () => {
    expect(taskItems(withTasks({}, [{ content: 'a todo', status: 'pending' }]))).toEqual({
      source: 'TodoWrite',
      items: [{ text: 'a todo', status: 'pending' }],
    })
    expect(taskItems(withTasks({}, []))).toEqual({ source: 'TodoWrite', items: [] })
    expect(taskItems(withTasks({}, null))).toEqual({ source: null, items: [] })
  })

  it('reads TaskCreate from a transcript, and its updates', () => {
    const { state } = extractText(
      jsonl([
        prompt('Plan the migration in tasks'),
        call('c1', 'TaskCreate', { subject: 'Write the migration', description: 'd' }, { task: { id: '1', subject: 'Write the migration' } }),
        call('c2', 'TaskCreate', { subject: 'Run it', description: 'd' }, { task: { id: '2', subject: 'Run it' } }),
        call('c3', 'TaskUpdate', { taskId: '1', status: 'completed' }, { success: true, taskId: '1', updatedFields: ['status'] }),
      ]),
    )
    const s = snapshotOf(state)
    expect(s.tasks).toEqual({
      source: 'TaskCreate',
      items: [
        { id: '1', text: 'Write the migration', status: 'completed' },
        { id: '2', text: 'Run it', status: 'pending' },
      ],
    })
    expect(openTasks(s)).toEqual([{ id: '2', text: 'Run it', status: 'pending' }])
  })
})

describe('file order', () => {
  it('puts the latest change first, and files changed on the same line by path', () => {
    const state = createState()
    state.files['src/z.ts'] = file('src/z.ts', { lastLine: 5 })
    state.files['src/b.ts'] = file('src/b.ts', { lastLine: 9 })
    state.files['src/a.ts'] = file('src/a.ts', { lastLine: 9 })
    state.files['README.md'] = file('README.md', { lastLine: 1 })
    expect(toSnapshot(state, META).files.map((f) => f.path)).toEqual(['src/a.ts', 'src/b.ts', 'src/z.ts', 'README.md'])
  })
})
