/**
 * Whether Gemini CLI runs headless (`gemini -p …`): its hooks get the same payload and variables either way, so
 * the command line of the Gemini process that runs the hook says it (the hook log of 0.61 shows it as the parent).
 * Where /proc is missing (macOS) or the parent is not readable: attended, as the other hosts default.
 */
import { readFileSync } from 'node:fs'

/** A Gemini command line that runs one prompt and exits: `-p`/`--prompt` (not `-i`/`--prompt-interactive`). */
export function headlessArgs(argv: readonly string[]): boolean {
  return argv.some((a) => a === '-p' || a === '--prompt' || a.startsWith('--prompt='))
}

function cmdline(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((a) => a !== '')
  } catch {
    return undefined
  }
}

function parentOf(pid: number): number | undefined {
  try {
    // Field 4 of /proc/<pid>/stat, after the command name in parentheses (which may hold spaces).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
    return Number.isInteger(ppid) && ppid > 1 ? ppid : undefined
  } catch {
    return undefined
  }
}

/** The hook's parent, or its grandparent when the parent is the shell Gemini ran the command line with. */
export function geminiHeadless(ppid: number = process.ppid): boolean {
  let pid: number | undefined = ppid
  for (let hop = 0; hop < 2 && pid !== undefined; hop++) {
    const argv = cmdline(pid)
    if (!argv || argv.length === 0) return false
    if (!/(^|\/)(ba|da|z)?sh$/.test(argv[0]!)) return headlessArgs(argv)
    pid = parentOf(pid)
  }
  return false
}
