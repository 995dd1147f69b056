/**
 * The command line of the host process that runs a hook, from /proc: a host that gives its hooks the same payload
 * and variables attended or not (Gemini CLI's `-p`, Codex CLI's `exec`) is told apart by how it was started. The
 * hook's parent is the host, or the shell the host ran the hook's command line with (a shell that did not exec it).
 * Undefined where /proc is missing (macOS) or the process is not readable.
 */
import { readFileSync } from 'node:fs'

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

/** The hook's parent's command line, or its grandparent's when the parent is a shell. */
export function hostCommandLine(ppid: number = process.ppid): string[] | undefined {
  let pid: number | undefined = ppid
  for (let hop = 0; hop < 2 && pid !== undefined; hop++) {
    const argv = cmdline(pid)
    if (!argv || argv.length === 0) return undefined
    if (!/(^|\/)(ba|da|z)?sh$/.test(argv[0]!)) return argv
    pid = parentOf(pid)
  }
  return undefined
}
