/**
 * Shell command analysis: which files a Bash or PowerShell command line writes,
 * edits, deletes, moves, copies, creates or touches.
 *
 * Pure string work. The pipeline inside this module is
 *   lex (quotes, escapes, heredocs, substitutions) -> simple commands
 *   -> walk (prefixes, `cd` tracking, subshell scopes, `bash -c` recursion)
 *   -> rules (one small function per command family).
 * The lexer and walker are exported for the git extractor, which reads the same
 * commands (see git.ts).
 *
 * Paths are returned as written. After a `cd DIR` (or pushd, Set-Location, `git -C`)
 * relative paths are joined with DIR; after a `cd` we cannot follow (`cd "$X"`,
 * `cd -`), relative paths are dropped rather than guessed. `~` and `~/x` are kept
 * literally (`~/x`), never expanded; `~user/x` is dropped.
 */
import path from 'node:path'
import { MAX_DEPTH, parseScript } from './lexer.js'
import type { Redirect, ScriptNode, Shell, SimpleCommand, Word } from './syntax.js'

export { parseScript } from './lexer.js'
export type { Heredoc, Redirect, ScriptNode, Shell, SimpleCommand, Word } from './syntax.js'

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/

export type ShellFileOp =
  | { op: 'write'; path: string; append: boolean; content?: string }
  | { op: 'edit'; path: string }
  | { op: 'delete'; path: string; recursive: boolean }
  | { op: 'move'; from: string; path: string }
  | { op: 'copy'; from: string; path: string; recursive: boolean }
  | { op: 'mkdir'; path: string }
  | { op: 'touch'; path: string }

// ---------------------------------------------------------------------------
// Walker: prefixes, directory tracking, nested shells
// ---------------------------------------------------------------------------

/** A command as it runs: prefixes stripped, the directory it runs in known when possible. */
export interface ShellCommand {
  /** Command name: basename, `.exe` stripped; lower-cased for PowerShell. '' when none or unknown. */
  name: string
  args: Word[]
  redirects: Redirect[]
  /** '' = the directory the whole command started in; null = unknown (a `cd` we could not follow). */
  cwd: string | null
  shell: Shell
}

interface Scope {
  cwd: string | null
  stack: (string | null)[]
}

function cloneScope(scope: Scope): Scope {
  return { cwd: scope.cwd, stack: [...scope.stack] }
}

/**
 * Calls `visit` for every command the string runs, in order, including commands in
 * $(..), subshells and `bash -c '..'` / `pwsh -Command '..'` strings. Never throws.
 * `parsed`: the command as `parseScript(command, shell)` returned it, when the caller has it already.
 */
export function forEachCommand(command: string, shell: Shell, visit: (command: ShellCommand) => void, parsed?: ScriptNode[]): void {
  walk(parsed ?? parseScript(command, shell), shell, { cwd: '', stack: [] }, visit, 0)
}

function walk(nodes: ScriptNode[], shell: Shell, scope: Scope, visit: (c: ShellCommand) => void, depth: number): void {
  const saved: Scope[] = []
  let cur = scope
  for (const node of nodes) {
    if (node.kind === 'open') {
      saved.push(cur)
      cur = cloneScope(cur)
    } else if (node.kind === 'close') {
      cur = saved.pop() ?? cur
    } else {
      walkSimple(node, shell, cur, visit, depth)
    }
  }
}

const BASH_FAMILY = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash'])

function walkSimple(node: SimpleCommand, shell: Shell, scope: Scope, visit: (c: ShellCommand) => void, depth: number): void {
  // Substitutions run first, each in its own subshell.
  if (depth < MAX_DEPTH) {
    for (const w of node.words) for (const sub of w.subs) walk(sub, shell, cloneScope(scope), visit, depth + 1)
    for (const r of node.redirects) for (const sub of r.target?.subs ?? []) walk(sub, shell, cloneScope(scope), visit, depth + 1)
  }
  // A pipeline member runs in a subshell: its `cd` does not last.
  const here = node.pipeIn || node.pipeOut ? cloneScope(scope) : scope
  const argv = stripPrefixes(node.words, shell)
  let cwd = here.cwd
  for (const dir of argv.chdir) cwd = changeTo(cwd, dir)
  visit({ name: argv.name, args: argv.args, redirects: node.redirects, cwd, shell })
  applyDirectoryChange(here, argv.name, argv.args, shell)
  if (depth >= 3) return
  if (BASH_FAMILY.has(argv.name)) {
    const script = shellCommandString(argv.args)
    if (script) walk(parseScript(script, 'bash'), 'bash', { cwd, stack: [] }, visit, depth + 1)
  } else if (argv.name === 'pwsh' || argv.name === 'powershell') {
    const script = powershellCommandString(argv.args)
    if (script) walk(parseScript(script, 'powershell'), 'powershell', { cwd, stack: [] }, visit, depth + 1)
  }
}

/** `bash -c 'script'` / `bash -lc 'script'`: the script text, when it is literal enough to read. */
function shellCommandString(args: Word[]): string | undefined {
  let hasC = false
  for (let k = 0; k < args.length; k++) {
    const a = args[k] as Word
    const t = a.text
    if (t === '--') continue
    if (t === '-o' || t === '-O' || t === '+O' || t === '--rcfile' || t === '--init-file') {
      k++
      continue
    }
    if (/^[-+][A-Za-z]+$/.test(t)) {
      if (t.startsWith('-') && t.includes('c')) hasC = true
      continue
    }
    if (t.startsWith('--')) continue
    // The first operand: the script when -c was given, else a script file.
    if (!hasC || a.subs.length > 0) return undefined
    return t
  }
  return undefined
}

function powershellCommandString(args: Word[]): string | undefined {
  for (let k = 0; k < args.length; k++) {
    const t = (args[k] as Word).text.toLowerCase()
    if (t === '-c' || (t.length >= 4 && '-command'.startsWith(t))) {
      const rest = args.slice(k + 1)
      if (rest.some((w) => w.subs.length > 0)) return undefined
      return rest.map((w) => w.text).join(' ')
    }
    if (t === '-encodedcommand' || t === '-e' || t === '-ec' || t === '-file' || t === '-f') return undefined
  }
  return undefined
}

export function commandName(text: string, shell: Shell): string {
  let name = text.replace(/^.*[\\/]/, '')
  if (/\.exe$/i.test(name)) name = name.slice(0, -4)
  return shell === 'powershell' ? name.toLowerCase() : name
}

const KEYWORDS = new Set(['!', '{', '}', 'then', 'do', 'else', 'elif', 'if', 'while', 'until', 'fi', 'done', 'esac'])
const NOT_A_COMMAND = new Set(['for', 'select', 'case', 'function', 'coproc'])

interface Argv {
  name: string
  args: Word[]
  /** Directories the command switches to before running (env -C, sudo -D, wsl --cd). */
  chdir: Word[]
}

/** Drops assignments, keywords and wrapper commands (sudo, env, time, ...) in front of the real command. */
function stripPrefixes(words: Word[], shell: Shell): Argv {
  const none: Argv = { name: '', args: [], chdir: [] }
  const chdir: Word[] = []
  let k = 0
  const at = (j: number): string => words[j]?.text ?? ''
  // Skip options of a wrapper; `withValue` lists the options that take a value.
  const skipOptions = (withValue: RegExp, chdirOption?: RegExp): void => {
    while (k < words.length) {
      const t = at(k)
      if (t === '--') {
        k++
        return
      }
      if (!t.startsWith('-') || t === '-') return
      if (chdirOption?.test(t)) {
        const eq = t.indexOf('=')
        if (eq >= 0) chdir.push({ ...(words[k] as Word), text: t.slice(eq + 1) })
        else if (words[k + 1]) chdir.push(words[k + 1] as Word)
        k += eq >= 0 ? 1 : 2
        continue
      }
      k += withValue.test(t) ? 2 : 1
    }
  }
  for (let guard = 0; guard < 64; guard++) {
    if (shell === 'bash') while (k < words.length && isAssignment(words[k] as Word)) k++
    const w = words[k]
    if (!w) return { ...none, chdir }
    if (w.dynamic) return { ...none, chdir }
    const name = commandName(w.text, shell)
    if (shell === 'powershell') return { name, args: words.slice(k + 1), chdir }
    if (KEYWORDS.has(w.text) && !w.quoted) {
      k++
      continue
    }
    if (NOT_A_COMMAND.has(w.text) && !w.quoted) return none
    switch (name) {
      case 'time':
        k++
        if (at(k) === '-p') k++
        continue
      case 'sudo':
      case 'doas':
        k++
        skipOptions(/^-[ughpCrtUTR]$|^--(user|group|host|prompt|close-from|role|type|other-user|command-timeout)$/, /^(-D|--chdir(=.*)?)$/)
        continue
      case 'env':
        k++
        while (k < words.length) {
          const t = at(k)
          if (t === '-u' || t === '--unset') k += 2
          else if (t === '-C' || t === '--chdir') {
            if (words[k + 1]) chdir.push(words[k + 1] as Word)
            k += 2
          } else if (t.startsWith('--chdir=')) {
            chdir.push({ ...(words[k] as Word), text: t.slice('--chdir='.length) })
            k++
          } else if (t === '-S' || t.startsWith('--split-string')) return none
          else if (t === '--') {
            k++
            break
          } else if (t.startsWith('-') && t !== '-') k++
          else if (isAssignment(words[k] as Word)) k++
          else break
        }
        continue
      case 'command':
        k++
        if (at(k) === '-v' || at(k) === '-V') return none
        if (at(k) === '-p') k++
        continue
      case 'builtin':
      case 'nohup':
      case 'noglob':
        k++
        continue
      case 'exec':
        k++
        skipOptions(/^-a$/)
        continue
      case 'nice':
        k++
        skipOptions(/^(-n|--adjustment)$/)
        continue
      case 'ionice':
        k++
        skipOptions(/^-[cnp]$/)
        continue
      case 'stdbuf':
        k++
        skipOptions(/^-[ioe]$/)
        continue
      case 'timeout':
        k++
        skipOptions(/^(-s|-k|--signal|--kill-after)$/)
        k++ // the duration
        continue
      case 'wsl':
        k++
        while (k < words.length) {
          const t = at(k)
          if (t === '-e' || t === '--exec' || t === '--') {
            k++
            break
          }
          if (t === '--cd') {
            if (words[k + 1]) chdir.push(words[k + 1] as Word)
            k += 2
          } else if (/^(-d|--distribution|-u|--user|--shell-type)$/.test(t)) k += 2
          else if (t.startsWith('-')) k++
          else break
        }
        continue
      case 'xargs':
      case 'watch':
      case 'parallel':
        return none // arguments come from elsewhere
      default:
        return { name, args: words.slice(k + 1), chdir }
    }
  }
  return none
}

function isAssignment(w: Word): boolean {
  if (!ASSIGNMENT.test(w.text)) return false
  // The name part must be unquoted: "A=b" is a command name, A="b" an assignment.
  return ASSIGNMENT.test(w.raw)
}

function changeTo(cwd: string | null, dir: Word | undefined): string | null {
  if (!dir || !isCleanPath(dir, true)) return null
  return resolvePath(cwd, dir.text)
}

function applyDirectoryChange(scope: Scope, name: string, args: Word[], shell: Shell): void {
  if (shell === 'powershell') {
    const kind = PS_ALIASES[name]
    if (kind !== 'cd' && kind !== 'pushd' && kind !== 'popd') return
    if (kind === 'popd') {
      scope.cwd = scope.stack.length > 0 ? (scope.stack.pop() ?? null) : scope.cwd
      return
    }
    const b = bindPs(args, PS_SPECS.cd)
    const target = b.first('path') ?? b.first('literalpath')
    if (kind === 'pushd') scope.stack.push(scope.cwd)
    if (!target) {
      if (kind === 'cd') scope.cwd = '~'
      return
    }
    scope.cwd = target.text === '-' || target.text === '+' ? null : changeTo(scope.cwd, target)
    return
  }
  if (name === 'cd' || name === 'pushd' || name === 'chdir') {
    const operands = args.filter((a) => !/^-[LPe@]+$/.test(a.text) && a.text !== '--')
    const target = operands[0]
    if (name === 'pushd') {
      if (!target || /^[-+]\d+$/.test(target.text)) {
        scope.cwd = null
        return
      }
      scope.stack.push(scope.cwd)
    }
    if (!target) scope.cwd = '~'
    else if (target.text === '-') scope.cwd = null
    else scope.cwd = changeTo(scope.cwd, target)
    return
  }
  if (name === 'popd') {
    if (args.length > 0) scope.cwd = null
    else if (scope.stack.length > 0) scope.cwd = scope.stack.pop() ?? null
  }
}

// ---------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------

const DIRECTORY_ONLY = /^(?:\.{1,2}|~|[\\/]+|[A-Za-z]:[\\/]?)$/
const PS_PROVIDER = /^[A-Za-z][A-Za-z0-9]+:/ // Env:\X, HKLM:\..., Variable:x (drives are one letter)

/**
 * A word usable as a literal path: no expansions, globs, stray quotes or brackets,
 * flags, devices or URLs. `allowDir` admits `.`, `..`, `~`, `/` (cd targets, destinations).
 */
function isCleanPath(w: Word, allowDir = false): boolean {
  if (w.dynamic || w.glob) return false
  const t = w.text
  if (t.length === 0 || t.length > 4096 || t.trim() !== t) return false
  if (t.startsWith('-')) return false
  // Control characters, quotes, brackets, operators, globs: never part of a path we report.
  if (/[\x00-\x1f\x7f"'`$(){}<>|;&*?]/.test(t)) return false
  if (t.startsWith('~') && !/^~(?:$|[\\/])/.test(t)) return false
  if (/^\/dev(\/|$)|^\/proc\/self\/fd\//.test(t)) return false
  if (t.includes('://')) return false
  if (PS_PROVIDER.test(t) && !/^[A-Za-z]:/.test(t)) return false
  if (/^(?:nul|con|prn|aux)(?::)?$/i.test(t)) return false
  if (!allowDir && DIRECTORY_ONLY.test(t)) return false
  return true
}

function isAbsoluteLike(p: string): boolean {
  return /^(?:[\\/]|[A-Za-z]:|~(?:$|[\\/]))/.test(p)
}

function joinPath(dir: string, p: string): string {
  return dir.includes('\\') || p.includes('\\') ? path.win32.join(dir, p) : path.posix.join(dir, p)
}

/** `p` as written, or joined with the directory a `cd` moved to; undefined when that directory is unknown. */
function resolvePath(cwd: string | null, p: string): string | null {
  if (isAbsoluteLike(p) || cwd === '') return p
  if (cwd === null) return null
  return joinPath(cwd, p)
}

function fileOf(w: Word | undefined, cwd: string | null): string | undefined {
  if (!w || !isCleanPath(w)) return undefined
  return resolvePath(cwd, w.text) ?? undefined
}

function baseName(p: string): string {
  const trimmed = p.replace(/[\\/]+$/, '')
  return trimmed.includes('\\') ? path.win32.basename(trimmed) : path.posix.basename(trimmed)
}

// ---------------------------------------------------------------------------
// Option parsing shared by the rules (and by git.ts)
// ---------------------------------------------------------------------------

export interface ParsedOptions {
  flags: Set<string>
  values: Map<string, Word[]>
  positionals: Word[]
}

/**
 * GNU-style options. `short`: letters that take a value (`-t DIR`, `-tDIR`);
 * `long`: long names that take a value (`--target-directory DIR`); `--x=v` always works.
 */
export function parseOptions(args: Word[], short = '', long: readonly string[] = []): ParsedOptions {
  const flags = new Set<string>()
  const values = new Map<string, Word[]>()
  const positionals: Word[] = []
  const add = (key: string, w: Word | undefined): void => {
    flags.add(key)
    if (!w) return
    const list = values.get(key)
    if (list) list.push(w)
    else values.set(key, [w])
  }
  for (let k = 0; k < args.length; k++) {
    const a = args[k] as Word
    const t = a.text
    if (t === '--') {
      positionals.push(...args.slice(k + 1))
      break
    }
    if (a.dynamic || !t.startsWith('-') || t === '-') {
      positionals.push(a)
      continue
    }
    if (t.startsWith('--')) {
      const eq = t.indexOf('=')
      if (eq >= 0) add(t.slice(2, eq), { ...a, text: t.slice(eq + 1) })
      else if (long.includes(t.slice(2))) add(t.slice(2), args[++k])
      else flags.add(t.slice(2))
      continue
    }
    for (let c = 1; c < t.length; c++) {
      const ch = t[c] as string
      if (short.includes(ch)) {
        const rest = t.slice(c + 1)
        add(ch, rest.length > 0 ? { ...a, text: rest } : args[++k])
        break
      }
      flags.add(ch)
    }
  }
  return { flags, values, positionals }
}

/** `git [-C dir] [-c k=v] [--no-pager] ... <sub> args`: the subcommand, its args and the -C dirs. */
export interface GitInvocation {
  sub: string
  args: Word[]
  dirs: Word[]
}

export function parseGitInvocation(args: Word[]): GitInvocation | undefined {
  const dirs: Word[] = []
  let k = 0
  while (k < args.length) {
    const t = (args[k] as Word).text
    if (t === '-C') {
      const d = args[k + 1]
      if (d) dirs.push(d)
      k += 2
    } else if (/^(-c|--git-dir|--work-tree|--namespace|--config-env|--super-prefix)$/.test(t)) {
      k += 2
    } else if (t.startsWith('-')) {
      k++
    } else break
  }
  const sub = args[k]
  if (!sub || sub.dynamic) return undefined
  return { sub: sub.text, args: args.slice(k + 1), dirs }
}

/** Standard input text when it is a heredoc or here-string the shell passes literally. */
export function stdinText(redirects: Redirect[]): string | undefined {
  let text: string | undefined
  for (const r of redirects) {
    if (r.fd !== '' && r.fd !== '0') continue
    if (r.heredoc) {
      const h = r.heredoc
      text = h.body !== undefined && (h.quoted || !/[$`\\]/.test(h.body)) ? h.body : undefined
    } else if (r.op === '<<<') {
      text = r.target && !r.target.dynamic ? r.target.text + '\n' : undefined
    } else if (r.op === '<') {
      text = undefined
    }
  }
  return text
}

/** The body of `$(cat <<'EOF' ... EOF)` when the word is exactly that substitution. */
export function heredocSubstitution(w: Word): string | undefined {
  const t = w.text.trim()
  if (w.subs.length !== 1 || !t.startsWith('$(') || !t.endsWith(')')) return undefined
  for (const node of w.subs[0] ?? []) {
    if (node.kind !== 'simple') continue
    if (node.words[0]?.text !== 'cat' || node.words.length !== 1) continue
    const h = node.redirects.find((r) => r.heredoc?.body !== undefined)?.heredoc
    if (h?.body !== undefined) return h.body
  }
  return undefined
}

// ---------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------

type Emit = (op: ShellFileOp) => void

function dirForGit(c: ShellCommand, dirs: Word[]): string | null {
  let cwd = c.cwd
  for (const d of dirs) cwd = changeTo(cwd, d)
  return cwd
}

/** mv/cp/git mv: several sources or a directory-looking destination put each source inside it. */
function transfer(
  emit: Emit,
  kind: 'move' | 'copy',
  sources: Word[],
  dest: Word | undefined,
  intoDir: boolean,
  cwd: string | null,
  recursive: boolean,
): void {
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
        'output', 'data', 'data-raw', 'data-binary', 'header', 'request', 'user', 'user-agent', 'cookie',
        'cookie-jar', 'form', 'max-time', 'write-out', 'proxy', 'config', 'referer', 'range', 'upload-file',
        'connect-timeout', 'retry', 'cacert', 'cert', 'key', 'resolve', 'dump-header',
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

// PowerShell -----------------------------------------------------------------

type PsKind = 'write' | 'append' | 'outfile' | 'tee' | 'newitem' | 'mkdir' | 'delete' | 'move' | 'rename' | 'copy' | 'clear' | 'cd' | 'pushd' | 'popd'

const PS_ALIASES: Record<string, PsKind> = {
  'set-content': 'write',
  'add-content': 'append',
  ac: 'append',
  'out-file': 'outfile',
  'tee-object': 'tee',
  tee: 'tee',
  'new-item': 'newitem',
  ni: 'newitem',
  mkdir: 'mkdir',
  md: 'mkdir',
  'remove-item': 'delete',
  rm: 'delete',
  del: 'delete',
  erase: 'delete',
  ri: 'delete',
  rd: 'delete',
  rmdir: 'delete',
  'move-item': 'move',
  mv: 'move',
  move: 'move',
  mi: 'move',
  'rename-item': 'rename',
  ren: 'rename',
  rni: 'rename',
  'copy-item': 'copy',
  cp: 'copy',
  copy: 'copy',
  cpi: 'copy',
  'clear-content': 'clear',
  clc: 'clear',
  'set-location': 'cd',
  cd: 'cd',
  sl: 'cd',
  chdir: 'cd',
  'push-location': 'pushd',
  pushd: 'pushd',
  'pop-location': 'popd',
  popd: 'popd',
}

interface PsSpec {
  /** Parameters that take a value, by full lower-case name. */
  values: string[]
  switches: string[]
  /** Parameter names bound by position, in order. */
  positional: string[]
  aliases?: Record<string, string>
}

const PS_COMMON_VALUES = [
  'erroraction', 'warningaction', 'informationaction', 'errorvariable', 'warningvariable',
  'informationvariable', 'outvariable', 'outbuffer', 'pipelinevariable', 'progressaction',
]
const PS_COMMON_SWITCHES = ['verbose', 'debug', 'whatif', 'confirm']
const PS_COMMON_ALIASES: Record<string, string> = {
  ea: 'erroraction', wa: 'warningaction', infa: 'informationaction', ev: 'errorvariable',
  wv: 'warningvariable', iv: 'informationvariable', ov: 'outvariable', ob: 'outbuffer',
  pv: 'pipelinevariable', vb: 'verbose', db: 'debug', wi: 'whatif', cf: 'confirm',
  pspath: 'literalpath', lp: 'literalpath',
}

const PS_SPECS: Record<'content' | 'outfile' | 'tee' | 'newitem' | 'remove' | 'move' | 'rename' | 'copy' | 'cd', PsSpec> = {
  content: {
    values: ['path', 'literalpath', 'value', 'encoding', 'filter', 'include', 'exclude', 'stream', 'credential'],
    switches: ['nonewline', 'passthru', 'force', 'asbytestream'],
    positional: ['path', 'value'],
  },
  outfile: {
    values: ['filepath', 'literalpath', 'encoding', 'width', 'inputobject'],
    switches: ['append', 'force', 'noclobber', 'nonewline'],
    positional: ['filepath', 'encoding'],
    aliases: { path: 'filepath' },
  },
  tee: {
    values: ['filepath', 'literalpath', 'variable', 'inputobject', 'encoding'],
    switches: ['append'],
    positional: ['filepath'],
    aliases: { path: 'filepath' },
  },
  newitem: {
    values: ['path', 'name', 'itemtype', 'value', 'credential'],
    switches: ['force'],
    positional: ['path'],
    aliases: { type: 'itemtype' },
  },
  remove: {
    values: ['path', 'literalpath', 'filter', 'include', 'exclude', 'stream', 'credential'],
    switches: ['recurse', 'force'],
    positional: ['path'],
  },
  move: {
    values: ['path', 'literalpath', 'destination', 'filter', 'include', 'exclude', 'credential'],
    switches: ['force', 'passthru'],
    positional: ['path', 'destination'],
  },
  rename: {
    values: ['path', 'literalpath', 'newname', 'credential'],
    switches: ['force', 'passthru'],
    positional: ['path', 'newname'],
  },
  copy: {
    values: ['path', 'literalpath', 'destination', 'filter', 'include', 'exclude', 'credential', 'tosession', 'fromsession'],
    switches: ['recurse', 'container', 'force', 'passthru'],
    positional: ['path', 'destination'],
  },
  cd: {
    values: ['path', 'literalpath', 'stackname'],
    switches: ['passthru'],
    positional: ['path'],
  },
}

interface PsBinding {
  named: Map<string, Word[]>
  switches: Set<string>
  first(name: string): Word | undefined
  all(name: string): Word[]
}

/** PowerShell parameter binding: -Name value, -Name:value, unique prefixes, positional slots, `a, b` arrays. */
function bindPs(args: Word[], spec: PsSpec): PsBinding {
  const values = [...spec.values, ...PS_COMMON_VALUES]
  const switches = [...spec.switches, ...PS_COMMON_SWITCHES]
  const aliases: Record<string, string> = { ...PS_COMMON_ALIASES, ...spec.aliases }
  const named = new Map<string, Word[]>()
  const on = new Set<string>()
  const loose: Word[][] = []
  const resolve = (given: string): string | undefined => {
    if (values.includes(given) || switches.includes(given)) return given
    const alias = aliases[given]
    if (alias) return alias
    // The cmdlet's own parameters win over common ones (`-p` is -Path, not -PipelineVariable).
    const own = [...spec.values, ...spec.switches].filter((p) => p.startsWith(given))
    if (own.length === 1) return own[0]
    const hits = [...values, ...switches].filter((p) => p.startsWith(given))
    return hits.length === 1 ? hits[0] : undefined
  }
  // Take a value and the array items that follow it (`a.txt, b.txt`).
  const takeList = (k: number): [Word[], number] => {
    const list: Word[] = []
    const first = args[k]
    if (!first) return [list, k]
    list.push(first)
    let j = k + 1
    while (j < args.length && (args[j] as Word).comma) list.push(args[j++] as Word)
    return [list, j]
  }
  let k = 0
  while (k < args.length) {
    const a = args[k] as Word
    const m = !a.quoted && !a.dynamic ? /^-([A-Za-z][A-Za-z0-9]*)(?::(.*))?$/.exec(a.text) : null
    if (m) {
      const param = resolve((m[1] as string).toLowerCase())
      const attached = m[2]
      k++
      if (!param) continue
      if (switches.includes(param)) {
        if (attached === undefined || !/^\$false$/i.test(attached)) on.add(param)
        continue
      }
      if (attached !== undefined && attached.length > 0) {
        named.set(param, [{ ...a, text: attached, raw: attached }])
        continue
      }
      const [list, next] = takeList(k)
      named.set(param, list)
      k = next
      continue
    }
    const [list, next] = takeList(k)
    loose.push(list)
    k = next
  }
  const free = spec.positional.filter((p) => !named.has(p) && !(p === 'path' && named.has('literalpath')))
  loose.forEach((list, idx) => {
    const p = free[idx]
    if (p) named.set(p, list)
  })
  return {
    named,
    switches: on,
    first: (name) => named.get(name)?.[0],
    all: (name) => named.get(name) ?? [],
  }
}

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
  const scope: Scope = { cwd: '', stack: [] }
  const sh: Shell = shell === 'powershell' ? 'powershell' : 'bash'
  try {
    walk(parsed ?? parseScript(command, sh), sh, scope, (c) => {
      if (rulesFailed) return
      try {
        redirectRules(c, emit)
        if (c.name === '') return
        if (c.shell === 'powershell' && psRules(c, emit)) return
        bashRules(c, emit)
      } catch {
        rulesFailed = true // defensive: a rule bug must not take the capture down; keep what was found
      }
    }, 0)
  } catch {
    return { ops, finalDirectory: null }
  }
  return { ops, finalDirectory: scope.cwd === '' ? undefined : scope.cwd }
}

/**
 * File operations a Bash or PowerShell command line performs, in order.
 * Never throws; returns [] for anything it cannot read.
 */
export function shellFileOps(command: string, shell: 'bash' | 'powershell'): ShellFileOp[] {
  return shellEffects(command, shell).ops
}
