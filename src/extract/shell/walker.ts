/**
 * The walker: parsed commands -> each command as it runs. It strips prefixes
 * (assignments, keywords, sudo/env/time/... wrappers), follows the directory
 * (`cd`, pushd/popd, Set-Location, `env -C`; subshells, pipeline members and
 * script blocks keep theirs to themselves), and recurses into $(..) and into
 * `bash -c '..'` / `pwsh -Command '..'` strings. What a command does is for
 * rules.ts and git.ts to decide.
 */
import { MAX_DEPTH, parseScript } from './lexer.js'
import { changeTo } from './paths.js'
import { PS_ALIASES, PS_SPECS, bindPs } from './powershell.js'
import type { Redirect, ScriptNode, Shell, SimpleCommand, Word } from './syntax.js'

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
  walkScript(parsed ?? parseScript(command, shell), shell, visit)
}

/**
 * `forEachCommand` over commands already parsed, returning the directory the script leaves the shell in:
 * '' = where it started, null = somewhere we cannot follow, else the path as written.
 */
export function walkScript(nodes: ScriptNode[], shell: Shell, visit: (command: ShellCommand) => void): string | null {
  let walked = walks.get(nodes)
  if (walked === undefined || walked.shell !== shell) {
    const commands: ShellCommand[] = []
    const scope: Scope = { cwd: '', stack: [] }
    try {
      walk(nodes, shell, scope, (c) => commands.push(c), 0)
    } catch (e) {
      for (const c of commands) visit(c) // the commands a failed walk reached, as a walk visiting them gave them
      throw e
    }
    walked = { shell, commands, cwd: scope.cwd }
    walks.set(nodes, walked)
  }
  for (const c of walked.commands) visit(c)
  return walked.cwd
}

/**
 * Each parse's walk, kept while the parse lives: the rules of a successful command (its error keys, its git
 * events, its file changes) walk the same parse, and the walk cost a first capture about what the parse did.
 * The walk is a pure function of the parse, and no visitor changes the commands it is given.
 */
const walks = new WeakMap<ScriptNode[], { shell: Shell; commands: ShellCommand[]; cwd: string | null }>()

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

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/

function isAssignment(w: Word): boolean {
  if (!ASSIGNMENT.test(w.text)) return false
  // The name part must be unquoted: "A=b" is a command name, A="b" an assignment.
  return ASSIGNMENT.test(w.raw)
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
