/**
 * `bookmark search` as the command line runs it: the options, what it prints, and reading them from argv without
 * commander (src/cli/search-main.ts, the command's own bundle, answers a search without loading the whole CLI).
 */
import type { Deps } from '../shared/deps.js'
import { type SearchOptions, hitsText, orientText, runOrient, runSearch, scopeNote } from './commands.js'

/** The search options (commands.ts), and how to print. */
export interface SearchFlags extends SearchOptions {
  json?: boolean
}

export interface SearchIo {
  out: (text: string) => void
  cwd: string
  deps: Deps
}

const json = (v: unknown): string => JSON.stringify(v, null, 2)

/** Runs `bookmark search WORDS… [flags]`: hits, or orientation on a project when there are no words. */
export async function searchCommand(words: string[], opts: SearchFlags, io: SearchIo): Promise<void> {
  const query = words.join(' ')
  if (query.trim() === '' && (opts.project !== undefined || (!opts.all && opts.kind === undefined && !opts.recent))) {
    const o = await runOrient(opts, io.cwd, io.deps)
    io.out(opts.json ? json(o) : orientText(o))
    return
  }
  const r = await runSearch(query, opts, io.cwd, io.deps)
  const note = scopeNote(r)
  if (note) io.deps.log(note)
  const none = `No events match "${query}"${opts.project || opts.kind || opts.since || opts.before || r.scope === 'current' ? ' with these filters' : ''} (\`bookmark index --status\` says what is indexed).`
  if (opts.json) {
    if (r.hits.length === 0) io.deps.log(none)
    io.out(JSON.stringify(r.hits, null, 2))
  } else io.out(r.hits.length === 0 ? none : hitsText(r.hits))
}

const VALUED = new Set(['project', 'kind', 'since', 'before', 'limit'])
const SWITCHES = new Set(['all', 'recent', 'json'])

/**
 * The words and flags of `search`'s arguments (after `search`), or undefined for anything the full command line
 * must judge: help, an unknown or repeated-in-an-odd-form option, a missing or bad value, `--`. Then the caller
 * hands the whole line to commander, which prints its own message.
 */
export function parseSearchArgs(args: readonly string[]): { words: string[]; flags: SearchFlags } | undefined {
  const words: string[] = []
  const flags: SearchFlags = {}
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    if (!a.startsWith('-') || a === '-') {
      words.push(a)
      continue
    }
    if (!a.startsWith('--') || a === '--') return undefined
    const eq = a.indexOf('=')
    const name = a.slice(2, eq === -1 ? undefined : eq)
    if (SWITCHES.has(name)) {
      if (eq !== -1) return undefined
      flags[name as 'all' | 'recent' | 'json'] = true
      continue
    }
    if (!VALUED.has(name)) return undefined
    let value: string | undefined
    if (eq !== -1) value = a.slice(eq + 1)
    else {
      value = args[++i]
      if (value === undefined || value.startsWith('-')) return undefined
    }
    if (name === 'limit') {
      if (!/^\d+$/.test(value) || Number(value) < 1) return undefined
      flags.limit = Number(value)
    } else flags[name as 'project' | 'kind' | 'since' | 'before'] = value
  }
  return { words, flags }
}
