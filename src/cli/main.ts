/**
 * The process entry: the only place that sets the exit code.
 */
import { readFileSync } from 'node:fs'
import { CommanderError } from 'commander'
import { CaptureError } from '../ops/capture.js'
import { defaultDeps } from '../ops/context.js'
import { InputError } from '../ops/query.js'
import { DiscoveryError } from '../host/claude.js'
import { buildProgram } from './program.js'

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }
    return pkg.version ?? '0.0.0'
  } catch {
    return '0.0.0'
  }
}

export async function main(argv: string[]): Promise<number> {
  const log = (m: string): void => {
    process.stderr.write(`bookmark: ${m}\n`)
  }
  const program = buildProgram({
    out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    deps: defaultDeps(process.env, log),
    cwd: process.cwd(),
    version: packageVersion(),
  })
  program.exitOverride()
  program.configureOutput({ writeErr: (s) => process.stderr.write(s) })
  try {
    await program.parseAsync(argv)
    return 0
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version end here with code 0; usage errors were already printed by commander.
      return e.exitCode === 0 || e.code === 'commander.helpDisplayed' || e.code === 'commander.version' ? 0 : 1
    }
    if (e instanceof InputError || e instanceof CaptureError || e instanceof DiscoveryError) {
      log(e.message)
      return 1
    }
    log(`unexpected error: ${(e as Error).stack ?? String(e)}`)
    return 1
  }
}

process.exitCode = await main(process.argv)
