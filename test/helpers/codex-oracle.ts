/**
 * What a Codex rollout says, read as plain JSON without any of src/: the facts the corpus tests hold the
 * extraction to. Written from the rollout format (docs: hosts-codex-gemini.md, section 2.5), not from lines.ts.
 */
import { readFileSync } from 'node:fs'
import { isAbsolute, relative } from 'node:path'

export interface CodexFacts {
  sessionId?: string
  cwd?: string
  /** The user's requests in order: user_message events (0.14x) and UserMessage items (0.171). */
  requests: string[]
  /** Words Codex put in front of the model that are not requests: hook context, Stop reasons. */
  injected: string[]
  /** exec_command / shell calls (function or custom tool). */
  commands: number
  /** Files the apply_patch calls changed (Codex's own change lists, a move by its new path): inside the session folder relative, else absolute. */
  insideFiles: Set<string>
  outsideFiles: Set<string>
  compactions: number
  models: Set<string>
  interrupts: number
}

type J = Record<string, any>

function textOf(parts: unknown, type: string): string {
  return Array.isArray(parts)
    ? parts
        .filter((p: J) => p && p.type === type && typeof p.text === 'string')
        .map((p: J) => p.text as string)
        .join('\n')
    : ''
}

export function codexFacts(path: string): CodexFacts {
  const facts: CodexFacts = {
    requests: [],
    injected: [],
    commands: 0,
    insideFiles: new Set(),
    outsideFiles: new Set(),
    compactions: 0,
    models: new Set(),
    interrupts: 0,
  }
  const changed: string[] = []
  // Change lists count for the apply_patch calls the model made (the schema fixture has an orphan one).
  const patchCalls = new Set<string>()
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue
    let r: J
    try {
      r = JSON.parse(line)
    } catch {
      continue
    }
    const p: J = r.payload ?? {}
    if (r.type === 'session_meta' && facts.cwd === undefined) {
      facts.cwd = p.cwd
      facts.sessionId = p.id
    }
    if (r.type === 'turn_context' && typeof p.model === 'string') facts.models.add(p.model)
    if (r.type === 'compacted') facts.compactions++
    if (r.type === 'event_msg') {
      if (p.type === 'user_message' && typeof p.message === 'string' && p.message.trim() !== '') facts.requests.push(p.message.trim())
      if (p.type === 'turn_aborted' && p.reason === 'interrupted') facts.interrupts++
      if (p.type === 'patch_apply_end' && p.success === true && p.changes && patchCalls.has(p.call_id)) changed.push(...changeKeys(p.changes))
      const item: J = p.type === 'item_completed' ? (p.item ?? {}) : {}
      if (item.type === 'UserMessage') facts.requests.push(textOf(item.content, 'text').trim())
      if (item.type === 'HookPrompt') for (const f of item.fragments ?? []) facts.injected.push(f.text)
      if (item.type === 'FileChange' && item.status === 'completed' && item.changes && patchCalls.has(item.id)) changed.push(...changeKeys(item.changes))
    }
    if (r.type === 'response_item') {
      const call = p.type === 'function_call' || p.type === 'custom_tool_call'
      if (call && (p.name === 'exec_command' || p.name === 'shell')) facts.commands++
      if (p.type === 'custom_tool_call' && p.name === 'apply_patch') patchCalls.add(p.call_id)
      const kinds: string[] = p.internal_chat_message_metadata_passthrough?.content_item_kinds ?? []
      if (p.type === 'message' && kinds.includes('hooks.additional_context')) facts.injected.push(textOf(p.content, 'input_text'))
    }
  }
  for (const abs of changed) {
    const rel = facts.cwd ? relative(facts.cwd, abs) : abs
    if (facts.cwd && rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) facts.insideFiles.add(rel)
    else facts.outsideFiles.add(abs)
  }
  return facts
}

function changeKeys(changes: J): string[] {
  const out: string[] = []
  for (const [path, change] of Object.entries<J>(changes)) {
    // A moved file is known by where it went.
    out.push(typeof change?.move_path === 'string' ? change.move_path : path)
  }
  return out
}
