/**
 * Errors: failed tool results and failing commands, and whether a later success of the same tool on the
 * same target resolved them. Pure rules.
 */
import { cutRedacted, mayRedactTo } from '../redact/secrets.js'
import { str } from '../shared/json.js'
import { CAPS, type ErrorRecord, type ExtractState, type PendingTool } from './model.js'

const TARGET_MAX = 160

/** The target before redaction, its white space folded. */
function plainTarget(tool: PendingTool): string {
  const input = tool.input
  const target = str(input.file_path) ?? str(input.notebook_path) ?? str(input.command) ?? str(input.url) ?? str(input.pattern) ?? ''
  return target.replace(/\s+/g, ' ').trim()
}

/** What an error is about: the file for file tools, the command for shells, else the tool itself. */
export function errorTarget(tool: PendingTool): string {
  return cutRedacted(plainTarget(tool), TARGET_MAX)
}

/** A rejection by the user is a decision, not an error. */
function isRejection(text: string): boolean {
  return /^The user doesn't want to (proceed|take this action)/.test(text) || text.includes('[Request interrupted by user')
}

function firstMeaningfulLine(text: string): string {
  const cleaned = text.replace(/<\/?tool_use_error>/g, '')
  const lines = cleaned.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '')
  // "Exit code 1" alone says little: add the next line when there is one.
  const first = lines[0] ?? ''
  const out = /^Exit code \d+$/.test(first) && lines[1] ? `${first}: ${lines[1]}` : first
  return cutRedacted(out, 240)
}

export function applyToolOutcome(state: ExtractState, tool: PendingTool, resultText: string, isError: boolean, ts: string | undefined): void {
  if (tool.sidechain) return
  if (!isError) {
    // The target is redacted (not free) only when an open error of this tool could have it.
    let plain: string | undefined
    let target: string | undefined
    for (const err of state.errors) {
      if (err.resolved || err.tool !== tool.name || !mayRedactTo((plain ??= plainTarget(tool)), err.target)) continue
      if (err.target === (target ??= cutRedacted(plain, TARGET_MAX))) {
        err.resolved = true
        if (ts !== undefined) err.resolvedTs = ts
      }
    }
    return
  }
  if (isRejection(resultText)) return
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
