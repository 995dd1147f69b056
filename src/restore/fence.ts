/**
 * Recorded text as data: what we quote from transcripts and from the model-written handoff must never
 * read as our framing, as a host instruction, or as a new line of an instruction. Pure.
 *
 * - Tags the host gives meaning to (`<system-reminder>`, `<command-name>`, `<bash-stdout>`, hook output
 *   wrappers, tool-call markup …) are neutralised: their `<` becomes `‹` (same length, so budgets hold),
 *   opening and closing, in any case, with spaces or attributes.
 * - Control characters, line and paragraph separators and bidi controls are shown as `\uXXXX` where a
 *   value must stay on one line; in multi-line content the separators become real line breaks, so the
 *   fence below sees every line the model will.
 * - Multi-line content goes inside a backtick fence longer than any backtick run in it: by CommonMark no
 *   line of the content can close it (a closing fence needs at least as many backticks as the opening).
 */

/**
 * Tag names the host or the model API gives meaning to. Families rather than a closed list: Claude Code
 * adds wrappers between releases (`*-hook`, `*-notification`, `local-command-*`), and neutralising a tag
 * that turns out to mean nothing costs one visible character.
 */
const HOST_TAG_NAMES = [
  'system-reminder',
  '[a-z][a-z0-9_-]*-hook',
  'command-[a-z0-9_-]+',
  'local-command-[a-z0-9_-]+',
  'bash-(?:input|stdout|stderr)',
  '[a-z][a-z0-9_-]*-notification',
  'teammate-message',
  'tool_use_error',
  'persisted-output',
  'new-diagnostics',
  'ide_[a-z0-9_]+',
  'function_calls',
  'function_results',
  'invoke',
  'parameter',
  'antml:[a-z0-9_:-]+',
]

/** `<`, optional spaces and `/`, a host tag name that ends there (`<system-reminders` is another name). */
const HOST_TAG = new RegExp(`<(\\s*/?\\s*(?:${HOST_TAG_NAMES.join('|')}))(?![a-z0-9_:-])`, 'gi')

/** What `<` of a host tag becomes: visibly not a tag, one character like the original. */
export const TAG_MARK = '‹'

/** The text with every host tag's `<` replaced by `‹`. Idempotent. */
export function neutraliseTags(text: string): string {
  // Most texts hold no `<`: the expression (long, any case) is then never compiled, which a Stop's restore paid.
  return text.includes('<') ? text.replace(HOST_TAG, `${TAG_MARK}$1`) : text
}

/**
 * Characters that end a line for some reader (CR, VT, FF, NEL, U+2028, U+2029), every other C0/C1
 * control and DEL, and the bidi controls that reorder what a reader sees. Tab and LF are left to the
 * callers: LF is escaped by `oneLineValue`, kept by `contentLines`.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g
const BREAKS = /\r\n?|[\u000b\u000c\u0085\u2028\u2029]/g

function hex4(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
}

/** The text split at every kind of line break (CRLF, CR, VT, FF, NEL, U+2028, U+2029, LF). */
export function splitLines(text: string): string[] {
  return text.replace(BREAKS, '\n').split('\n')
}

/** A line of recorded content as it may appear inside a fence: controls escaped, host tags neutralised. */
export function contentLine(line: string): string {
  return neutraliseTags(escapeControls(line, true))
}

/** `\uXXXX` for every unsafe character (see UNSAFE); LF too when `newlines` is false. */
export function escapeControls(text: string, newlines = false): string {
  const escaped = text.replace(UNSAFE, hex4)
  return newlines ? escaped : escaped.replace(/\n/g, hex4)
}

/** One line of at most `max` characters: whitespace runs collapsed, controls escaped, host tags neutralised. */
export function oneLineValue(text: string, max: number): string {
  const flat = neutraliseTags(escapeControls(text.replace(/\s+/g, ' ').trim()))
  // Again after the cut: `<system-reminders` cut to `<system-reminder…` has become a tag name.
  return neutraliseTags(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat)
}

/** An inline code span of a recorded value on one line: backticks become `'`, so it cannot end the span early. */
export function codeValue(text: string, max = 200): string {
  return `\`${oneLineValue(text, max).replace(/`/g, "'")}\``
}

/**
 * Multi-line recorded text as lines, at most `maxChars` of it: every kind of line break made `\n`, trailing
 * spaces and blank lines at either end dropped, blank-line runs collapsed to one, controls escaped, host
 * tags neutralised.
 */
export function contentLines(text: string, maxChars = Number.POSITIVE_INFINITY): string[] {
  // Tags first on the whole text: `<` and the name may sit on two lines.
  let t = neutraliseTags(text.replace(BREAKS, '\n')).trim()
  if (t.length > maxChars) t = `${t.slice(0, maxChars - 1).trimEnd()}…`
  const out: string[] = []
  for (const raw of t.split('\n')) {
    const line = contentLine(raw.trimEnd())
    if (line === '' && (out.length === 0 || out[out.length - 1] === '')) continue
    out.push(line)
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop()
  return out
}

/** The info string of every fence we open: what the head of a restore text explains. */
export const FENCE_LABEL = 'recorded'

export interface Fence {
  open: string
  close: string
}

/**
 * The fence for `lines`: a backtick run one longer than the longest run in them, at least three. The
 * lines are expected to be cleaned already (contentLines, oneLineValue): the fence only guards its end.
 */
export function fenceFor(lines: string[], label = FENCE_LABEL): Fence {
  let longest = 0
  for (const l of lines) for (const m of l.matchAll(/`+/g)) longest = Math.max(longest, m[0].length)
  const ticks = '`'.repeat(Math.max(3, longest + 1))
  return { open: `${ticks}${label}`, close: ticks }
}

/** Characters that make a value unsafe to print bare in an instruction the model follows. */
const NEEDS_QUOTING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069<>"`]|^\s|\s$/

/**
 * A value the model must reproduce exactly (a path to write to), on one line. Plain when it is plain;
 * otherwise a JSON string literal with controls, separators, bidi controls, `<` and `>` as `\uXXXX`
 * escapes, which decode to the exact value and cannot split a line or open a tag. `quoted` says which.
 */
export function exactValue(value: string): { text: string; quoted: boolean } {
  if (!NEEDS_QUOTING.test(value)) return { text: value, quoted: false }
  // JSON.stringify escapes C0 controls, `"` and `\`, but leaves DEL, C1, U+2028/9 and bidi controls as they are.
  const json = JSON.stringify(value).replace(/[\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069<>`]/g, hex4)
  return { text: json, quoted: true }
}
