/**
 * Reading a command's arguments and input, shared by the rules and by git.ts:
 * GNU-style options, git's global options before the subcommand, and the text
 * a heredoc or here-string feeds to standard input.
 */
import type { Redirect, Word } from './syntax.js'

export interface ParsedOptions {
  flags: Set<string>
  values: Map<string, Word[]>
  positionals: Word[]
}

/**
 * GNU-style options. `short`: letters that take a value (`-t DIR`, `-tDIR`);
 * `long`: long names that take a value (`--target-directory DIR`); `--x=v` always works.
 */
export function parseOptions(args: Word[], short = '', long: readonly string[] = []): ParsedOptions {
  const flags = new Set<string>()
  const values = new Map<string, Word[]>()
  const positionals: Word[] = []
  const add = (key: string, w: Word | undefined): void => {
    flags.add(key)
    if (!w) return
    const list = values.get(key)
    if (list) list.push(w)
    else values.set(key, [w])
  }
  for (let k = 0; k < args.length; k++) {
    const a = args[k] as Word
    const t = a.text
    if (t === '--') {
      positionals.push(...args.slice(k + 1))
      break
    }
    if (a.dynamic || !t.startsWith('-') || t === '-') {
      positionals.push(a)
      continue
    }
    if (t.startsWith('--')) {
      const eq = t.indexOf('=')
      if (eq >= 0) add(t.slice(2, eq), { ...a, text: t.slice(eq + 1) })
      else if (long.includes(t.slice(2))) add(t.slice(2), args[++k])
      else flags.add(t.slice(2))
      continue
    }
    for (let c = 1; c < t.length; c++) {
      const ch = t[c] as string
      if (short.includes(ch)) {
        const rest = t.slice(c + 1)
        add(ch, rest.length > 0 ? { ...a, text: rest } : args[++k])
        break
      }
      flags.add(ch)
    }
  }
  return { flags, values, positionals }
}

/** `git [-C dir] [-c k=v] [--no-pager] ... <sub> args`: the subcommand, its args and the -C dirs. */
export interface GitInvocation {
  sub: string
  args: Word[]
  dirs: Word[]
}

export function parseGitInvocation(args: Word[]): GitInvocation | undefined {
  const dirs: Word[] = []
  let k = 0
  while (k < args.length) {
    const t = (args[k] as Word).text
    if (t === '-C') {
      const d = args[k + 1]
      if (d) dirs.push(d)
      k += 2
    } else if (/^(-c|--git-dir|--work-tree|--namespace|--config-env|--super-prefix)$/.test(t)) {
      k += 2
    } else if (t.startsWith('-')) {
      k++
    } else break
  }
  const sub = args[k]
  if (!sub || sub.dynamic) return undefined
  return { sub: sub.text, args: args.slice(k + 1), dirs }
}

/** Standard input text when it is a heredoc or here-string the shell passes literally. */
export function stdinText(redirects: Redirect[]): string | undefined {
  let text: string | undefined
  for (const r of redirects) {
    if (r.fd !== '' && r.fd !== '0') continue
    if (r.heredoc) {
      const h = r.heredoc
      text = h.body !== undefined && (h.quoted || !/[$`\\]/.test(h.body)) ? h.body : undefined
    } else if (r.op === '<<<') {
      text = r.target && !r.target.dynamic ? r.target.text + '\n' : undefined
    } else if (r.op === '<') {
      text = undefined
    }
  }
  return text
}

/** The body of `$(cat <<'EOF' ... EOF)` when the word is exactly that substitution. */
export function heredocSubstitution(w: Word): string | undefined {
  const t = w.text.trim()
  if (w.subs.length !== 1 || !t.startsWith('$(') || !t.endsWith(')')) return undefined
  for (const node of w.subs[0] ?? []) {
    if (node.kind !== 'simple') continue
    if (node.words[0]?.text !== 'cat' || node.words.length !== 1) continue
    const h = node.redirects.find((r) => r.heredoc?.body !== undefined)?.heredoc
    if (h?.body !== undefined) return h.body
  }
  return undefined
}
