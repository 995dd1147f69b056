/** The snapshot model's and the LATEST.md renderer's fixtures (src/snapshot/model.test.ts, render.test.ts). */
import type { ErrorRecord, FileRecord } from '../../src/extract/model.js'
import type { SnapshotMeta } from '../../src/snapshot/model.js'
import { assistantText, call, jsonl, prompt, toolResult, toolUse } from './jsonl.js'

export const META: SnapshotMeta = {
  id: 'SNAP_20261128_100000_000_abcd',
  createdAt: '2026-11-28T10:00:00.000Z',
  trigger: 'stop',
  projectRoot: '/proj',
  projectName: 'proj',
  sessionId: 'sess-1',
  capture: { transcript: '/t.jsonl', bytesRead: 120, lines: 3, skipped: 0, entries: 3, restarted: false, offset: 120 },
}

/** A small session: a request, two files in the project, one outside, a todo list, a failed command, a "yes". */
export const SESSION = jsonl([
  prompt('Add a parser for the config file please', { ts: '2026-11-28T09:00:00.000Z' }),
  call('t1', 'Write', { file_path: '/proj/src/a.ts', content: 'export function parse() {}\nx\n' }),
  call('t2', 'Edit', { file_path: '/proj/src/b.ts', old_string: 'a', new_string: 'b\nc' }),
  call('t3', 'Write', { file_path: '/tmp/notes.md', content: 'n\n' }),
  call('t4', 'TodoWrite', {
    todos: [
      { content: 'write parser', status: 'completed', activeForm: 'Writing' },
      { content: 'test parser', status: 'in_progress', activeForm: 'Testing' },
      { content: 'docs', status: 'pending', activeForm: 'Documenting' },
    ],
  }),
  toolUse('t5', 'Bash', { command: 'npm test' }),
  toolResult('t5', 'FAIL src/a.test.ts', { isError: true }),
  prompt('yes'),
  assistantText('Done with the parser.'),
])

/** A file changed once by Edit; `more` sets what a test is about. */
export const file = (path: string, more: Partial<FileRecord> = {}): FileRecord => ({
  path,
  op: 'modified',
  added: 0,
  removed: 0,
  hints: [],
  changes: 1,
  tools: ['Edit'],
  lastLine: 1,
  subagent: false,
  ...more,
})

/** An unresolved failure of `npm test`. */
export const error = (message: string, more: Partial<ErrorRecord> = {}): ErrorRecord => ({
  tool: 'Bash',
  target: 'npm test',
  message,
  line: 1,
  resolved: false,
  ...more,
})
