/**
 * Errors: failed tool results, failing commands and failure summaries, and whether a later success settled them
 * (error-match.ts says how). Pure rules.
 */
import { cutRedacted, mayRedactTo, redact } from '../redact/secrets.js'
import { str } from '../shared/json.js'
import {
  type CommandKeys,
  NOT_READ_YET,
  commandKeys,
  coveredWords,
  echoedCommands,
  failedTests,
  keyCovers,
  leadWord,
  notAnError,
  withFailedTests,
} from './error-match.js'
import { failureSummary } from './failures.js'
import { changedOn } from './files.js'
import type { ScriptNode } from './shell/index.js'
import { CAPS, type ErrorRecord, type ExtractState, type PendingTool } from './model.js'

const TARGET_MAX = 160

/** The fields a call of another tool keeps while it waits (its target), each cut to TARGET_FIELD_MAX once redacted. */
const TARGET_FIELDS = ['file_path', 'notebook_path', 'url', 'pattern', 'command']
const TARGET_FIELD_MAX = 500

/** The inputs of targetInput with their fields as given: what a success is first compared with (mayRedactTo). */
const rawTargets = new WeakMap<Record<string, unknown>, Record<string, unknown>>()
/** The most the strings of a targetInput count, by input. */
const targetBounds = new WeakMap<Record<string, unknown>, number>()

/**
 * What a call of a tool without rules of its own keeps of its input: its target fields, each `cutRedacted` to
 * TARGET_FIELD_MAX when first read. Most calls get their result at once, and the target of a success is read only
 * when an open error could have it: redacting the path of every Read as it was made slowed long captures. A field is an own enumerable property like any other (JSON, spread and structured cloning read its
 * value); a longer one is redacted at once, so that its raw text is not kept.
 */
export function targetInput(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const raw: Record<string, unknown> = {}
  let bound = 0
  for (const key of TARGET_FIELDS) {
    const v = input[key]
    if (typeof v !== 'string') continue
    raw[key] = v
    if (v.length > TARGET_FIELD_MAX) {
      const cut = cutRedacted(v, TARGET_FIELD_MAX)
      out[key] = cut
      bound += cut.length
      continue
    }
    let text: string | undefined
    Object.defineProperty(out, key, { enumerable: true, configurable: true, get: () => (text ??= cutRedacted(v, TARGET_FIELD_MAX)) })
    bound += TARGET_FIELD_MAX
  }
  rawTargets.set(out, raw)
  targetBounds.set(out, bound)
  return out
}

/** The most the strings of an input made by targetInput can count (a field is cut to TARGET_FIELD_MAX); else undefined. */
export function targetBound(input: Record<string, unknown>): number | undefined {
  return targetBounds.get(input)
}

function targetOf(input: Record<string, unknown>): string {
  const target = str(input.file_path) ?? str(input.notebook_path) ?? str(input.command) ?? str(input.url) ?? str(input.pattern) ?? ''
  return /\s/.test(target) ? target.replace(/\s+/g, ' ').trim() : target // the same without white space to fold
}

/** The target before redaction, its white space folded. */
function plainTarget(tool: PendingTool): string {
  return targetOf(tool.input)
}

/** What an error is about: the file for file tools, the command for shells, else the tool itself. */
export function errorTarget(tool: PendingTool): string {
  return cutRedacted(plainTarget(tool), TARGET_MAX)
}

/**
 * Our own handoff (`<project>/.bookmark/bookmark.context.md`, and the home-scope one in the default bookmark home
 * `~/.bookmark`): a write of it that failed or was not permitted ("Claude requested permissions to write to …, but
 * you haven't granted it yet.") is bookmark's business, reported by `bookmark doctor`, not the next session's.
 */
const HANDOFF_FILE = /(?:^|[\\/])\.bookmark[\\/]bookmark\.context\.md$/

function targetsHandoff(tool: PendingTool): boolean {
  const file = str((rawTargets.get(tool.input) ?? tool.input).file_path)
  return file !== undefined && HANDOFF_FILE.test(file)
}

/** A rejection by the user is a decision, not an error. */
function isRejection(text: string): boolean {
  return /^The user doesn't want to (proceed|take this action)/.test(text) || text.includes('[Request interrupted by user')
}

/** The first two lines of `text` that are not blank, trimmed: what `split(/\r?\n/)`, trimming and dropping the blank ones would begin with. */
function firstTwoLines(text: string): [string | undefined, string | undefined] {
  let first: string | undefined
  for (let at = 0; at <= text.length;) {
    const nl = text.indexOf('\n', at)
    const end = nl === -1 ? text.length : nl
    const line = text.slice(at, end).trim() // a \r before the \n goes with the trim
    if (line !== '') {
      if (first !== undefined) return [first, line]
      first = line
    }
    at = end + 1
  }
  return [first, undefined]
}

function firstMeaningfulLine(text: string): string {
  // An error text is up to 8,000 characters: only its first lines are split off.
  const [first = '', second] = firstTwoLines(text.replace(/<\/?tool_use_error>/g, ''))
  // "Exit code 1" alone says little: add the next line when there is one.
  const out = /^Exit code \d+$/.test(first) && second ? `${first}: ${second}` : first
  return cutRedacted(out, 240)
}

/** Tools that change a file: a later change of the file by any of them (or by a shell) settles an error of another. */
const EDIT_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit'])
const SHELLS = new Set(['Bash', 'PowerShell'])
const KEY_MAX = 200

function shellOf(tool: PendingTool): 'bash' | 'powershell' {
  return tool.name === 'PowerShell' ? 'powershell' : 'bash'
}

/** Bash keeps the whole output in the result's stdout while the text is its head: the tail holds most summaries. */
const TAIL = 8_000

function withTail(text: string, result: unknown): string {
  if (typeof result !== 'object' || result === null) return text
  const out = (result as Record<string, unknown>).stdout
  if (typeof out !== 'string' || out.length <= text.length) return text
  return `${text}\n${out.slice(-TAIL)}`
}

/** A commit that had nothing to commit changed nothing: no step failed. */
const NOTHING_TO_COMMIT = /^(?:nothing to commit|no changes added to commit)\b/m

function markResolved(err: ErrorRecord, ts: string | undefined): void {
  err.resolved = true
  if (ts !== undefined) err.resolvedTs = ts
}

/** An edit refused as "not read yet" was no error once the file changed: it goes; any other is resolved. */
function settleFileError(state: ExtractState, at: number, ts: string | undefined): void {
  const err = state.errors[at]!
  if (NOT_READ_YET.test(err.message)) state.errors.splice(at, 1)
  else markResolved(err, ts)
}

/**
 * A file changed (by `tool` or a shell): the open errors of editing tools on the same path are settled. `raw`: the
 * path as given, compared first as given (mayRedactTo), then redacted as errorTarget does.
 */
function resolveFile(state: ExtractState, raw: string, ts: string | undefined): void {
  const given = /\s/.test(raw) ? raw.replace(/\s+/g, ' ').trim() : raw
  let target: string | undefined
  for (let i = state.errors.length - 1; i >= 0; i--) {
    const err = state.errors[i]!
    if (err.resolved || !EDIT_TOOLS.has(err.tool) || !mayRedactTo(given, err.target)) continue
    if (err.target === (target ??= cutRedacted(given, TARGET_MAX))) settleFileError(state, i, ts)
  }
}

function hasOpen(state: ExtractState, test: (e: ErrorRecord) => boolean): boolean {
  for (const e of state.errors) if (!e.resolved && test(e)) return true
  return false
}

/**
 * The files the call on transcript line `line` changed, as the ledger recorded them, settle the open errors of
 * editing tools on them (an Edit refused, then the file written by a shell). Reads the ledger only while such an
 * error is open.
 */
export function resolveChangedFiles(state: ExtractState, projectRoot: string, line: number, ts: string | undefined): void {
  if (!hasOpen(state, (e) => EDIT_TOOLS.has(e.tool))) return
  const root = projectRoot.replace(/[\\/]+$/, '')
  const sep = root.includes('\\') && !root.includes('/') ? '\\' : '/'
  for (const rec of changedOn(state.files, line)) resolveFile(state, `${root}${sep}${rec.path}`, ts)
  for (const rec of changedOn(state.outside, line)) resolveFile(state, rec.path, ts)
}

/**
 * The keys of recent commands: while an error with keys is open every success is read, and sessions run the
 * same few commands again and again (tests, builds, git status). A pure function's memo, so cleared when full.
 */
const readKeys = new Map<string, CommandKeys>()
/** The keys of recent commands read as given (rawKeysOf), for the same reason. */
const rawKeys = new Map<string, CommandKeys>()
const cutKeys = new Map<string, string>()
/** The words keyCovers compares of recent failure keys (coveredWords), for the same reason. */
const failureWords = new Map<string, [string, string]>()
const READ_KEYS_MAX = 512
const MEMO_KEY_MAX = 1_000

/** `map.get(key)`, else `make()` remembered in `map`, which is cleared when full. */
function remembered<V>(map: Map<string, V>, key: string, make: () => V): V {
  // A long command (a heredoc, a script) is rarely run twice, and 512 of them would hold megabytes.
  if (key.length > MEMO_KEY_MAX) return make()
  let value = map.get(key)
  if (value === undefined) {
    value = make()
    if (map.size >= READ_KEYS_MAX) map.clear()
    map.set(key, value)
  }
  return value
}

/** A command's keys read as given, not redacted (`parsed`: its parse, when the caller has it). Not to be changed. */
function rawKeysOf(command: string, shell: 'bash' | 'powershell', parsed: ScriptNode[] | undefined): CommandKeys {
  return remembered(rawKeys, `${shell}\0${command}`, () => commandKeys(command, shell, parsed))
}

/**
 * A command's keys, read from the command once redacted: a key alone loses the context that shows a secret
 * (`deploy api_token: …` is a plain word without its YAML), and an error keeps its keys. Successes are read
 * the same way, so that they still match.
 */
function keysOf(command: string, shell: 'bash' | 'powershell', parsed?: ScriptNode[]): CommandKeys {
  const keys = remembered(readKeys, `${shell}\0${command}`, () => {
    const redacted = redact(command)
    // Nothing redacted: the keys read as given serve (startsWithAny has most often read them already).
    return redacted === command ? rawKeysOf(command, shell, parsed) : commandKeys(redacted, shell)
  })
  return { keys: [...keys.keys], probesOnly: keys.probesOnly }
}

/**
 * The first and second words of the open errors' keys: a success settles a key only with a key that starts
 * with one of them (keyCovers), and a command line that names none of them is not read at all.
 */
function openKeyWords(state: ExtractState): string[] {
  const known = keyWords.get(state.errors)
  if (known !== undefined) return known
  const words = new Set<string>()
  for (const e of state.errors) {
    if (e.resolved || e.keys === undefined) continue
    for (const key of e.keys) {
      // A success's key never starts with an empty word (commandKeys skips a command without a name).
      for (const word of key.split(' ', 2)) if (word !== '') words.add(word)
    }
  }
  const list = [...words]
  keyWords.set(state.errors, list)
  return list
}

/**
 * The words of each errors list, kept until an error is added (pushError): a settled error or a shorter key
 * only leaves words that select more than needed, never fewer.
 */
const keyWords = new WeakMap<ErrorRecord[], string[]>()

/**
 * Whether a key of the command, read as given, starts with one of `words`: the redacted read (keysOf) is then
 * needed to compare. The command's words are the same either way, but for a command name made of a secret.
 */
function startsWithAny(command: string, shell: 'bash' | 'powershell', parsed: ScriptNode[] | undefined, words: string[]): boolean {
  return rawKeysOf(command, shell, parsed).keys.some((k) => words.includes(k.split(' ', 1)[0]!))
}

const mayCover = (text: string, words: string[]): boolean => words.some((w) => text.includes(w))

/** A key redacted and cut as a failure's keys are (remembered with the command keys, for the same reason). */
function cutKey(key: string): string {
  return remembered(cutKeys, key, () => cutRedacted(key, KEY_MAX))
}

/** Successful command keys, redacted as failure keys are, take the failure keys they cover off each open error. */
function resolveKeys(state: ExtractState, succeeded: string[], ts: string | undefined): void {
  if (succeeded.length === 0 || !hasOpen(state, (e) => e.keys !== undefined)) return
  const redacted = succeeded.map(cutKey)
  // keyCovers(s, f) needs the first word of s to be the first or second one of f: an error none of whose keys has
  // one of those words is left as it is without comparing each pair (a long session has up to 50 open errors).
  const leads = new Set(redacted.map(leadWord))
  const mayBeCovered = (f: string): boolean => {
    const [first, second] = remembered(failureWords, f, () => coveredWords(f))
    return leads.has(first) || leads.has(second)
  }
  for (const err of state.errors) {
    if (err.resolved || err.keys === undefined || !err.keys.some(mayBeCovered)) continue
    const left = err.keys.filter((f) => !redacted.some((s) => keyCovers(s, f)))
    if (left.length === err.keys.length) continue
    // A chain `a && b` failed at one of its steps, most often its last: a later success of that one settles it.
    const lastDone = left[left.length - 1] !== err.keys[err.keys.length - 1]
    err.keys = left
    if (left.length === 0 || lastDone) markResolved(err, ts)
  }
}

function pushError(state: ExtractState, rec: ErrorRecord, ts: string | undefined, tool: PendingTool): void {
  const when = ts ?? tool.ts
  if (when !== undefined) rec.ts = when
  state.errors.push(rec)
  keyWords.delete(state.errors)
  if (state.errors.length > CAPS.errors) {
    // Drop resolved errors first, the oldest first: unresolved ones are what the next session needs.
    const idx = state.errors.findIndex((e) => e.resolved)
    state.errors.splice(idx === -1 ? 0 : idx, 1)
  }
}

/** The same tool on the same target: how an error without keys (another tool, a state saved before) is resolved. */
function resolveSameTarget(state: ExtractState, tool: PendingTool, ts: string | undefined): void {
  // The target is redacted (not free) only when an open error of this tool could have it. A target field kept
  // for later redaction is compared as given: it agrees with its redacted cut up to the first marker (or the
  // cut), white space folded, so an error it fails could not have the redacted target either.
  let given: string | undefined
  let target: string | undefined
  for (const err of state.errors) {
    if (
      err.resolved ||
      err.keys !== undefined ||
      err.tool !== tool.name ||
      EDIT_TOOLS.has(err.tool) ||
      !mayRedactTo((given ??= targetOf(rawTargets.get(tool.input) ?? tool.input)), err.target)
    )
      continue
    if (err.target === (target ??= cutRedacted(plainTarget(tool), TARGET_MAX))) markResolved(err, ts)
  }
}

/**
 * A tool result, judged as a person would. Not errors: rejections, exploratory reads and searches, probes that
 * found nothing, cancelled siblings. A failure summary (tests, linters, compilers) is an error whatever the exit
 * code. A success settles the open errors it answers: the same target, the same file by any editing tool, the
 * same command or check by its keys (keysOf).
 */
export function applyToolOutcome(
  state: ExtractState,
  tool: PendingTool,
  resultText: string,
  isError: boolean,
  ts: string | undefined,
  result?: unknown,
  parsed?: ScriptNode[],
): void {
  if (tool.sidechain) return
  const shell = SHELLS.has(tool.name)
  const command = shell ? str(tool.input.command) : undefined
  const output = command === undefined ? resultText : withTail(resultText, result)
  if (!isError) {
    resolveSameTarget(state, tool, ts)
    if (EDIT_TOOLS.has(tool.name)) {
      const file = str(tool.input.file_path) ?? str(tool.input.notebook_path)
      if (file !== undefined && hasOpen(state, (e) => EDIT_TOOLS.has(e.tool))) resolveFile(state, file, ts)
      return
    }
    if (command === undefined) return
    const summary = failureSummary(output)
    if (summary === undefined) {
      // Keys are read only when they could matter: a text that names a word an open error's keys start with.
      const words = openKeyWords(state)
      if (words.length === 0) return
      const keys = mayCover(command, words) && startsWithAny(command, shellOf(tool), parsed, words) ? keysOf(command, shellOf(tool), parsed).keys : []
      // What a task runner echoed it ran (`[test] $ go test ./...`) succeeded too.
      for (const echoed of echoedCommands(output)) if (mayCover(echoed, words)) keys.push(...keysOf(echoed, 'bash').keys)
      resolveKeys(state, keys, ts)
      return
    }
    const { keys, probesOnly } = keysOf(command, shellOf(tool), parsed)
    if (probesOnly || keys.length === 0) {
      resolveKeys(state, keys, ts)
      return
    }
    // Behind `a && b | tail`, the commands before the last one succeeded; the last one reports the failure.
    resolveKeys(state, keys.slice(0, -1), ts)
    const rec: ErrorRecord = { tool: tool.name, target: errorTarget(tool), message: cutRedacted(summary, 240), line: tool.line, resolved: false }
    rec.keys = [cutRedacted(withFailedTests(keys[keys.length - 1]!, failedTests(output)), KEY_MAX)]
    pushError(state, rec, ts, tool)
    return
  }
  if (isRejection(resultText) || targetsHandoff(tool) || notAnError(tool.name, resultText)) return
  let keys: string[] | undefined
  let message = firstMeaningfulLine(resultText)
  if (command !== undefined) {
    const read = keysOf(command, shellOf(tool))
    if (read.probesOnly || NOTHING_TO_COMMIT.test(resultText)) return
    const failed = failedTests(output)
    if (read.keys.length > 0) keys = read.keys.map((k) => cutRedacted(withFailedTests(k, failed), KEY_MAX))
    const summary = failureSummary(output)
    const code = /^Exit code (\d+)/.exec(resultText)
    if (summary !== undefined) message = cutRedacted(code ? `Exit code ${code[1]}: ${summary}` : summary, 240)
  }
  const rec: ErrorRecord = { tool: tool.name, target: errorTarget(tool), message, line: tool.line, resolved: false }
  if (keys !== undefined) rec.keys = keys
  pushError(state, rec, ts, tool)
}
