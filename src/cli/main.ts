/**
 * The process entry: the only place that sets the exit code.
 */
import { readFileSync } from 'node:fs'
import { CommanderError } from 'commander'
import { defaultDeps } from '../shared/deps.js'
import { failureCode } from './failure.js'
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
    return failureCode(e, log)
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
