/**
 * `bookmark doctor` for Codex CLI: our hooks in `$CODEX_HOME/hooks.json`, and whether Codex would run them. Codex
 * skips a hook silently unless config.toml trusts the hash of exactly its command (setup/codex.ts). Each hook whose
 * entry is there is then run as Codex runs it (codex-probe.ts).
 */
import { access } from 'node:fs/promises'
import { HOOK_EVENTS } from '../setup/hooks.js'
import { type CodexHook, codexConfigPath, codexHooksPath, hookStates, ourCodexHooks, trustOf } from '../setup/codex.js'
import { hookEntry } from '../setup/hooks.js'
import { shellWords } from '../setup/hooks.js'
import { readSettings } from '../setup/settings.js'
import type { Check } from './check.js'
import { type CodexWiredHook, probeCodexHooks } from './codex-probe.js'

const WHY = {
  untrusted: 'config.toml does not trust it',
  modified: 'its command or timeout changed since it was trusted',
  disabled: 'config.toml disables it (enabled = false)',
} as const

/** The checks, and whether Codex runs all four of our hooks (the Claude Code checks then need not fail for want of theirs). */
export async function codexChecks(env: NodeJS.ProcessEnv): Promise<{ checks: Check[]; wired: boolean }> {
  const path = codexHooksPath(env)
  const file = await readSettings(path).catch(() => undefined)
  if (file?.text === undefined) return { checks: [], wired: false }
  let hooks: CodexHook[]
  try {
    hooks = ourCodexHooks(path, file.text)
  } catch (e) {
    const fix = 'fix the file by hand (Codex ignores it as it is), then run `bookmark setup --host codex`'
    return { checks: [{ id: 'codex-hooks', status: 'error', message: `${path} is not valid JSON: ${(e as Error).message}`, fix }], wired: false }
  }
  if (hooks.length === 0) return { checks: [], wired: false }
  const checks: Check[] = []
  const toml = codexConfigPath(env)
  const states = hookStates((await readSettings(toml).catch(() => undefined))?.text ?? '')
  const fix = '`bookmark setup --host codex` trusts the command it writes (or trust it in Codex: /hooks)'
  const probe: CodexWiredHook[] = []
  for (const h of hooks) {
    const trust = trustOf(h, states)
    if (trust !== 'trusted')
      checks.push({ id: 'codex-hooks', status: 'error', message: `Codex skips the ${h.event} hook in ${path}: ${WHY[trust]} (${toml})`, fix })
    const entry = hookEntry({ command: h.command })
    if (
      entry &&
      !(await access(entry).then(
        () => true,
        () => false,
      ))
    )
      checks.push({
        id: 'codex-hooks',
        status: 'error',
        message: `${h.event} in ${path} runs ${entry}, which is not there: the hook does nothing`,
        fix: 'run `bookmark setup --host codex` again from the installed package, or `bookmark uninstall --host codex`',
      })
    else {
      probe.push({ event: h.event, command: h.command, ...(h.timeout !== undefined ? { timeout: h.timeout } : {}) })
      if (!shellWords(h.command).includes('--host'))
        checks.push({
          id: 'codex-hooks',
          status: 'warn',
          message: `${h.event} in ${path} runs bookmark as if for Claude Code`,
          fix: 'run `bookmark setup --host codex`',
        })
    }
  }
  for (const p of await probeCodexHooks(probe, env))
    checks.push({
      id: 'codex-hooks',
      status: 'error',
      message: `${p.event} in ${path}, run as Codex CLI runs it, ${p.problem}`,
      fix: 'run `bookmark setup --host codex` again (it writes and trusts the command Codex should run); `bookmark doctor` checks again',
    })
  const missing = HOOK_EVENTS.filter((e) => !hooks.some((h) => h.event === e))
  if (missing.length > 0)
    checks.push({
      id: 'codex-hooks',
      status: 'error',
      message: `Codex CLI hooks missing for ${missing.join(', ')} in ${path}`,
      fix: 'run `bookmark setup --host codex`',
    })
  const wired = checks.length === 0
  if (wired) checks.push({ id: 'codex-hooks', status: 'ok', message: `Codex CLI hooks wired for ${HOOK_EVENTS.join(', ')} in ${path}, trusted in ${toml}` })
  return { checks, wired }
}
