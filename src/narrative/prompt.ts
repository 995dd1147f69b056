/**
 * The request to the running model, sent as the Stop hook's block reason (and, shorter, as the check
 * hook's context): write the handoff file now, from the template, with this identity header.
 */
import { escapeControls, exactValue, neutraliseTags, oneLineValue } from '../restore/fence.js'
import { type Identity, renderIdentity } from '../restore/identity.js'

export interface NarrativeRequest {
  identity: Identity
  /** Absolute path of .bookmark/bookmark.context.md */
  path: string
  /** The template text (templates/bookmark.context.md), header placeholders included. */
  template: string
  why: string
}

/**
 * Every value below comes from outside (a folder name, a branch, the session id from the payload) and
 * lands in an instruction the model follows: a line break in it (LF, CR, U+2028 …) would start what
 * reads as a new line of ours, and a host tag could close the host's wrapper. So each stays on its line.
 */

/** The path to write: bare when plain, else a JSON string that decodes to it exactly (see exactValue). */
function pathText(path: string): string {
  const v = exactValue(path)
  return v.quoted ? `${v.text} (the path as a JSON string)` : v.text
}

/**
 * The identity with its values on one line and without host tags. The header is copied into the file as
 * given, so a plain value stays exactly as it is; only an unusual one (a folder with a line break) is
 * written escaped.
 */
function oneLineIdentity(id: Identity): Identity {
  const out: Identity = { ...id }
  for (const key of Object.keys(out) as (keyof Identity)[]) {
    const value = out[key]
    if (key !== 'scope' && value !== undefined) out[key] = neutraliseTags(escapeControls(value))
  }
  return out
}

/** The template without its placeholder header: the sections the model fills in. */
function sections(template: string): string {
  const end = template.indexOf('-->')
  return (end === -1 ? template : template.slice(end + 3)).trim()
}

/** `tool`: how the host's model writes a file (Host.writeTool). */
export function stopBlockReason(r: NarrativeRequest, tool = 'your Write tool'): string {
  return [
    `session-bookmark: before you stop, write the handoff for the next session (${oneLineValue(r.why, 300)}).`,
    `Use ${tool} to write ${pathText(r.path)} now, replacing the file. Start it with this header exactly as given:`,
    '',
    renderIdentity(oneLineIdentity(r.identity)).trimEnd(),
    '',
    'Then fill in these sections, concretely and briefly (the next session starts from this file):',
    '',
    sections(r.template).replace(/\{\{project\}\}/g, () => oneLineValue(r.identity.project ?? '', 200)),
    '',
    'Write only that file, then stop. Do not repeat secrets (tokens, passwords, keys) in it.',
  ].join('\n')
}

export function contextRefreshNote(r: NarrativeRequest, usedPercent: number, tool = 'your Write tool'): string {
  return [
    `session-bookmark: the context is ${usedPercent}% full and compaction will drop detail.`,
    `Before continuing, update the handoff ${pathText(r.path)} with ${tool} (sections: Task, Progress, Decisions with the why, Open items, Next step, Files), starting with this header:`,
    renderIdentity(oneLineIdentity(r.identity)).trimEnd(),
  ].join('\n')
}
