/**
 * Errors: failed tool results and failing commands, and whether a later success of the same tool on the
 * same target resolved them. Pure rules.
 */
import { cutRedacted, mayRedactTo } from '../redact/secrets.js'
import { str } from '../shared/json.js'
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
 * when an open error could have it: redacting the path of every Read as it was made cost 0.07 s of a 500 MB
 * capture. A field is an own enumerable property like any other (JSON, spread and structured cloning read its
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

export function applyToolOutcome(state: ExtractState, tool: PendingTool, resultText: string, isError: boolean, ts: string | undefined): void {
  if (tool.sidechain) return
  if (!isError) {
    // The target is redacted (not free) only when an open error of this tool could have it. A target field kept
    // for later redaction is compared as given: it agrees with its redacted cut up to the first marker (or the
    // cut), white space folded, so an error it fails could not have the redacted target either.
    let given: string | undefined
    let target: string | undefined
    for (const err of state.errors) {
      if (err.resolved || err.tool !== tool.name || !mayRedactTo((given ??= targetOf(rawTargets.get(tool.input) ?? tool.input)), err.target)) continue
      if (err.target === (target ??= cutRedacted(plainTarget(tool), TARGET_MAX))) {
        err.resolved = true
        if (ts !== undefined) err.resolvedTs = ts
      }
    }
    return
  }
  if (isRejection(resultText) || targetsHandoff(tool)) return
  const rec: ErrorRecord = { tool: tool.name, target: errorTarget(tool), message: firstMeaningfulLine(resultText), line: tool.line, resolved: false }
  const when = ts ?? tool.ts
  if (when !== undefined) rec.ts = when
  state.errors.push(rec)
  if (state.errors.length > CAPS.errors) {
    // Drop resolved errors first, the oldest first: unresolved ones are what the next session needs.
    const idx = state.errors.findIndex((e) => e.resolved)
    state.errors.splice(idx === -1 ? 0 : idx, 1)
  }
}
