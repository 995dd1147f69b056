/**
 * Whether Codex CLI runs non-interactively (`codex exec …`, `codex e`, `codex review`): its hooks get the same
 * payload fields and variables either way (docs/HOOKS.md), so the command line of the Codex process that runs the
 * hook says it. Seen with 0.171: the hook's parent is the native `…/bin/codex` with the arguments as typed (the npm
 * shim passes them on), or `$SHELL -c` under it. Where /proc is missing (macOS) or unreadable: attended.
 */
import { hostCommandLine } from '../ancestry.js'

/** Codex's global options that take a value as the next word (`codex --help`, 0.171). */
const VALUE_FLAGS = new Set([
  '-c',
  '--config',
  '--enable',
  '--disable',
  '--remote',
  '--remote-auth-token-env',
  '-i',
  '--image',
  '-m',
  '--model',
  '--local-provider',
  '-p',
  '--profile',
  '-s',
  '--sandbox',
  '-C',
  '--cd',
  '--add-dir',
  '-a',
  '--ask-for-approval',
])

const CODEX = /(^|[\\/])codex(\.exe|\.js)?$/

/** A Codex command line whose subcommand runs without a person at the keyboard. */
export function nonInteractiveArgs(argv: readonly string[]): boolean {
  const args = CODEX.test(argv[0] ?? '') ? argv.slice(1) : CODEX.test(argv[1] ?? '') ? argv.slice(2) : undefined
  if (!args) return false
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    if (a === '--') return false // a prompt follows: the interactive CLI
    if (a.startsWith('-')) {
      if (!a.includes('=') && VALUE_FLAGS.has(a)) i++
      continue
    }
    // The first word that is no option: the subcommand, or the prompt of an interactive session.
    return a === 'exec' || a === 'e' || a === 'review'
  }
  return false
}

export function codexHeadless(ppid: number = process.ppid): boolean {
  const argv = hostCommandLine(ppid)
  return argv !== undefined && nonInteractiveArgs(argv)
}
