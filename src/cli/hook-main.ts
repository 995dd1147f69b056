/**
 * A hook command without flags, as the installed hooks run it (bin/bookmark.cjs loads the hook's own
 * bundle, dist/cli/hook-<name>.cjs, which holds just what that hook needs). Same behaviour as the command table's
 * hook commands (program.ts): notes on stderr, at most one JSON object on stdout, always exit 0.
 * Output goes straight to file descriptors 1 and 2 (no stream objects to build, nothing left to flush).
 */
import { claudeHost } from '../hosts/claude/host.js'
import type { Host } from '../hosts/host.js'
import { loadHost } from '../hosts/load.js'
import type { HookName } from '../hooks/names.js'
import { type HookBody, runHook } from '../hooks/run.js'
import { writeAll } from './fdwrite.js'
import { readStdin } from './stdin.js'
import { defaultDeps } from '../shared/deps.js'

/**
 * Who runs the hook: `bookmark <hook> --host codex|gemini` (the line setup writes for Codex and Gemini CLI;
 * bin/bookmark.cjs lets nothing else through), else Claude Code. Their hosts load only then: Claude Code's hooks never compile them.
 */
async function hookHost(argv: readonly string[]): Promise<Host> {
  return argv[3] === '--host' && (argv[4] === 'codex' || argv[4] === 'gemini') ? loadHost(argv[4]) : claudeHost
}

export async function runInstalledHook(name: HookName, body: HookBody): Promise<void> {
  const log = (m: string): void => writeAll(2, `bookmark: ${m}\n`)
  try {
    const run = await runHook(await hookHost(process.argv), name, body, {}, defaultDeps(process.env, log), () => readStdin(), process.cwd())
    for (const note of run.notes) log(note)
    if (run.stdout !== '') writeAll(1, `${run.stdout}\n`)
  } catch (e) {
    log(`hook error: ${(e as Error).message}`)
  }
  // Everything is written (synchronously): an open stdin or a stray timer must never hold a hook.
  process.exit(0)
}
