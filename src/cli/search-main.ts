/**
 * `bookmark search`'s own bundle (dist/cli/search.cjs): bin/bookmark.cjs loads it for `bookmark search …` and
 * calls `run` with the arguments after `search`. A search is timed against a bare Node start (docs/SEARCH.md),
 * and the whole CLI (commander and every command) costs more to load than the search itself; `run` returns
 * false for any line it leaves to the whole CLI (help, an unknown option, a bad value), before doing anything.
 */
import { defaultDeps } from '../shared/deps.js'
import { parseSearchArgs, searchCommand } from '../memory/search-cli.js'
import { writeAll } from './fdwrite.js'
import { failureCode } from './failure.js'

export function run(args: string[]): boolean {
  const parsed = parseSearchArgs(args)
  if (!parsed) return false
  const log = (m: string): void => writeAll(2, `bookmark: ${m}\n`)
  const io = {
    // Straight to the descriptor: building process.stdout would cost a fresh process more than the search.
    out: (text: string) => writeAll(1, text.endsWith('\n') ? text : `${text}\n`),
    cwd: process.cwd(),
    deps: defaultDeps(process.env, log),
  }
  searchCommand(parsed.words, parsed.flags, io).then(
    () => {
      process.exitCode = 0
    },
    (e: unknown) => {
      process.exitCode = failureCode(e, log)
    },
  )
  return true
}
