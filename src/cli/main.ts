/**
 * The process entry: the only place that sets the exit code.
 */
import { readFileSync } from 'node:fs'
import { CommanderError } from 'commander'
import { defaultDeps } from '../shared/deps.js'
import { isStoreProblem, isUserError } from '../shared/errors.js'
import { DoctorFailed } from './doctor-text.js'
import { type Io, buildProgram } from './program.js'

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }
    return pkg.version ?? '0.0.0'
  } catch {
    return '0.0.0'
  }
}

export async function main(argv: string[], onHook: (ran: boolean) => void = () => undefined): Promise<number> {
  const log = (m: string): void => {
    process.stderr.write(`bookmark: ${m}\n`)
  }
  const io: Io = {
    out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    deps: defaultDeps(process.env, log),
    cwd: process.cwd(),
    version: packageVersion(),
    get stdin() {
      return process.stdin // only commands that use it create the stream
    },
  }
  const program = buildProgram(io)
  program.exitOverride()
  program.configureOutput({ writeErr: (s) => process.stderr.write(s) })
  try {
    await program.parseAsync(argv)
    onHook(io.hookRan === true)
    return 0
  } catch (e) {
    // A hook never fails towards the host: whatever happened, exit 0 (runHook already logged it).
    if (io.hookRan) {
      onHook(true)
      log(`hook error: ${(e as Error).message}`)
      return 0
    }
    if (e instanceof CommanderError) {
      // --help and --version end here with code 0; usage errors were already printed by commander.
      return e.exitCode === 0 || e.code === 'commander.helpDisplayed' || e.code === 'commander.version' ? 0 : 1
    }
    if (e instanceof DoctorFailed) return 1
    if (isUserError(e)) {
      log(e.message)
      return 1
    }
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOSPC' || code === 'EROFS' || code === 'EACCES' || code === 'EPERM' || code === 'EDQUOT') {
      // The disk, not the program: one line that says so, and what to check.
      log(`cannot write: ${(e as Error).message} (check free space and permissions; \`bookmark doctor\` tells more)`)
      return 1
    }
    // One line for people (a store entry of the wrong type, a lock, a key: the message says what and where);
    // the stack only when asked for, for a bug report.
    const message = ((e as Error).message ?? String(e)).split('\n')[0]
    log(
      `${isStoreProblem(e) ? '' : 'unexpected error: '}${message}${process.env.BOOKMARK_DEBUG === '1' ? `\n${(e as Error).stack ?? ''}` : ' (`bookmark doctor` tells more; BOOKMARK_DEBUG=1 shows where)'}`,
    )
    return 1
  }
}

/** Hooks exit as soon as their output is flushed: an open stdin or a stray timer must never hold them. */
function exitHook(): void {
  process.stdout.write('', () => process.exit(0))
}

/** Runs the command line of this process and sets its exit code. */
export async function runCli(): Promise<void> {
  let hook = false
  const code = await main(process.argv, (ran) => (hook = ran))
  if (hook) exitHook()
  else process.exitCode = code
}
