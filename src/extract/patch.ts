/**
 * Codex's file changes: the `apply_patch` text the model sends (`*** Begin Patch` … `*** End Patch`) and the
 * change list Codex records once it applied one (`patch_apply_end.changes`, the 0.171 `FileChange` item).
 * Pure: each becomes a list of files with their operation and changed lines, for files.ts to record.
 */
import { isObject, str } from '../shared/json.js'
import type { LineDiff } from './diff.js'
import { splitCrLf } from './diff.js'

export interface PatchedFile {
  /** As written: relative to the turn's directory, or absolute. */
  path: string
  op: 'add' | 'update' | 'delete'
  /** `*** Move to:` of an update, or `move_path` of a change. */
  moveTo?: string
  /** Undefined when the source did not say which lines changed (a delete, a change without its diff). */
  diff?: LineDiff
}

const HEADER = /^\*\*\* (Add|Update|Delete) File: (.+)$/
const MOVE = /^\*\*\* Move to: (.+)$/

/**
 * The files of an `apply_patch` text; undefined when it names none. Lenient as Codex is: the Begin/End markers
 * may be missing, blank lines in a hunk are context, an unknown line is skipped.
 */
export function parsePatch(text: string): PatchedFile[] | undefined {
  if (!text.includes('*** ')) return undefined
  const files: PatchedFile[] = []
  let current: PatchedFile | undefined
  for (const raw of splitCrLf(text)) {
    const header = HEADER.exec(raw)
    if (header) {
      const op = header[1] === 'Add' ? 'add' : header[1] === 'Update' ? 'update' : 'delete'
      current = { path: header[2]!.trim(), op }
      if (op !== 'delete') current.diff = { added: [], removed: [] }
      files.push(current)
      continue
    }
    if (!current) continue
    const move = MOVE.exec(raw)
    if (move && current.op === 'update') {
      current.moveTo = move[1]!.trim()
      continue
    }
    if (raw.startsWith('***') || raw.startsWith('@@') || !current.diff) continue
    if (raw.startsWith('+')) current.diff.added.push(raw.slice(1))
    else if (raw.startsWith('-') && current.op === 'update') current.diff.removed.push(raw.slice(1))
  }
  return files.length > 0 ? files : undefined
}

/** The lines a unified diff adds and removes (its `---`/`+++` file lines and hunk headers left out). */
export function unifiedDiffLines(diff: string): LineDiff {
  const out: LineDiff = { added: [], removed: [] }
  let inHunk = false
  for (const line of splitCrLf(diff)) {
    if (line.startsWith('@@')) {
      inHunk = true
      continue
    }
    if (!inHunk && (line.startsWith('+++') || line.startsWith('---'))) continue
    if (line.startsWith('+')) out.added.push(line.slice(1))
    else if (line.startsWith('-')) out.removed.push(line.slice(1))
  }
  return out
}

function contentLines(text: string): string[] {
  if (text === '') return []
  const lines = splitCrLf(text)
  if (text.endsWith('\n')) lines.pop()
  return lines
}

/**
 * A recorded change list `{ "<abs path>": change }`, where a change is `{type: "add", content}`,
 * `{type: "update", unified_diff, move_path}` or `{type: "delete", content?}` (0.14x and 0.171), or the older
 * externally tagged `{add: {content}}` / `{update: {unified_diff, move_path}}` / `{delete: {}}`.
 * Undefined when it is not such a list or names no file.
 */
export function changedFiles(changes: unknown): PatchedFile[] | undefined {
  if (!isObject(changes)) return undefined
  const files: PatchedFile[] = []
  for (const [path, raw] of Object.entries(changes)) {
    if (!isObject(raw) || path === '') continue
    let type = str(raw.type)
    let body: Record<string, unknown> = raw
    if (type === undefined) {
      for (const key of ['add', 'update', 'delete']) {
        const tagged = raw[key]
        if (isObject(tagged)) {
          type = key
          body = tagged
        }
      }
    }
    if (type === 'add') {
      const content = str(body.content)
      files.push({ path, op: 'add', ...(content !== undefined ? { diff: { added: contentLines(content), removed: [] } } : {}) })
    } else if (type === 'update') {
      const diff = str(body.unified_diff)
      const moveTo = str(body.move_path)
      files.push({ path, op: 'update', ...(moveTo ? { moveTo } : {}), ...(diff !== undefined ? { diff: unifiedDiffLines(diff) } : {}) })
    } else if (type === 'delete') {
      const content = str(body.content)
      files.push({ path, op: 'delete', ...(content !== undefined ? { diff: { added: [], removed: contentLines(content) } } : {}) })
    }
  }
  return files.length > 0 ? files : undefined
}
