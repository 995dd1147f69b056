/**
 * An independent reading of a Gemini CLI chat file (plain JSON, nothing from src/): every message that was ever
 * in the history, in the latest version written (upserts by id, checkpoints included), and the facts a person
 * would name from it.
 */
import { readFileSync } from 'node:fs'

type Rec = Record<string, unknown>

export interface GeminiFacts {
  sessionId?: string
  /** The workspace folder the first context names (0.61), else undefined. */
  cwd?: string
  requests: string[]
  replies: string[]
  /** Paths as written by successful write_file / replace calls, with what happened first. */
  files: Map<string, 'created' | 'modified'>
  commands: string[]
  mcpTools: string[]
  compressions: number
  models: Set<string>
  /** The newest reply's `tokens.input` and model, in history order (the snapshot's usage). */
  lastReplyTokens?: { input: number; model?: string }
  /**
   * What the chat file says last about the context's size, in file order: a reply's `tokens`, or a checkpoint that
   * replaced the history (its newest reply with tokens, or nothing: a compression's summary has none).
   */
  tailTokens?: { input: number; model?: string }
}

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v)

function tokensOf(m: unknown): { input: number; model?: string } | undefined {
  if (!isRec(m) || m.type !== 'gemini' || !isRec(m.tokens) || typeof m.tokens.input !== 'number') return undefined
  return { input: m.tokens.input, ...(typeof m.model === 'string' ? { model: m.model } : {}) }
}

function newestTokens(list: unknown[]): { input: number; model?: string } | undefined {
  return list
    .map(tokensOf)
    .filter((t) => t !== undefined)
    .at(-1)
}

function messagesOf(path: string): { meta?: Rec; messages: Rec[]; tail?: { input: number; model?: string } } {
  const text = readFileSync(path, 'utf8')
  const byId = new Map<string, Rec>()
  let meta: Rec | undefined
  let tail: { input: number; model?: string } | undefined
  const take = (m: unknown) => {
    if (!isRec(m) || typeof m.type !== 'string') return
    const id = typeof m.id === 'string' ? m.id : JSON.stringify(m)
    byId.set(id, m) // Map keeps the first insertion's place; the value is the latest write
  }
  if (/^\s*\{\s*\n/.test(text)) {
    const session = JSON.parse(text) as Rec
    meta = session
    for (const m of session.messages as unknown[]) take(m)
    tail = newestTokens(session.messages as unknown[])
  } else {
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue
      const r = JSON.parse(line) as Rec
      if (isRec(r.$set)) {
        if (Array.isArray(r.$set.messages)) {
          for (const m of r.$set.messages) take(m)
          tail = newestTokens(r.$set.messages)
        }
      } else if (r.type === undefined && typeof r.sessionId === 'string') meta ??= r
      else {
        take(r)
        tail = tokensOf(r) ?? tail
      }
    }
  }
  return { meta, messages: [...byId.values()], tail }
}

function texts(content: unknown): string[] {
  if (typeof content === 'string') return [content]
  if (!Array.isArray(content)) return []
  return content.filter((p): p is Rec => isRec(p) && typeof p.text === 'string').map((p) => p.text as string)
}

export function geminiFacts(path: string): GeminiFacts {
  const { meta, messages, tail } = messagesOf(path)
  const facts: GeminiFacts = {
    sessionId: typeof meta?.sessionId === 'string' ? meta.sessionId : undefined,
    lastReplyTokens: newestTokens(messages),
    tailTokens: tail,
    requests: [],
    replies: [],
    files: new Map(),
    commands: [],
    mcpTools: [],
    compressions: 0,
    models: new Set(),
  }
  let previousWasSummary = false
  for (const m of messages) {
    const wasSummary = previousWasSummary
    previousWasSummary = false
    if (m.type === 'user') {
      if (Array.isArray(m.content) && m.content.some((p) => isRec(p) && 'functionResponse' in p)) continue
      const words: string[] = []
      for (const t of texts(m.content)) {
        if (t.startsWith('<session_context>')) {
          const dir = /Workspace Directories:\*\*\n\s+- (.+)/.exec(t)
          if (dir) facts.cwd ??= dir[1]!.trim()
          continue
        }
        if (t.startsWith('<state_snapshot>')) {
          facts.compressions++
          previousWasSummary = true
          continue
        }
        const own = t
          .split(/<hook_context>[\s\S]*?<\/hook_context>/)
          .join('')
          .trim()
        if (own !== '') words.push(own)
      }
      const request = words.join('\n')
      if (request !== '' && request !== 'System: Please continue.') facts.requests.push(request)
      continue
    }
    if (m.type !== 'gemini') continue
    if (typeof m.model === 'string') facts.models.add(m.model)
    const reply = texts(m.content).join('\n')
    if (reply.trim() !== '' && !wasSummary) facts.replies.push(reply)
    for (const call of Array.isArray(m.toolCalls) ? (m.toolCalls as Rec[]) : []) {
      if (call.status !== 'success') continue
      const args = isRec(call.args) ? call.args : {}
      const name = String(call.name)
      if (name === 'write_file' || name === 'replace') {
        const path = String(args.file_path)
        const display = isRec(call.resultDisplay) ? call.resultDisplay : undefined
        const output = JSON.stringify(call.result ?? '')
        const created = name === 'write_file' && (display ? display.isNewFile === true : output.includes('Successfully created and wrote to new file'))
        if (!facts.files.has(path)) facts.files.set(path, created ? 'created' : 'modified')
      } else if (name === 'run_shell_command') facts.commands.push(String(args.command))
      else if (name.startsWith('mcp_')) facts.mcpTools.push(name)
    }
  }
  return facts
}
