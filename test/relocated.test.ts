/**
 * Real transcripts relocated into a temporary project and captured by the built CLI: LATEST.md must list
 * at least 95% of the files that Write/Edit/MultiEdit/NotebookEdit changed inside the project, no file
 * that was not changed, and the session's last real request.
 *
 * The expected values come from an oracle written here, independent of src/: it reads the raw JSON
 * lines itself. Windows transcripts are left out: their `D:\` paths cannot be relocated onto this
 * machine's file system (they are covered by the corpus facts test instead).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli, sandbox } from './helpers/cli.js'
import { CORPUS_PRESENT, claudeFiles, claudePath } from './helpers/corpus.js'

interface Oracle {
  root: string
  toolFiles: Set<string>
  shellText: string
  lastRequest: string | undefined
}

function userText(o: Record<string, any>): string | undefined {
  if (o.type !== 'user' || o.isMeta || o.isCompactSummary || o.isSidechain) return undefined
  if (o.origin && o.origin.kind && o.origin.kind !== 'human') return undefined
  const c = o.message?.content
  let text: string
  if (typeof c === 'string') text = c
  else if (Array.isArray(c)) {
    if (c.some((b: any) => b?.type === 'tool_result')) return undefined
    text = c.filter((b: any) => b?.type === 'text').map((b: any) => b.text).join('\n')
  } else return undefined
  text = text.replace(/<(system-reminder|ide_opened_file|ide_selection)>[\s\S]*?<\/\1>/g, '').trim()
  if (!text || /^(\[Request interrupted|<command-|<local-command|<task-notification|<teammate-message|<bash-|This session is being continued)/.test(text)) return undefined
  if (text.includes('<command-name>')) return undefined
  return text
}

function oracle(raw: string): Oracle {
  const parsed = raw.split('\n').filter(Boolean).map((l) => { try { return JSON.parse(l) } catch { return null } }).filter(Boolean) as Record<string, any>[]
  // Subagent messages embedded in progress lines (2.1.x) change files too.
  const lines = parsed.flatMap((o) => (o.type === 'progress' && o.data?.type === 'agent_progress' && o.data.message && typeof o.data.message === 'object' ? [o, { ...o.data.message, isSidechain: true, cwd: o.cwd }] : [o]))
  const root = lines.find((o) => typeof o.cwd === 'string' && !o.isSidechain)?.cwd as string
  const uses = new Map<string, { name: string; input: any; cwd: string }>()
  const toolFiles = new Set<string>()
  let shellText = ''
  let lastRequest: string | undefined
  for (const o of lines) {
    const t = userText(o)
    if (t) lastRequest = t
    const content = o.message?.content
    if (!Array.isArray(content)) continue
    for (const b of content) {
      if (o.type === 'assistant' && b?.type === 'tool_use') uses.set(b.id, { name: b.name, input: b.input ?? {}, cwd: o.cwd ?? root })
      if (o.type === 'user' && b?.type === 'tool_result') {
        const u = uses.get(b.tool_use_id)
        if (!u || b.is_error === true) continue
        if (u.name === 'Bash' || u.name === 'PowerShell') shellText += `\n${u.input.command ?? ''}`
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
        if (abs.startsWith(`${root}/`)) toolFiles.add(abs.slice(root.length + 1))
      }
    }
  }
  return { root, toolFiles, shellText, lastRequest }
}

function filesSection(md: string): string {
  return md.split('\n## ').find((s) => s.startsWith('Files changed')) ?? ''
}

function filesInLatest(md: string): string[] {
  return [...filesSection(md).matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]!)
}

/** Files a listed file was moved from (`(from old/path)`): a moved file is still reported under its old name. */
function movedFrom(md: string): string[] {
  return [...filesSection(md).matchAll(/^- `[^`]+` \w+ \(from ([^)]+)\)/gm)].map((m) => m[1]!)
}

const candidates = claudeFiles().filter((n) => !n.includes('windows'))

describe.skipIf(!CORPUS_PRESENT)('real transcripts relocated into a temporary project', () => {
  it.each(candidates)('%s', async (name) => {
    const raw = await readFile(claudePath(name), 'utf8')
    const expected = oracle(raw)
    expect(expected.root, 'transcript has a cwd').toBeTruthy()
    const sb = await sandbox()
    const project = join(sb.dir, 'relocated-project')
    await mkdir(join(project, '.git'), { recursive: true })
    const escape = (s: string) => JSON.stringify(s).slice(1, -1)
    const relocated = raw.split(escape(expected.root)).join(escape(project))
    const transcript = join(sb.dir, name)
    await writeFile(transcript, relocated)

    const r = await runCli(['snapshot', '--transcript', transcript, '--cwd', project, '--json'], { env: sb.env })
    expect(r.code, r.stderr).toBe(0)
    const md = await readFile(join(project, '.bookmark', 'LATEST.md'), 'utf8')
    const listed = filesInLatest(md)
    const reported = new Set([...listed, ...movedFrom(md)])

    const found = [...expected.toolFiles].filter((f) => reported.has(f))
    if (expected.toolFiles.size > 0) expect(found.length / expected.toolFiles.size, `missing: ${[...expected.toolFiles].filter((f) => !reported.has(f)).join(', ')}`).toBeGreaterThanOrEqual(0.95)
    // Every listed file was changed: by a file tool, or named in a shell command that succeeded.
    const unexplained = listed.filter((f) => !expected.toolFiles.has(f) && !expected.shellText.includes(f.split('/').pop()!))
    expect(unexplained).toEqual([])
    if (expected.lastRequest) {
      const probe = expected.lastRequest.replace(/\s+/g, ' ').trim().slice(0, 60)
      expect(md.replace(/^> ?/gm, '').replace(/\s+/g, ' ')).toContain(probe)
    }
  })
})
