/**
 * An oracle for real transcripts, written independently of src/: it reads the raw JSON lines itself and
 * says which files the file tools changed, the last real request, the final task list and the last commit.
 */

export interface Oracle {
  root: string
  toolFiles: Set<string>
  /** Files in the order of their last change by a file tool, most recent first. */
  toolFilesByRecency: string[]
  shellText: string
  lastRequest: string | undefined
  /** Tasks not completed at the end: the last TodoWrite list, or TaskCreate/TaskUpdate/TaskList by id. */
  openTasks: string[]
  /** The hash of the last commit a successful `git commit` printed. */
  lastCommit: string | undefined
}

function userText(o: Record<string, any>): string | undefined {
  if (o.type !== 'user' || o.isMeta || o.isCompactSummary || o.isSidechain) return undefined
  if (o.origin && o.origin.kind && o.origin.kind !== 'human') return undefined
  const c = o.message?.content
  let text: string
  if (typeof c === 'string') text = c
  else if (Array.isArray(c)) {
    // Text blocks beside a tool result: a message the user typed while the tool ran (2.1.x); none: not a request.
    text = c
      .filter((b: any) => b?.type === 'text')
      .map((b: any) => b.text)
      .join('\n')
  } else return undefined
  text = text.replace(/<(system-reminder|ide_opened_file|ide_selection)>[\s\S]*?<\/\1>/g, '').trim()
  if (!text || /^(\[Request interrupted|<command-|<local-command|<task-notification|<teammate-message|<bash-|This session is being continued)/.test(text))
    return undefined
  if (text.includes('<command-name>')) return undefined
  return text
}

export function oracle(raw: string): Oracle {
  const parsed = raw
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      try {
        return JSON.parse(l)
      } catch {
        return null
      }
    })
    .filter(Boolean) as Record<string, any>[]
  // Subagent messages embedded in progress lines (2.1.x) change files too.
  const lines = parsed.flatMap((o) =>
    o.type === 'progress' && o.data?.type === 'agent_progress' && o.data.message && typeof o.data.message === 'object'
      ? [o, { ...o.data.message, isSidechain: true, cwd: o.cwd }]
      : [o],
  )
  const root = lines.find((o) => typeof o.cwd === 'string' && !o.isSidechain)?.cwd as string
  const uses = new Map<string, { name: string; input: any; cwd: string }>()
  const toolFiles = new Set<string>()
  let shellText = ''
  let lastRequest: string | undefined
  let todos: { content: string; status: string }[] | undefined
  const tasks = new Map<string, { subject: string; status: string }>()
  let lastCommit: string | undefined
  const lastChange = new Map<string, number>()
  let step = 0
  for (const o of lines) {
    step++
    const t = userText(o)
    if (t) lastRequest = t
    const content = o.message?.content
    if (!Array.isArray(content)) continue
    for (const b of content) {
      if (o.type === 'assistant' && b?.type === 'tool_use') uses.set(b.id, { name: b.name, input: b.input ?? {}, cwd: o.cwd ?? root })
      if (o.type === 'user' && b?.type === 'tool_result') {
        const u = uses.get(b.tool_use_id)
        if (!u || b.is_error === true) continue
        const resultText = typeof b.content === 'string' ? b.content : Array.isArray(b.content) ? b.content.map((x: any) => x?.text ?? '').join('\n') : ''
        if (u.name === 'Bash' || u.name === 'PowerShell') {
          shellText += `\n${u.input.command ?? ''}`
          const commit = /^\[[^\]\n]*?([0-9a-f]{7,40})\] /m.exec(resultText)
          if (/git\b[^\n]*\bcommit\b/.test(String(u.input.command ?? '')) && commit) lastCommit = commit[1]
        }
        if (u.name === 'TodoWrite' && !o.isSidechain && Array.isArray(u.input.todos)) todos = u.input.todos
        if (u.name === 'TaskCreate') {
          const id = o.toolUseResult?.task?.id ?? /Task #(\w+) created/.exec(resultText)?.[1]
          if (id !== undefined) tasks.set(String(id), { subject: u.input.subject ?? '', status: 'pending' })
        }
        if (u.name === 'TaskUpdate' && u.input.taskId !== undefined) {
          const t = tasks.get(String(u.input.taskId))
          if (t && u.input.status === 'deleted') tasks.delete(String(u.input.taskId))
          else if (t && u.input.status) t.status = u.input.status
        }
        if (u.name === 'TaskList' && Array.isArray(o.toolUseResult?.tasks)) {
          tasks.clear()
          for (const t of o.toolUseResult.tasks) tasks.set(String(t.id), { subject: t.subject, status: t.status })
        }
        if (!['Write', 'Edit', 'MultiEdit', 'NotebookEdit'].includes(u.name)) continue
        let p: string = u.input.file_path ?? u.input.notebook_path
        if (typeof p !== 'string') continue
        if (!p.startsWith('/')) p = `${u.cwd}/${p}`
        const parts: string[] = []
        for (const seg of p.split('/')) {
          if (seg === '..') parts.pop()
          else if (seg && seg !== '.') parts.push(seg)
        }
        const abs = `/${parts.join('/')}`
        if (abs.startsWith(`${root}/`)) {
          toolFiles.add(abs.slice(root.length + 1))
          lastChange.set(abs.slice(root.length + 1), step)
        }
      }
    }
  }
  const openTasks =
    tasks.size > 0
      ? [...tasks.values()].filter((t) => t.status !== 'completed').map((t) => t.subject)
      : (todos ?? []).filter((t) => t.status !== 'completed').map((t) => t.content)
  const toolFilesByRecency = [...lastChange.entries()].sort((a, b) => b[1] - a[1]).map(([f]) => f)
  return { root, toolFiles, toolFilesByRecency, shellText, lastRequest, openTasks, lastCommit }
}
