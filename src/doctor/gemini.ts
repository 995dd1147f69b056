/**
 * `bookmark doctor` for Gemini CLI: our hooks in its settings.json (on its events, named, with `--host gemini`),
 * whether Gemini would run them (`hooksConfig`), and the `bookmark mcp` server.
 */
import { access } from 'node:fs/promises'
import { GEMINI_EVENTS } from '../hooks/table.js'
import { hookEntry, shellWords } from '../setup/hooks.js'
import { geminiHookNotes, geminiSettingsPath, isOurMcp, MCP_NAME } from '../setup/gemini.js'
import { member, parseJson, toValue } from '../setup/jsonedit.js'
import { findInEvent, hooksObject } from '../setup/plan.js'
import { readSettings } from '../setup/settings.js'
import type { Check } from './check.js'

const exists = (p: string): Promise<boolean> =>
  access(p).then(
    () => true,
    () => false,
  )

/** The checks, and whether Gemini runs all our hooks (the Claude Code checks then need not fail for want of theirs). */
export async function geminiChecks(env: NodeJS.ProcessEnv): Promise<{ checks: Check[]; wired: boolean }> {
  const path = geminiSettingsPath(env)
  const file = await readSettings(path).catch(() => undefined)
  if (file?.text === undefined) return { checks: [], wired: false }
  let root
  try {
    root = parseJson(file.text)
  } catch (e) {
    const fix = 'fix the file by hand (Gemini CLI cannot read it as it is), then run `bookmark setup --host gemini`'
    return { checks: [{ id: 'gemini-hooks', status: 'error', message: `${path} is not valid JSON: ${(e as Error).message}`, fix }], wired: false }
  }
  if (root.kind !== 'object') return { checks: [], wired: false }
  const hooks = hooksObject(root)
  const found = GEMINI_EVENTS.map((e) => {
    const em = hooks?.members.find((m) => m.key === e.event)
    const f = em ? findInEvent(em).find((x) => x.hook === e.hook) : undefined
    return { ...e, handler: f ? (toValue(f.handler) as Record<string, unknown>) : undefined }
  })
  if (found.every((f) => !f.handler)) return { checks: [], wired: false }
  const checks: Check[] = []
  const fix = 'run `bookmark setup --host gemini`'
  for (const n of geminiHookNotes(root)) checks.push({ id: 'gemini-hooks', status: 'error', message: `${path}: ${n}`, fix: 'remove that setting' })
  for (const f of found) {
    if (!f.handler) continue
    const command = typeof f.handler.command === 'string' ? f.handler.command : ''
    const entry = hookEntry({ command })
    if (entry && !(await exists(entry)))
      checks.push({
        id: 'gemini-hooks',
        status: 'error',
        message: `${f.event} in ${path} runs ${entry}, which is not there: the hook does nothing`,
        fix: 'run `bookmark setup --host gemini` again from the installed package, or `bookmark uninstall --host gemini`',
      })
    else if (!shellWords(command).includes('gemini'))
      checks.push({ id: 'gemini-hooks', status: 'warn', message: `${f.event} in ${path} runs bookmark as if for Claude Code`, fix })
  }
  const missing = found.filter((f) => !f.handler).map((f) => f.event)
  if (missing.length > 0) checks.push({ id: 'gemini-hooks', status: 'error', message: `Gemini CLI hooks missing for ${missing.join(', ')} in ${path}`, fix })
  const servers = member(root, 'mcpServers')?.value
  const mcp = servers?.kind === 'object' ? member(servers, MCP_NAME)?.value : undefined
  if (!mcp || !isOurMcp(toValue(mcp)))
    checks.push({ id: 'gemini-mcp', status: 'warn', message: `Gemini CLI has no \`bookmark mcp\` server in ${path} (mcpServers.${MCP_NAME})`, fix })
  const wired = checks.length === 0
  if (wired)
    checks.push({
      id: 'gemini-hooks',
      status: 'ok',
      message: `Gemini CLI hooks wired for ${GEMINI_EVENTS.map((e) => e.event).join(', ')} and \`bookmark mcp\` registered in ${path}`,
    })
  return { checks, wired }
}
