/**
 * The request to the running model, sent as the Stop hook's block reason (and, shorter, as the check
 * hook's context): write the handoff file now, from the template, with this identity header.
 */
import { type Identity, renderIdentity } from '../restore/identity.js'

export interface NarrativeRequest {
  identity: Identity
  /** Absolute path of .bookmark/bookmark.context.md */
  path: string
  /** The template text (templates/bookmark.context.md), header placeholders included. */
  template: string
  why: string
}

/** The template without its placeholder header: the sections the model fills in. */
function sections(template: string): string {
  const end = template.indexOf('-->')
  return (end === -1 ? template : template.slice(end + 3)).trim()
}

export function stopBlockReason(r: NarrativeRequest): string {
  return [
    `session-bookmark: before you stop, write the handoff for the next session (${r.why}).`,
    `Use your Write tool to write ${r.path} now, replacing the file. Start it with this header exactly as given:`,
    '',
    renderIdentity(r.identity).trimEnd(),
    '',
    'Then fill in these sections, concretely and briefly (the next session starts from this file):',
    '',
    sections(r.template).replace(/\{\{project\}\}/g, r.identity.project ?? ''),
    '',
    'Write only that file, then stop. Do not repeat secrets (tokens, passwords, keys) in it.',
  ].join('\n')
}

export function contextRefreshNote(r: NarrativeRequest, usedPercent: number): string {
  return [
    `session-bookmark: the context is ${usedPercent}% full and compaction will drop detail.`,
    `Before continuing, update the handoff ${r.path} with your Write tool (sections: Task, Progress, Decisions with the why, Open items, Next step, Files), starting with this header:`,
    renderIdentity(r.identity).trimEnd(),
  ].join('\n')
}
