/**
 * Whether Gemini CLI runs headless (`gemini -p …`): its hooks get the same payload and variables either way, so
 * the command line of the Gemini process that runs the hook says it (the hook log of 0.61 shows it as the parent).
 * Where /proc is missing (macOS) or the parent is not readable: attended, as the other hosts default.
 */
import { hostCommandLine } from '../ancestry.js'

/** A Gemini command line that runs one prompt and exits: `-p`/`--prompt` (not `-i`/`--prompt-interactive`). */
export function headlessArgs(argv: readonly string[]): boolean {
  return argv.some((a) => a === '-p' || a === '--prompt' || a.startsWith('--prompt='))
}

/** The hook's parent, or its grandparent when the parent is the shell Gemini ran the command line with. */
export function geminiHeadless(ppid: number = process.ppid): boolean {
  const argv = hostCommandLine(ppid)
  return argv !== undefined && headlessArgs(argv)
}
