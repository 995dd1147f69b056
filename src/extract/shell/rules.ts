/**
 * The rules: what a command means for files. One small function per command
 * family (rm, mv/cp, sed -i, tee, curl -o, git mv/rm, the PowerShell cmdlets,
 * redirections) turns a walked command into file operations, and `shellEffects`
 * runs them over a whole command line.
 */
import path from 'node:path'
import { parseGitInvocation, parseOptions, stdinText } from './arguments.js'
import { parseScript } from './lexer.js'
import { DIRECTORY_ONLY, baseName, changeTo, fileOf, isCleanPath, joinPath, resolvePath } from './paths.js'
import { PS_ALIASES, PS_SPECS, type PsBinding, bindPs } from './powershell.js'
import type { ScriptNode, Shell, Word } from './syntax.js'
import { type ShellCommand, walkScript } from './walker.js'

export type ShellFileOp =
  | { op: 'write'; path: string; append: boolean; content?: string }
  | { op: 'edit'; path: string }
  | { op: 'delete'; path: string; recursive: boolean }
  | { op: 'move'; from: string; path: string }
  | { op: 'copy'; from: string; path: string; recursive: boolean }
  | { op: 'mkdir'; path: string }
  | { op: 'touch'; path: string }

type Emit = (op: ShellFileOp) => void

function dirForGit(c: ShellCommand, dirs: Word[]): string | null {
  let cwd = c.cwd
  for (const d of dirs) cwd = changeTo(cwd, d)
  return cwd
}

/** mv/cp/git mv: several sources or a directory-looking destination put each source inside it. */
function transfer(emit: Emit, kind: 'move' | 'copy', sources: Word[], dest: Word | undefined, intoDir: boolean, cwd: string | null, recursive: boolean): void {
  if (!dest || sources.length === 0 || !isCleanPath(dest, true)) return
  const target = resolvePath(cwd, dest.text)
  if (target === null) return
  const into = intoDir || sources.length > 1 || /[\\/]$/.test(dest.text) || DIRECTORY_ONLY.test(dest.text)
  for (const src of sources) {
    const from = fileOf(src, cwd)
    if (from === undefined) continue
    const base = baseName(src.text)
    if (into && (base === '' || base === '.' || base === '..')) continue
    const to = into ? joinPath(target, base) : target
    emit(kind === 'move' ? { op: 'move', from, path: to } : { op: 'copy', from, path: to, recursive })
  }
}

function bashRules(c: ShellCommand, emit: Emit): void {
  const file = (w: Word | undefined): string | undefined => fileOf(w, c.cwd)
  switch (c.name) {
    case 'rm': {
      const o = parseOptions(c.args)
      const recursive = o.flags.has('r') || o.flags.has('R') || o.flags.has('recursive')
      for (const w of o.positionals) {
        const p = file(w)
        if (p !== undefined) emit({ op: 'delete', path: p, recursive })
      }
      return
    }
    case 'unlink': {
      const p = file(parseOptions(c.args).positionals[0])
      if (p !== undefined) emit({ op: 'delete', path: p, recursive: false })
      return
    }
    case 'mkdir': {
      for (const w of parseOptions(c.args, 'mZ', ['mode', 'context']).positionals) {
        const p = file(w)
        if (p !== undefined) emit({ op: 'mkdir', path: p })
      }
      return
    }
    case 'touch': {
      for (const w of parseOptions(c.args, 'dtr', ['date', 'reference']).positionals) {
        const p = file(w)
        if (p !== undefined) emit({ op: 'touch', path: p })
      }
      return
    }
    case 'tee': {
      const o = parseOptions(c.args, '', ['output-error'])
      const append = o.flags.has('a') || o.flags.has('append')
      const content = stdinText(c.redirects)
      for (const w of o.positionals) {
        const p = file(w)
        if (p !== undefined) emit(writeOp(p, append, content))
      }
      return
    }
    case 'cp':
    case 'mv': {
      const o = parseOptions(c.args, 'tS', ['target-directory', 'suffix'])
      const recursive = ['r', 'R', 'a', 'recursive', 'archive'].some((f) => o.flags.has(f))
      const kind = c.name === 'mv' ? 'move' : 'copy'
      const targetDir = (o.values.get('t') ?? o.values.get('target-directory'))?.[0]
      if (targetDir) transfer(emit, kind, o.positionals, targetDir, true, c.cwd, recursive)
      else {
        const noTargetDir = o.flags.has('T') || o.flags.has('no-target-directory')
        const sources = o.positionals.slice(0, -1)
        const dest = o.positionals[o.positionals.length - 1]
        if (noTargetDir && sources.length !== 1) return
        transfer(emit, kind, sources, dest, false, c.cwd, recursive)
      }
      return
    }
    case 'sed':
      return sedRule(c, emit)
    case 'perl':
    case 'ruby':
      return scriptInPlaceRule(c, emit)
    case 'dos2unix':
    case 'unix2dos': {
      const o = parseOptions(c.args)
      if (o.flags.has('n') || o.flags.has('newfile')) return
      for (const w of o.positionals) {
        const p = file(w)
        if (p !== undefined) emit({ op: 'edit', path: p })
      }
      return
    }
    case 'truncate': {
      for (const w of parseOptions(c.args, 'sr', ['size', 'reference']).positionals) {
        const p = file(w)
        if (p !== undefined) emit({ op: 'edit', path: p })
      }
      return
    }
    case 'curl': {
      const o = parseOptions(c.args, 'AbcCdDeEFHKmoPQrtTuUwxXyYz', [
        'output',
        'data',
        'data-raw',
        'data-binary',
        'header',
        'request',
        'user',
        'user-agent',
        'cookie',
        'cookie-jar',
        'form',
        'max-time',
        'write-out',
        'proxy',
        'config',
        'referer',
        'range',
        'upload-file',
        'connect-timeout',
        'retry',
        'cacert',
        'cert',
        'key',
        'resolve',
        'dump-header',
      ])
      for (const w of [...(o.values.get('o') ?? []), ...(o.values.get('output') ?? [])]) {
        const p = file(w)
        if (p !== undefined) emit({ op: 'write', path: p, append: false })
      }
      return
    }
    case 'wget': {
      const o = parseOptions(c.args, 'OoaPeitTwUQlARDIX', ['output-document', 'output-file', 'directory-prefix', 'user-agent', 'header'])
      for (const w of [...(o.values.get('O') ?? []), ...(o.values.get('output-document') ?? [])]) {
        const p = file(w)
        if (p !== undefined) emit({ op: 'write', path: p, append: false })
      }
      return
    }
    case 'git':
      return gitFileRule(c, emit)
    default:
      return
  }
}

function writeOp(p: string, append: boolean, content: string | undefined): ShellFileOp {
  return content === undefined ? { op: 'write', path: p, append } : { op: 'write', path: p, append, content }
}

/** The file operands of an in-place editor: all of them when the script came by option, else all but the first. */
function emitInPlaceEdits(c: ShellCommand, operands: Word[], hasScript: boolean, emit: Emit): void {
  for (const w of hasScript ? operands : operands.slice(1)) {
    const p = fileOf(w, c.cwd)
    if (p !== undefined) emit({ op: 'edit', path: p })
  }
}

/** sed -i / -i.bak / -i '' / --in-place: every file operand is edited. */
function sedRule(c: ShellCommand, emit: Emit): void {
  const args = c.args
  let inPlace = false
  let hasScript = false
  const operands: Word[] = []
  for (let k = 0; k < args.length; k++) {
    const a = args[k] as Word
    const t = a.text
    if (t === '--') {
      operands.push(...args.slice(k + 1))
      break
    }
    if (a.dynamic || !t.startsWith('-') || t === '-') {
      operands.push(a)
      continue
    }
    if (t.startsWith('--')) {
      if (t === '--in-place' || t.startsWith('--in-place=')) inPlace = true
      else if (t === '--expression' || t === '--file') {
        hasScript = true
        k++
      } else if (t.startsWith('--expression=') || t.startsWith('--file=')) hasScript = true
      else if (t === '--line-length') k++
      continue
    }
    for (let j = 1; j < t.length; j++) {
      const ch = t[j]
      if (ch === 'i') {
        inPlace = true
        // BSD sed: `-i ''` (empty suffix as its own word).
        if (j === t.length - 1 && args[k + 1]?.text === '' && args[k + 1]?.quoted) k++
        break
      }
      if (ch === 'e' || ch === 'f' || ch === 'l') {
        if (ch !== 'l') hasScript = true
        if (j === t.length - 1) k++
        break
      }
    }
  }
  if (inPlace) emitInPlaceEdits(c, operands, hasScript, emit)
}

/** perl -pi -e '..' files / perl -i.bak -pe / ruby -pi -e. */
function scriptInPlaceRule(c: ShellCommand, emit: Emit): void {
  const args = c.args
  let inPlace = false
  let hasScript = false
  const operands: Word[] = []
  for (let k = 0; k < args.length; k++) {
    const a = args[k] as Word
    const t = a.text
    if (t === '--') {
      operands.push(...args.slice(k + 1))
      break
    }
    if (a.dynamic || !t.startsWith('-') || t === '-') {
      operands.push(a)
      continue
    }
    for (let j = 1; j < t.length; j++) {
      const ch = t[j]
      if (ch === 'i') {
        inPlace = true
        break // the rest of the cluster is the backup suffix
      }
      if (ch === 'e' || ch === 'E') {
        hasScript = true
        if (j === t.length - 1) k++
        break
      }
      if (ch === 'I' || ch === 'M' || ch === 'm' || ch === 'r') break // value attached
    }
  }
  if (inPlace) emitInPlaceEdits(c, operands, hasScript, emit)
}

/** git mv / git rm (dry runs and --cached excluded). */
function gitFileRule(c: ShellCommand, emit: Emit): void {
  const g = parseGitInvocation(c.args)
  if (!g) return
  const cwd = dirForGit(c, g.dirs)
  if (g.sub === 'mv') {
    const o = parseOptions(g.args)
    if (o.flags.has('n') || o.flags.has('dry-run')) return
    transfer(emit, 'move', o.positionals.slice(0, -1), o.positionals[o.positionals.length - 1], false, cwd, false)
  } else if (g.sub === 'rm') {
    const o = parseOptions(g.args, '', ['pathspec-from-file'])
    if (o.flags.has('n') || o.flags.has('dry-run') || o.flags.has('cached') || o.flags.has('pathspec-from-file')) return
    const recursive = o.flags.has('r')
    for (const w of o.positionals) {
      const p = fileOf(w, cwd)
      if (p !== undefined) emit({ op: 'delete', path: p, recursive })
    }
  }
}

// PowerShell (the cmdlet table and parameter binding are in powershell.ts) -----

function psRules(c: ShellCommand, emit: Emit): boolean {
  const kind = PS_ALIASES[c.name]
  if (!kind) return false
  const file = (w: Word | undefined): string | undefined => fileOf(w, c.cwd)
  const paths = (b: PsBinding, name = 'path'): Word[] => [...b.all(name), ...b.all('literalpath')]
  const inert = (b: PsBinding): boolean => b.switches.has('whatif')
  switch (kind) {
    case 'write':
    case 'append': {
      const b = bindPs(c.args, PS_SPECS.content)
      if (inert(b) || b.named.has('filter') || b.named.has('include')) return true
      for (const w of paths(b)) {
        const p = file(w)
        if (p !== undefined) emit({ op: 'write', path: p, append: kind === 'append' })
      }
      return true
    }
    case 'outfile':
    case 'tee': {
      const b = bindPs(c.args, kind === 'tee' ? PS_SPECS.tee : PS_SPECS.outfile)
      if (inert(b)) return true
      for (const w of paths(b, 'filepath')) {
        const p = file(w)
        if (p !== undefined) emit({ op: 'write', path: p, append: b.switches.has('append') })
      }
      return true
    }
    case 'newitem':
    case 'mkdir': {
      const b = bindPs(c.args, PS_SPECS.newitem)
      if (inert(b)) return true
      const type = kind === 'mkdir' ? 'directory' : b.first('itemtype')?.text.toLowerCase()
      const value = b.first('value')
      const targets: (string | undefined)[] = []
      const name = b.first('name')
      const bases = b.all('path')
      if (name) {
        if (!isCleanPath(name)) return true
        if (bases.length === 0) targets.push(file(name))
        for (const base of bases) {
          if (!isCleanPath(base, true)) continue
          const dir = resolvePath(c.cwd, base.text)
          targets.push(dir === null ? undefined : joinPath(dir, name.text))
        }
      } else {
        for (const w of bases) targets.push(file(w))
      }
      for (const p of targets) {
        if (p === undefined) continue
        if (type === 'directory' || type === 'd' || type === 'dir') emit({ op: 'mkdir', path: p })
        else if (type === undefined && !value) emit({ op: 'touch', path: p })
        else if (type === undefined || type === 'file' || type === 'f') {
          emit(writeOp(p, false, value && !value.dynamic ? value.text : undefined))
        }
        // SymbolicLink, HardLink, Junction: not file content
      }
      return true
    }
    case 'delete': {
      const b = bindPs(c.args, PS_SPECS.remove)
      if (inert(b) || b.named.has('filter') || b.named.has('include') || b.named.has('exclude')) return true
      const recursive = b.switches.has('recurse')
      for (const w of paths(b)) {
        const p = file(w)
        if (p !== undefined) emit({ op: 'delete', path: p, recursive })
      }
      return true
    }
    case 'move':
    case 'copy': {
      const b = bindPs(c.args, kind === 'move' ? PS_SPECS.move : PS_SPECS.copy)
      if (inert(b) || b.named.has('filter') || b.named.has('include') || b.named.has('tosession') || b.named.has('fromsession')) return true
      transfer(emit, kind, paths(b), b.first('destination'), false, c.cwd, b.switches.has('recurse'))
      return true
    }
    case 'rename': {
      const b = bindPs(c.args, PS_SPECS.rename)
      const src = paths(b)[0]
      const newName = b.first('newname')
      if (inert(b) || !src || !newName || !isCleanPath(newName)) return true
      const from = file(src)
      if (from === undefined) return true
      const windows = from.includes('\\')
      const dir = windows ? path.win32.dirname(from) : path.posix.dirname(from)
      const to = /[\\/]/.test(newName.text)
        ? resolvePath(c.cwd, newName.text)
        : dir === '.'
          ? newName.text
          : windows
            ? path.win32.join(dir, newName.text)
            : path.posix.join(dir, newName.text)
      if (to !== null) emit({ op: 'move', from, path: to })
      return true
    }
    case 'clear': {
      const b = bindPs(c.args, PS_SPECS.remove)
      if (inert(b)) return true
      for (const w of paths(b)) {
        const p = file(w)
        if (p !== undefined) emit({ op: 'edit', path: p })
      }
      return true
    }
    default:
      return true // cd / pushd / popd: handled by the walker
  }
}

// Redirections ----------------------------------------------------------------

function redirectRules(c: ShellCommand, emit: Emit): void {
  let catContent: string | undefined
  if (c.name === 'cat' && c.shell === 'bash' && c.args.every((a) => a.text === '-' || /^-[A-Za-z]+$/.test(a.text))) {
    catContent = stdinText(c.redirects)
  }
  for (const r of c.redirects) {
    const op = r.op
    if (op !== '>' && op !== '>>' && op !== '>|' && op !== '&>' && op !== '&>>' && op !== '>&') continue
    const target = r.target
    if (!target) continue
    // >&2, 2>&1, >&- duplicate descriptors; `>& file` (bash) writes both streams to file.
    if (op === '>&' && (/^\d+-?$|^-$/.test(target.text) || r.fd !== '')) continue
    const p = fileOf(target, c.cwd)
    if (p === undefined) continue
    const append = op === '>>' || op === '&>>'
    const isStdout = r.fd === '' || r.fd === '1' || op.startsWith('&')
    emit(writeOp(p, append, isStdout ? catContent : undefined))
  }
}

/** What a command line does: its file operations, in order, and the directory it leaves the shell in. */
export interface ShellEffects {
  ops: ShellFileOp[]
  /**
   * For shells that keep their directory between calls (Claude Code's Bash tool does): undefined when the
   * command changed nothing, null when it changed to a place we cannot follow (`cd "$X"`, `cd -`), else the
   * path as written (relative to where it started).
   */
  finalDirectory: string | null | undefined
}

/**
 * File operations and final directory of a Bash or PowerShell command line, from one parse (or `parsed`, as
 * `parseScript` returned it for this shell) and one walk.
 * Never throws. A rule that fails stops the file operations where they are (the ones found stay) but not the
 * walk, so the directory is still followed; a walk that fails leaves the directory unknown (null).
 */
export function shellEffects(command: string, shell: 'bash' | 'powershell', parsed?: ScriptNode[]): ShellEffects {
  const ops: ShellFileOp[] = []
  const emit: Emit = (op) => {
    ops.push(op)
  }
  let rulesFailed = false
  let cwd: string | null
  const sh: Shell = shell === 'powershell' ? 'powershell' : 'bash'
  try {
    cwd = walkScript(parsed ?? parseScript(command, sh), sh, (c) => {
      if (rulesFailed) return
      try {
        redirectRules(c, emit)
        if (c.name === '') return
        if (c.shell === 'powershell' && psRules(c, emit)) return
        bashRules(c, emit)
      } catch {
        rulesFailed = true // defensive: a rule bug must not take the capture down; keep what was found
      }
    })
  } catch {
    return { ops, finalDirectory: null }
  }
  return { ops, finalDirectory: cwd === '' ? undefined : cwd }
}

/**
 * File operations a Bash or PowerShell command line performs, in order.
 * Never throws; returns [] for anything it cannot read.
 */
export function shellFileOps(command: string, shell: 'bash' | 'powershell'): ShellFileOp[] {
  return shellEffects(command, shell).ops
}
