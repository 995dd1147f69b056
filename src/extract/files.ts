/**
 * File activity: which files a session created, changed, moved or deleted, with line counts from a real
 * line diff and structural hints. Pure rules over a tool call and its result.
 */
import { isObject, str } from '../shared/json.js'
import { STORE_DIR } from '../shared/names.js'
import { baseName, fromGitBashPath, isAbsolutePath, isWindowsPath, normalizeAbsolute, relativeNormalized, resolveAgainst } from '../shared/paths.js'
import { type LineDiff, lineDiff, patchLines, splitCrLf } from './diff.js'
import { type PatchedFile, changedFiles, parsePatch } from './patch.js'
import { structuralHints } from './hints.js'
import { CAPS, type ExtractState, type FileOperation, type FileRecord, type PendingTool, type RunDelta } from './model.js'
import { type ScriptNode, type ShellFileOp, shellEffects } from './shell/index.js'

export interface FileContext {
  projectRoot: string
}

/** `apply_patch`: Codex's file tool (patch.ts reads it). */
export const FILE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'apply_patch'])
export const SHELL_TOOLS = new Set(['Bash', 'PowerShell'])

/** Names without an extension that are still files, not directories. */
const EXTENSIONLESS_FILES =
  /^(Makefile|Dockerfile|Containerfile|LICENSE|LICENCE|README|CHANGELOG|NOTICE|AUTHORS|Procfile|Gemfile|Rakefile|Justfile|Brewfile|Vagrantfile|Jenkinsfile|Caddyfile|CODEOWNERS|VERSION|\.[A-Za-z0-9_.-]+)$/

function looksLikeFileName(name: string): boolean {
  return EXTENSIONLESS_FILES.test(name) || /\.[A-Za-z0-9_-]{1,12}$/.test(name)
}

/** Rejects directories and junk tokens (`docs"`, `foo)`, flags, globs) before they become "files". */
export function plausibleFilePath(p: string): boolean {
  if (p === '' || p.length > 1024 || /[\r\n\0]/.test(p)) return false
  if (p.endsWith('/') || p.endsWith('\\')) return false
  const name = baseName(p)
  if (name === '' || name === '.' || name === '..' || name.startsWith('-')) return false
  if (/["'`()<>{}|;&$*?[\]]/.test(name)) return false
  return true
}

function linesOf(text: string): string[] {
  if (text === '') return []
  const lines = splitCrLf(text)
  if (text.endsWith('\n')) lines.pop()
  return lines
}

interface Located {
  key: string
  inside: boolean
}

function locate(state: ExtractState, ctx: FileContext, raw: string, cwd: string | null | undefined): Located | undefined {
  if (!plausibleFilePath(raw)) return undefined
  if (cwd === null && !isAbsolutePath(raw)) return undefined // relative to a directory we could not follow
  const path = isWindowsPath(ctx.projectRoot) ? fromGitBashPath(raw) : raw
  const abs = resolveAgainst(cwd ?? state.cwd ?? ctx.projectRoot, path)
  if (!abs) return undefined
  // relativeInside both ways, each path normalized once
  const root = normalizeAbsolute(ctx.projectRoot)
  const at = normalizeAbsolute(abs)
  const rel = relativeNormalized(root, at)
  // Our own store (the handoff the model writes, anything under .bookmark/) is not project work.
  if (rel !== undefined && (rel === STORE_DIR || rel.startsWith(`${STORE_DIR}/`))) return undefined
  if (rel !== undefined) return { key: rel, inside: true }
  if (relativeNormalized(at, root) !== undefined || abs === ctx.projectRoot) return undefined // an ancestor dir
  return { key: abs, inside: false }
}

function table(state: ExtractState, at: Located): Record<string, FileRecord> {
  return at.inside ? state.files : state.outside
}

function known(state: ExtractState, at: Located): FileRecord | undefined {
  return table(state, at)[at.key]
}

interface Change {
  op: FileOperation
  diff?: LineDiff
  from?: string
  tool: string
}

function mergeOp(previous: FileOperation | undefined, next: FileOperation): FileOperation {
  if (previous === undefined || next === 'deleted') return next
  if (previous === 'created' || previous === 'moved') return previous
  if (previous === 'deleted') return 'modified' // deleted, then written again
  return next === 'created' ? 'modified' : next
}

function mergeHints(existing: string[], incoming: string[]): string[] {
  const out = [...existing]
  for (const hint of incoming) {
    const sign = hint[0]
    const body = hint.slice(1)
    const plus = out.indexOf('+' + body)
    const minus = out.indexOf('-' + body)
    if (sign === '-' && plus !== -1) {
      out.splice(plus, 1) // added and removed again within the session: nothing to report
      continue
    }
    if (sign === '+' && minus !== -1) {
      out[minus] = '~' + body
      continue
    }
    if (sign === '~' && plus !== -1) continue // added in this session, then changed: still an addition
    if (sign === '~' && minus !== -1) {
      out[minus] = hint
      continue
    }
    if (!out.includes(hint) && !out.includes('~' + body)) out.push(hint)
  }
  return out.slice(0, CAPS.hints)
}

/**
 * How many records a table holds. Counting the keys of a table of up to 2,000 for every new file was a visible
 * cost; the count is kept by the only writers of the tables (`record`, and a move through `put` and `remove`) and
 * counted once for a table not seen before (a state read back from its cursor).
 */
const tableSizes = new WeakMap<Record<string, FileRecord>, number>()

function sizeOf(files: Record<string, FileRecord>): number {
  let n = tableSizes.get(files)
  if (n === undefined) {
    n = Object.keys(files).length
    tableSizes.set(files, n)
  }
  return n
}

/**
 * The keys of a table's records by their `lastLine`: a success settles the errors on the files its own call
 * changed (errors.ts), and scanning every record for each call of a long session was a large share of a first
 * capture. Kept by the same writers as the sizes; built once for a table not seen before.
 */
const tableLines = new WeakMap<Record<string, FileRecord>, Map<number, Set<string>>>()

function byLine(files: Record<string, FileRecord>): Map<number, Set<string>> {
  let lines = tableLines.get(files)
  if (lines === undefined) {
    lines = new Map()
    for (const [key, rec] of Object.entries(files)) addLine(lines, rec.lastLine, key)
    tableLines.set(files, lines)
  }
  return lines
}

function addLine(lines: Map<number, Set<string>>, line: number, key: string): void {
  const keys = lines.get(line)
  if (keys) keys.add(key)
  else lines.set(line, new Set([key]))
}

function dropLine(lines: Map<number, Set<string>>, line: number, key: string): void {
  const keys = lines.get(line)
  if (keys?.delete(key) && keys.size === 0) lines.delete(line)
}

/** The records of a table whose last change was on transcript line `line`. */
export function changedOn(files: Record<string, FileRecord>, line: number): FileRecord[] {
  const keys = byLine(files).get(line)
  if (keys === undefined) return []
  const out: FileRecord[] = []
  for (const key of keys) {
    const rec = files[key]
    if (rec !== undefined) out.push(rec)
  }
  return out
}

function put(files: Record<string, FileRecord>, key: string, rec: FileRecord): void {
  const lines = byLine(files)
  const prev = files[key]
  if (prev === undefined) tableSizes.set(files, sizeOf(files) + 1)
  else dropLine(lines, prev.lastLine, key)
  files[key] = rec
  addLine(lines, rec.lastLine, key)
}

function remove(files: Record<string, FileRecord>, key: string): void {
  const prev = files[key]
  if (prev === undefined) return
  tableSizes.set(files, sizeOf(files) - 1)
  dropLine(byLine(files), prev.lastLine, key)
  delete files[key]
}

function record(state: ExtractState, delta: RunDelta, at: Located, change: Change, tool: Pick<PendingTool, 'ts' | 'line' | 'sidechain'>): void {
  const files = table(state, at)
  const prev = files[at.key]
  if (prev === undefined && sizeOf(files) >= CAPS.files) return
  const rec: FileRecord = prev ?? {
    path: at.key,
    op: change.op,
    added: 0,
    removed: 0,
    hints: [],
    changes: 0,
    tools: [],
    lastLine: tool.line,
    subagent: tool.sidechain,
  }
  rec.op = mergeOp(prev?.op, change.op)
  if (change.from !== undefined) rec.from = change.from
  if (change.diff) {
    rec.added += change.diff.added.length
    rec.removed += change.diff.removed.length
    rec.hints = mergeHints(rec.hints, structuralHints(at.key, change.diff))
  }
  rec.changes++
  if (!rec.tools.includes(change.tool)) rec.tools.push(change.tool)
  if (tool.ts !== undefined) rec.lastTs = tool.ts
  const lines = byLine(files)
  if (prev !== undefined) dropLine(lines, prev.lastLine, at.key)
  rec.lastLine = tool.line
  addLine(lines, rec.lastLine, at.key)
  // Where the change was made: a branch switched away from leaves it there (snapshot/ledger.ts).
  if (state.branch !== undefined) rec.branch = state.branch
  else delete rec.branch
  rec.subagent = rec.subagent && tool.sidechain
  if (prev === undefined) tableSizes.set(files, sizeOf(files) + 1)
  files[at.key] = rec
  if (at.inside) delta.touched.add(at.key)
}

/** A file tool (Write, Edit, MultiEdit, NotebookEdit) whose result came back without error. */
export function applyFileTool(state: ExtractState, ctx: FileContext, delta: RunDelta, tool: PendingTool, result: unknown): void {
  if (tool.name === 'apply_patch') return applyPatchTool(state, ctx, delta, tool, result)
  const input = tool.input
  const rawPath = str(input.file_path) ?? str(input.notebook_path) ?? (isObject(result) ? str(result.filePath) : undefined)
  if (!rawPath) return
  const at = locate(state, ctx, rawPath, tool.cwd)
  if (!at) return
  const res = isObject(result) ? result : {}
  const patched = patchLines(res.structuredPatch)
  switch (tool.name) {
    case 'Write': {
      const content = str(input.content) ?? ''
      const created = res.type === 'create' || (res.type === undefined && !known(state, at))
      if (created) {
        record(state, delta, at, { op: 'created', diff: { added: linesOf(content), removed: [] }, tool: 'Write' }, tool)
      } else {
        const original = str(res.originalFile)
        const diff =
          patched && patched.added.length + patched.removed.length > 0 ? patched : original !== undefined ? lineDiff(original, content) : (patched ?? undefined)
        record(state, delta, at, { op: 'modified', ...(diff ? { diff } : {}), tool: 'Write' }, tool)
      }
      return
    }
    case 'Edit': {
      const diff = patched ?? lineDiff(str(input.old_string) ?? '', str(input.new_string) ?? '')
      record(state, delta, at, { op: 'modified', diff, tool: 'Edit' }, tool)
      return
    }
    case 'MultiEdit': {
      let diff = patched
      if (!diff) {
        diff = { added: [], removed: [] }
        const edits = Array.isArray(input.edits) ? input.edits : []
        for (const e of edits) {
          if (!isObject(e)) continue
          const d = lineDiff(str(e.old_string) ?? '', str(e.new_string) ?? '')
          diff.added.push(...d.added)
          diff.removed.push(...d.removed)
        }
      }
      record(state, delta, at, { op: 'modified', diff, tool: 'MultiEdit' }, tool)
      return
    }
    case 'NotebookEdit': {
      const source = str(input.new_source) ?? ''
      const mode = str(input.edit_mode) ?? 'replace'
      const diff: LineDiff = mode === 'delete' ? { added: [], removed: [] } : { added: linesOf(source), removed: [] }
      record(state, delta, at, { op: 'modified', diff, tool: 'NotebookEdit' }, tool)
      return
    }
  }
}

/**
 * Codex's `apply_patch` that applied: the change list Codex recorded (`result.changes`, absolute paths) when the
 * result carried it, else the patch text (`input.patch`, paths relative to the turn's directory). A change
 * without its lines takes them from the patch text's entry for the same file.
 */
function applyPatchTool(state: ExtractState, ctx: FileContext, delta: RunDelta, tool: PendingTool, result: unknown): void {
  const text = str(tool.input.patch)
  const fromText = text !== undefined ? parsePatch(text) : undefined
  const recorded = isObject(result) ? changedFiles(result.changes) : undefined
  const textAt = (f: PatchedFile): Located | undefined => locate(state, ctx, f.path, tool.cwd)
  for (const f of recorded ?? fromText ?? []) {
    const at = textAt(f)
    if (!at) continue
    let diff = f.diff
    if (diff === undefined && recorded && fromText) diff = fromText.find((t) => textAt(t)?.key === at.key)?.diff
    const change = (op: FileOperation): Change => ({ op, ...(diff ? { diff } : {}), tool: 'apply_patch' })
    if (f.op === 'add') record(state, delta, at, change('created'), tool)
    else if (f.op === 'delete') record(state, delta, at, change('deleted'), tool)
    else if (f.moveTo === undefined) record(state, delta, at, change('modified'), tool)
    else {
      const dest = locate(state, ctx, f.moveTo, tool.cwd)
      if (!dest) continue
      const before = known(state, at)
      if (before) {
        remove(table(state, at), at.key)
        put(table(state, dest), dest.key, { ...before, path: dest.key, from: before.from ?? at.key, op: before.op === 'created' ? 'created' : 'moved' })
        if (at.inside) delta.touched.add(at.key)
      }
      record(state, delta, dest, { ...change(before?.op === 'created' ? 'created' : 'moved'), from: before?.from ?? at.key }, tool)
    }
  }
}

/** A shell call with the directory its relative paths resolve against (null: unknown). */
type ShellTool = Omit<PendingTool, 'cwd'> & { cwd: string | null | undefined }

/**
 * A Bash or PowerShell command that ran without error: files it wrote, moved, copied or deleted.
 * `parsed`: the command as `parseScript` gave it for the tool's shell, when the caller has it already.
 */
export function applyShellTool(state: ExtractState, ctx: FileContext, delta: RunDelta, tool: PendingTool, parsed?: ScriptNode[]): void {
  const command = str(tool.input.command)
  if (!command) return
  const { ops, finalDirectory: after } = shellEffects(command, tool.name === 'PowerShell' ? 'powershell' : 'bash', parsed)
  // The main thread's shell keeps its directory between calls; a subagent's shell is its own.
  const shellCwd = tool.sidechain ? tool.cwd : state.shellCwd === undefined ? tool.cwd : state.shellCwd
  for (const op of ops) applyShellOp(state, ctx, delta, { ...tool, cwd: shellCwd }, op)
  if (tool.sidechain || after === undefined) return
  if (after === null || after.startsWith('~') || shellCwd === null) {
    state.shellCwd = after !== null && isAbsolutePath(after) ? after : null
    return
  }
  const base = shellCwd ?? state.cwd ?? ctx.projectRoot
  const target = isWindowsPath(base) || isWindowsPath(ctx.projectRoot) ? fromGitBashPath(after) : after
  state.shellCwd = resolveAgainst(base, target) ?? null
}

const SHELL_RESET = 'Shell cwd was reset to '

/** Claude Code tells when it moved the shell back: "Shell cwd was reset to <dir>". */
export function noteShellReset(state: ExtractState, resultText: string): void {
  if (!resultText.includes(SHELL_RESET)) return // the literal is found faster than the pattern fails
  const m = /Shell cwd was reset to (.+?)\s*$/m.exec(resultText)
  if (m && m[1]) state.shellCwd = m[1]
}

function applyShellOp(state: ExtractState, ctx: FileContext, delta: RunDelta, tool: ShellTool, op: ShellFileOp): void {
  const name = tool.name
  switch (op.op) {
    case 'mkdir':
      return // directories are never recorded as files
    case 'write': {
      const at = locate(state, ctx, op.path, tool.cwd)
      if (!at) return
      const isNew = !op.append && !known(state, at)
      const diff: LineDiff | undefined = op.content !== undefined ? { added: linesOf(op.content), removed: [] } : undefined
      record(state, delta, at, { op: isNew ? 'created' : 'modified', ...(diff ? { diff } : {}), tool: name }, tool)
      return
    }
    case 'edit': {
      const at = locate(state, ctx, op.path, tool.cwd)
      if (at) record(state, delta, at, { op: 'modified', tool: name }, tool)
      return
    }
    case 'touch': {
      const at = locate(state, ctx, op.path, tool.cwd)
      if (at && !known(state, at)) record(state, delta, at, { op: 'created', tool: name }, tool)
      return
    }
    case 'delete': {
      const at = locate(state, ctx, op.path, tool.cwd)
      if (!at) return
      if (op.recursive && !known(state, at) && !looksLikeFileName(baseName(op.path))) return
      record(state, delta, at, { op: 'deleted', tool: name }, tool)
      return
    }
    case 'copy':
    case 'move': {
      const src = locate(state, ctx, op.from, tool.cwd)
      let destRaw = op.path
      const srcName = baseName(op.from)
      const srcKnown = src ? known(state, src) : undefined
      if (!srcKnown && !looksLikeFileName(srcName)) return // most likely a directory
      if (!looksLikeFileName(baseName(destRaw)) && looksLikeFileName(srcName)) destRaw = `${destRaw.replace(/[\\/]+$/, '')}/${srcName}`
      const dest = locate(state, ctx, destRaw, tool.cwd)
      if (!dest) return
      const fromKey = src?.key ?? op.from
      if (op.op === 'move') {
        if (src && srcKnown) {
          remove(table(state, src), src.key)
          const carried: FileRecord = { ...srcKnown, path: dest.key, from: srcKnown.from ?? fromKey }
          if (srcKnown.op !== 'created') carried.op = 'moved'
          put(table(state, dest), dest.key, carried)
          record(state, delta, dest, { op: carried.op, tool: name }, tool)
          if (src.inside) delta.touched.add(src.key)
        } else {
          record(state, delta, dest, { op: 'moved', from: fromKey, tool: name }, tool)
        }
      } else {
        record(state, delta, dest, { op: known(state, dest) ? 'modified' : 'created', from: fromKey, tool: name }, tool)
      }
      return
    }
  }
}
