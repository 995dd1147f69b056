/**
 * What an error is about, judged as a person would: which failed results are not errors to hand over (an
 * exploratory read, a cancelled sibling call, a probe that found nothing), and the keys of a command (program,
 * subcommand and targets, without cd, pipes, redirections or flags) by which a later success resolves it. Pure rules.
 */
import { type ScriptNode, type ShellCommand, type Word, forEachCommand, parseGitInvocation } from './shell/index.js'

/** Tools that only read or search: their failures are exploration, never errors to hand over. */
const READ_TOOLS = new Set(['Read', 'Grep', 'Glob', 'LS', 'WebFetch', 'WebSearch', 'NotebookRead', 'ToolSearch', 'ListMcpResourcesTool', 'ReadMcpResourceTool'])
/** An MCP tool that only reads (`mcp__linear-server__get_issue`, `…__search_documentation`). */
const MCP_READ = /^mcp__.+__(?:get|search|list|fetch|read|find|query|view|describe)(?:_|$)/i

/**
 * Result texts that are not errors whatever the tool: cancelled siblings, a malformed call. (A permission not
 * granted in `claude -p` stays an error: the write did not happen and nobody was asked.)
 */
const NOT_ERRORS = [
  /^(?:<tool_use_error>)?Sibling tool call errored/,
  /^(?:<tool_use_error>)?Cancelled: parallel tool call/,
  /^(?:<tool_use_error>)?Error: No such tool available:/,
]

/** An edit refused because the file was not read first: no error once the file is changed after it. */
export const NOT_READ_YET = /^(?:<tool_use_error>)?File has not been read yet\b/

/** Whether a failed result of `tool` is never an error to hand over, by its tool and text. */
export function notAnError(tool: string, text: string): boolean {
  if (READ_TOOLS.has(tool) || MCP_READ.test(tool)) return true
  return NOT_ERRORS.some((re) => re.test(text))
}

/** Commands that change nothing worth a key: directory moves, output, waiting. */
const NEUTRAL = new Set([
  'cd',
  'pushd',
  'popd',
  'echo',
  'printf',
  'true',
  'false',
  'sleep',
  'export',
  'set',
  'unset',
  'source',
  '.',
  ':',
  'clear',
  'exit',
  'time',
])
/** Commands that only look: a probe that exits non-zero found nothing, which is an answer, not an error. */
const PROBES = new Set([
  'ls',
  'cat',
  'find',
  'fd',
  'grep',
  'egrep',
  'rg',
  'ag',
  'test',
  '[',
  '[[',
  'which',
  'where',
  'type',
  'command',
  'whereis',
  'stat',
  'file',
  'head',
  'tail',
  'wc',
  'tree',
  'du',
  'df',
  'readlink',
  'realpath',
  'pwd',
  'sort',
  'uniq',
  'cut',
  'tr',
  'tee',
  'less',
  'more',
  'column',
  'jq',
  'diff',
  'cmp',
  'ps',
  'pgrep',
  'lsof',
  'env',
  'printenv',
  'id',
  'whoami',
  'uname',
  'date',
  'get-content',
  'get-childitem',
  'test-path',
  'select-string',
])
const GIT_READS = new Set([
  'show',
  'log',
  'diff',
  'status',
  'blame',
  'grep',
  'ls-files',
  'ls-tree',
  'rev-parse',
  'rev-list',
  'cat-file',
  'describe',
  'shortlog',
  'reflog',
  'merge-base',
  'config',
  'remote',
  'branch',
  'tag',
  'worktree',
  'stash list',
])
const GH_READS = /^(?:pr|issue|run|repo|release|workflow|label|search) (?:view|diff|list|checks|status|search)$/

/** Subcommands that keep their positional targets in the key: `npm test` vs `npm run lint`. */
const SCRIPT_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun'])
/** Flags whose value is not a target (`go build -o bin`, `go test -count 1`). */
const VALUE_FLAGS: Record<string, Set<string>> = {
  go: new Set(['-o', '-tags', '-count', '-timeout', '-p', '-coverprofile', '-covermode', '-C', '-ldflags', '-gcflags', '-parallel']),
  cargo: new Set(['-j', '--jobs', '--features', '--target', '--manifest-path']),
}

const KEY_TOKEN_MAX = 120

function tokenOf(w: Word): string {
  const t = /\s/.test(w.text) ? w.text.replace(/\s+/g, ' ').trim() : w.text
  return t.length > KEY_TOKEN_MAX ? t.slice(0, KEY_TOKEN_MAX) : t
}

/** The words of a command that are not flags, nor the values of flags known to take one. */
function positionals(name: string, args: Word[]): string[] {
  const values = VALUE_FLAGS[name]
  const out: string[] = []
  for (let k = 0; k < args.length; k++) {
    const t = args[k]!.text
    if (t.startsWith('-') && t !== '-') {
      if (values?.has(t)) k++
      continue
    }
    out.push(tokenOf(args[k]!))
  }
  return out
}

export interface CommandKeys {
  /** One key per command that is not neutral nor a probe: `npm test`, `go test ./pkg/x TestA`, `git merge main`. */
  keys: string[]
  /** Every command it runs only looks (or it runs none that count). */
  probesOnly: boolean
}

/** Git operations that stop on a conflict: `--continue`, `--abort` or `--skip` ends the step, and so does a commit for some. */
const GIT_STEPS = new Set(['merge', 'rebase', 'cherry-pick', 'revert', 'am', 'pull'])
const GIT_COMMIT_ENDS = ['merge', 'cherry-pick', 'revert', 'pull']

function gitKeys(c: ShellCommand, out: string[]): boolean {
  const inv = parseGitInvocation(c.args)
  if (inv === undefined) return false
  const flags = inv.args.map((w) => w.text)
  const pos = positionals('git', inv.args)
  if (GIT_READS.has(inv.sub) || (inv.sub === 'stash' && pos[0] === 'list')) return true
  if (GIT_STEPS.has(inv.sub) && flags.some((f) => /^--(?:continue|abort|skip|quit)$/.test(f))) out.push(`git ${inv.sub} *`)
  else if (inv.sub === 'commit') out.push('git commit', ...GIT_COMMIT_ENDS.map((s) => `git ${s} *`))
  else if (inv.sub === 'push') out.push('git push')
  else out.push(['git', inv.sub, ...pos].join(' '))
  return false
}

/** The keys of a command line as `shell` reads it (`parsed`: as parseScript gave it, when the caller has it). Never throws. */
export function commandKeys(command: string, shell: 'bash' | 'powershell', parsed?: ScriptNode[]): CommandKeys {
  const keys: string[] = []
  let counted = 0
  let probes = 0
  forEachCommand(
    command,
    shell,
    (c) => {
      const name = c.name
      if (name === '' || NEUTRAL.has(name)) return
      counted++
      if (PROBES.has(name)) {
        probes++
        return
      }
      if (name === 'git') {
        if (gitKeys(c, keys)) probes++
        return
      }
      const pos = positionals(name, c.args)
      if (name === 'gh' && GH_READS.test(pos.slice(0, 2).join(' '))) {
        probes++
        return
      }
      if (name === 'sed' && !c.args.some((w) => /^-[a-zA-Z]*i/.test(w.text) || w.text.startsWith('--in-place'))) {
        probes++
        return
      }
      keys.push(normalise([name, ...pos]).join(' '))
    },
    parsed,
  )
  return { keys, probesOnly: counted > 0 && probes === counted }
}

/** How many leading tokens name the check itself (runner and subcommand); undefined for a command without targets to widen. */
function runnerLength(tokens: string[]): number | undefined {
  const [name, sub] = tokens
  switch (name) {
    case 'go':
    case 'cargo':
    case 'dotnet':
    case 'swift':
    case 'deno':
    case 'make':
    case 'just':
    case 'npm':
    case 'pnpm':
    case 'yarn':
    case 'bun':
      return sub === undefined ? undefined : 2
    case 'mise':
    case 'task':
      return sub === 'run' ? 3 : 2
    case 'npx':
    case 'bunx':
    case 'pnpx':
      return tokens[2] === 'run' ? 3 : 2
    case 'python':
    case 'python3':
    case 'uv':
    case 'poetry':
      return sub === 'pytest' || sub === 'run' ? 2 + (sub === 'run' ? 1 : 0) : undefined
    case 'pytest':
    case 'vitest':
    case 'jest':
    case 'mocha':
    case 'tsc':
    case 'eslint':
    case 'mypy':
    case 'flake8':
    case 'rspec':
    case 'phpunit':
      return 1
    case 'ruff':
    case 'golangci-lint':
      return 2
    default:
      return undefined
  }
}

function isPath(t: string): boolean {
  return /[\\/]/.test(t) || t.startsWith('.') || /\.\w{1,5}(?:::.*)?$/.test(t)
}

function bare(p: string): string {
  return p.replace(/^\.[\\/](?=.)/, '')
}

/** A target of a success that takes in a target of the failure: `./...` all, `./pkg/...` below, `tests/` its files, `a.py` its `a.py::t`. */
function pathCovers(s: string, f: string): boolean {
  const sb = bare(s)
  const fb = bare(f)
  if (sb === fb || sb === '...' || sb === '.') return true
  if (sb.endsWith('/...')) {
    const base = sb.slice(0, -4)
    return fb === base || fb.startsWith(`${base}/`)
  }
  const dir = sb.endsWith('/') ? sb : `${sb}/`
  return fb.startsWith(dir) || fb.startsWith(`${sb}::`)
}

/** The tests a filter selects: `-run "A|B"` alternatives without anchors, each matched anywhere in a name (go -run, pytest -k, cargo test). */
function alternatives(names: string[]): string[] {
  return names
    .flatMap((n) => n.split('|'))
    .map((a) => a.replace(/^\^|\$$/g, ''))
    .filter((a) => a !== '')
}

function sameCheck(s: string[], f: string[]): boolean {
  const n = runnerLength(s)
  if (n === undefined || n !== runnerLength(f) || s.slice(0, n).join(' ') !== f.slice(0, n).join(' ')) return false
  const sPaths = s.slice(n).filter(isPath)
  const fPaths = f.slice(n).filter(isPath)
  const sNames = alternatives(s.slice(n).filter((t) => !isPath(t)))
  const fNames = f.slice(n).filter((t) => !isPath(t))
  const pathsOk = sPaths.length === 0 || (fPaths.length > 0 && fPaths.every((p) => sPaths.some((q) => pathCovers(q, p))))
  const namesOk = sNames.length === 0 || (fNames.length > 0 && fNames.every((t) => sNames.some((a) => t.includes(a))))
  return pathsOk && namesOk
}

/**
 * Whether a success with key `success` resolves the failure key `failure`: the same key, the end of a git step
 * (`git rebase *`), the same check (runner and subcommand) on targets and tests that take in the failed ones
 * (`go test ./...` after `go test ./pkg -run TestA`), or the command a wrapper failed to run (`rtk bun run test`).
 */
export function keyCovers(success: string, failure: string): boolean {
  if (success === failure) return true
  // Every rule below needs the success's first word to be the failure's first or second one: checked before
  // splitting, since a long session asks this of every success against every open error.
  const s0 = firstWord(success, 0)
  if (s0 !== firstWord(failure, 0) && s0 !== firstWord(failure, failure.indexOf(' ') + 1)) return false
  if (success.endsWith(' *')) return failure.startsWith(success.slice(0, -1))
  const s = success.split(' ')
  const f = failure.split(' ')
  if (sameCheck(s, f)) return true
  if (f.length < 3 || s.length < 2) return false
  const inner = normalise(f.slice(1))
  return inner.join(' ') === success || sameCheck(s, inner)
}

/** The first word of a success key: keyCovers(success, failure) holds only when it is one of coveredWords(failure). */
export function leadWord(success: string): string {
  return firstWord(success, 0)
}

/** The first and second words of a failure key, as keyCovers compares them with a success's first word. */
export function coveredWords(failure: string): [string, string] {
  return [firstWord(failure, 0), firstWord(failure, failure.indexOf(' ') + 1)]
}

/** The word of `key` starting at `from` (up to the next space); '' past the end or for from 0 of a missing space. */
function firstWord(key: string, from: number): string {
  if (from <= 0 && key.indexOf(' ') === -1) return key
  if (from > 0 && from >= key.length) return ''
  const end = key.indexOf(' ', from)
  return end === -1 ? key.slice(from) : key.slice(from, end)
}

function normalise(tokens: string[]): string[] {
  const [name, first] = tokens
  if (name !== undefined && SCRIPT_RUNNERS.has(name)) {
    if (first === 'run' || first === 'run-script') return [name, ...tokens.slice(2)]
    if (first === 't') return [name, 'test', ...tokens.slice(2)]
  }
  return tokens
}

/** The failing tests a go test output names (`--- FAIL: TestA (0.01s)`, subtests left out), at most five. */
export function failedTests(output: string): string[] {
  const names = new Set<string>()
  for (const m of output.matchAll(/^--- FAIL: ([^\s/]+)/gm)) {
    names.add(m[1]!)
    if (names.size === 5) break
  }
  return [...names]
}

/** A `go test` key with its test filter replaced by the tests that failed: a run of those tests settles it. */
export function withFailedTests(key: string, tests: string[]): string {
  const t = key.split(' ')
  if (tests.length === 0 || t[0] !== 'go' || t[1] !== 'test') return key
  return [...t.slice(0, 2), ...t.slice(2).filter(isPath), ...tests].join(' ')
}

/** Commands a task runner echoes as it runs them (mise `[lint] $ golangci-lint run ./...`, npm `> vitest run`). */
export function echoedCommands(output: string): string[] {
  const out: string[] = []
  // Every echo holds `> ` or `] $ `: most outputs hold neither, and the multiline pattern tries every line start.
  if (!output.includes('> ') && !output.includes('] $ ')) return out
  for (const m of output.matchAll(/^(?:\[[\w:.-]+\] \$|>) (.+)$/gm)) {
    const c = m[1]!.trim()
    if (/^\S+@\S+ \S+/.test(c) || c.endsWith('…')) continue // npm's `> pkg@1.0.0 test` header; a cut line
    out.push(c)
    if (out.length === 10) break
  }
  return out
}
