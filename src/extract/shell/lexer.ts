/**
 * The lexer: a Bash or PowerShell command string -> simple commands (words after
 * quote removal, redirects, heredoc bodies, pipes), with `open`/`close` marks around
 * subshells and script blocks and $(..) / <(..) bodies parsed as commands of their own.
 *
 * One class serves both shells: they share most of the structure (words, quotes,
 * `;` `|` `&&`, redirects), and the differences are a `ps` test at the few places
 * they disagree (backtick vs backslash escapes, `{ }` blocks, `,` arrays, `<# #>`).
 * Decoding of the special quote forms is in quoting.ts. Pure string work; never throws.
 */
import { ansiCString, psEscape, psHereString } from './quoting.js'
import type { Heredoc, ScriptNode, Shell, SimpleCommand, Word } from './syntax.js'

/** Nesting of $(..), <(..) and `bash -c` we follow; deeper input is treated as opaque text. */
export const MAX_DEPTH = 32

const BASH_VARIABLE = /[A-Za-z_][A-Za-z0-9_]{0,255}|[0-9@*#?$!-]/y
const PS_VARIABLE = /[A-Za-z0-9_:?^$]{1,256}/y
/** Shared by words without substitutions (most of them); replaced before the first push. */
const NO_SUBS: ScriptNode[][] = []

function newSimple(pipeIn: boolean): SimpleCommand {
  return { kind: 'simple', words: [], redirects: [], pipeIn, pipeOut: false }
}

function literalWord(text: string): Word {
  return { text, raw: text, dynamic: false, glob: false, quoted: false, subs: NO_SUBS, comma: false }
}

class Lexer {
  private readonly s: string
  private readonly n: number
  private readonly ps: boolean
  private i = 0
  private pending: Heredoc[] = []

  constructor(source: string, shell: Shell) {
    this.s = source
    this.n = source.length
    this.ps = shell === 'powershell'
  }

  parse(): ScriptNode[] {
    return this.script(0, false)
  }

  /** Reads commands until the end of input or, inside a substitution, its closing `)`. */
  private script(depth: number, inSub: boolean): ScriptNode[] {
    const s = this.s
    const ps = this.ps
    const nodes: ScriptNode[] = []
    let cur = newSimple(false)
    let groups = 0
    let inTest = false // between `[[` and `]]`: < and > compare, they do not redirect
    let comma = false
    const flush = (pipe: boolean): void => {
      cur.pipeOut = pipe
      if (cur.words.length > 0 || cur.redirects.length > 0) nodes.push(cur)
      cur = newSimple(pipe)
      inTest = false
    }
    while (this.i < this.n) {
      const c = s[this.i]
      if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
        this.i++
        continue
      }
      if (c === '\n') {
        this.i++
        flush(false)
        this.readHeredocs()
        continue
      }
      if (!ps && c === '\\' && s[this.i + 1] === '\n') {
        this.i += 2
        continue
      }
      if (ps && c === '`' && (s[this.i + 1] === '\n' || (s[this.i + 1] === '\r' && s[this.i + 2] === '\n'))) {
        this.i += s[this.i + 1] === '\n' ? 2 : 3
        continue
      }
      if (c === '#') {
        this.skipToLineEnd()
        continue
      }
      if (ps && c === '<' && s[this.i + 1] === '#') {
        const end = s.indexOf('#>', this.i + 2)
        this.i = end < 0 ? this.n : end + 2
        continue
      }
      if (c === ';') {
        this.i++
        while (s[this.i] === ';' || s[this.i] === '&') this.i++
        flush(false)
        continue
      }
      if (c === '|') {
        if (s[this.i + 1] === '|') {
          this.i += 2
          flush(false)
        } else {
          this.i += s[this.i + 1] === '&' ? 2 : 1
          flush(true)
        }
        continue
      }
      if (c === '&') {
        if (s[this.i + 1] === '&') {
          this.i += 2
          flush(false)
        } else if (!ps && s[this.i + 1] === '>') {
          this.redirect(cur, '', depth)
        } else if (ps && cur.words.length === 0) {
          this.i++ // PowerShell call operator: `& "tool.exe" args`
        } else {
          this.i++
          flush(false)
        }
        continue
      }
      if (c === '(') {
        if (!ps && s[this.i + 1] === '(' && cur.words.length === 0) {
          // Arithmetic command (( .. )): no files, and its `>` is a comparison.
          const start = this.i
          this.skipBalanced('(', ')')
          cur.words.push({ ...literalWord(s.slice(start, this.i)), dynamic: true })
          continue
        }
        this.i++
        flush(false)
        nodes.push({ kind: 'open' })
        groups++
        continue
      }
      if (c === ')') {
        this.i++
        flush(false)
        if (groups > 0) {
          groups--
          nodes.push({ kind: 'close' })
        } else if (inSub) {
          return nodes
        }
        continue
      }
      if (ps && (c === '{' || c === '}')) {
        this.i++
        flush(false)
        if (c === '{') {
          nodes.push({ kind: 'open' })
          groups++
        } else if (groups > 0) {
          groups--
          nodes.push({ kind: 'close' })
        }
        continue
      }
      if (ps && c === ',') {
        this.i++
        comma = true
        continue
      }
      if ((c === '<' || c === '>') && !inTest) {
        if (!ps && s[this.i + 1] === '(') {
          const w = this.word(depth)
          w.comma = comma
          comma = false
          cur.words.push(w)
        } else {
          this.redirect(cur, '', depth)
        }
        continue
      }
      // A word, or the fd number of a redirect written right against it (2>err.log).
      const w = this.word(depth)
      const next = s[this.i]
      if ((next === '>' || next === '<') && !inTest && !w.quoted && (/^\d+$/.test(w.raw) || (ps && w.raw === '*'))) {
        this.redirect(cur, w.raw, depth)
        continue
      }
      if (w.raw.length === 0) {
        // Nothing consumed (a stray character the word reader refuses): skip it.
        this.i++
        continue
      }
      w.comma = comma
      comma = false
      if (!ps && !w.quoted) {
        if (w.raw === '[[' && cur.words.length === 0) inTest = true
        else if (w.raw === ']]') inTest = false
      }
      cur.words.push(w)
    }
    flush(false)
    return nodes
  }

  private skipToLineEnd(): void {
    const nl = this.s.indexOf('\n', this.i)
    this.i = nl < 0 ? this.n : nl
  }

  /** Skips a balanced open..close region starting at an `open` char; quotes respected loosely. */
  private skipBalanced(open: string, close: string): void {
    const s = this.s
    let level = 0
    while (this.i < this.n) {
      const c = s[this.i]
      if (c === '\\' && !this.ps) {
        this.i += 2
        continue
      }
      if (c === "'") {
        const end = s.indexOf("'", this.i + 1)
        this.i = end < 0 ? this.n : end + 1
        continue
      }
      if (c === '"') {
        this.i++
        while (this.i < this.n && s[this.i] !== '"') this.i += s[this.i] === '\\' || s[this.i] === '`' ? 2 : 1
        this.i++
        continue
      }
      this.i++
      if (c === open) level++
      else if (c === close) {
        level--
        if (level <= 0) return
      }
    }
    this.i = Math.min(this.i, this.n)
  }

  private redirect(cur: SimpleCommand, fd: string, depth: number): void {
    const s = this.s
    const ops = ['&>>', '&>', '<<<', '<<-', '<<', '<&', '<>', '<', '>>', '>|', '>&', '>']
    let op = '>'
    for (const candidate of ops) {
      if (s.startsWith(candidate, this.i)) {
        op = candidate
        break
      }
    }
    this.i += op.length
    while (s[this.i] === ' ' || s[this.i] === '\t') this.i++
    const c = s[this.i]
    const atBoundary = c === undefined || c === '\n' || c === ';' || c === '|' || c === '&' || c === ')' || (c === '(' && !this.ps)
    const target = atBoundary ? undefined : this.word(depth)
    if (target && target.raw.length === 0) return
    if (op === '<<' || op === '<<-') {
      if (!target) return
      const heredoc: Heredoc = { delimiter: target.text, quoted: target.quoted, stripTabs: op === '<<-' }
      this.pending.push(heredoc)
      cur.redirects.push({ fd, op, heredoc })
      return
    }
    cur.redirects.push(target ? { fd, op, target } : { fd, op })
  }

  /** After a newline: read the bodies of the heredocs announced on the line just ended. */
  private readHeredocs(): void {
    if (this.pending.length === 0) return
    const s = this.s
    for (const h of this.pending) {
      const lines: string[] = []
      let done = false
      while (this.i < this.n) {
        const nl = s.indexOf('\n', this.i)
        const end = nl < 0 ? this.n : nl
        let line = s.slice(this.i, end)
        this.i = nl < 0 ? this.n : nl + 1
        if (h.stripTabs) line = line.replace(/^\t+/, '')
        if ((line.endsWith('\r') ? line.slice(0, -1) : line) === h.delimiter) {
          done = true
          break
        }
        lines.push(line)
      }
      if (done || lines.length > 0) h.body = lines.length > 0 ? lines.join('\n') + '\n' : ''
    }
    this.pending = []
  }

  private isWordBreak(c: string): boolean {
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === ';' || c === '|' || c === '&') return true
    if (c === '(' || c === ')' || c === '<' || c === '>') return true
    return this.ps && (c === '{' || c === '}' || c === ',')
  }

  private word(depth: number): Word {
    const s = this.s
    const ps = this.ps
    const start = this.i
    const w: Word = { text: '', raw: '', dynamic: false, glob: false, quoted: false, subs: NO_SUBS, comma: false }
    let brace = false
    // Process substitution <(..) / >(..): runs a command, the word is a /dev/fd path.
    if (!ps && (s[this.i] === '<' || s[this.i] === '>') && s[this.i + 1] === '(') {
      this.i += 2
      this.substitution(w, depth, start)
      w.raw = s.slice(start, this.i)
      return w
    }
    if (ps && s[this.i] === '@' && (s[this.i + 1] === "'" || s[this.i + 1] === '"')) {
      const here = psHereString(s, this.i)
      if (here) {
        w.text += here.text
        w.quoted = true
        if (here.dynamic) w.dynamic = true
        this.i = here.end
        w.raw = s.slice(start, this.i)
        return w
      }
    }
    while (this.i < this.n) {
      const c = s[this.i] as string
      if (this.isWordBreak(c)) {
        // name=(a b c): a bash array assignment is one word.
        if (!ps && c === '(' && !w.quoted && /^[A-Za-z_][A-Za-z0-9_]*\+?=$/.test(w.text)) {
          const from = this.i
          this.skipBalanced('(', ')')
          w.text += s.slice(from, this.i)
          w.dynamic = true
          continue
        }
        break
      }
      if (c === "'") {
        w.quoted = true
        if (ps) {
          let j = this.i + 1
          let text = ''
          for (;;) {
            const end = s.indexOf("'", j)
            if (end < 0) {
              text += s.slice(j)
              j = this.n
              w.dynamic = true // unterminated: never a usable path
              break
            }
            text += s.slice(j, end)
            if (s[end + 1] === "'") {
              text += "'"
              j = end + 2
              continue
            }
            j = end + 1
            break
          }
          w.text += text
          this.i = j
        } else {
          const end = s.indexOf("'", this.i + 1)
          if (end < 0) {
            w.text += s.slice(this.i + 1)
            w.dynamic = true
            this.i = this.n
          } else {
            w.text += s.slice(this.i + 1, end)
            this.i = end + 1
          }
        }
        continue
      }
      if (c === '"') {
        w.quoted = true
        this.i++
        this.doubleQuoted(w, depth)
        continue
      }
      if (!ps && c === '\\') {
        w.quoted = true
        const next = s[this.i + 1]
        if (next === undefined) {
          w.text += '\\'
          this.i++
        } else if (next === '\n') {
          this.i += 2
        } else {
          w.text += next
          this.i += 2
        }
        continue
      }
      if (ps && c === '`') {
        w.quoted = true
        const next = s[this.i + 1]
        if (next === undefined) {
          this.i++
        } else if (next === '\n') {
          this.i += 2
        } else {
          w.text += psEscape(next)
          this.i += 2
        }
        continue
      }
      if (c === '$') {
        this.dollar(w, depth, false)
        continue
      }
      if (!ps && c === '`') {
        this.backtick(w)
        continue
      }
      if (ps && c === '@' && (s[this.i + 1] === '(' || s[this.i + 1] === '{')) {
        const from = this.i
        this.i++
        this.skipBalanced(s[this.i] as string, s[this.i] === '(' ? ')' : '}')
        w.text += s.slice(from, this.i)
        w.dynamic = true
        continue
      }
      if (c === '*' || c === '?' || c === '[') w.glob = true
      else if (c === '{' || c === '}') brace = true
      // Copy a run of ordinary characters at once.
      let j = this.i + 1
      while (j < this.n) {
        const d = s[j] as string
        if (this.isWordBreak(d) || d === "'" || d === '"' || d === '$' || d === '\\' || d === '`') break
        if (d === '*' || d === '?' || d === '[') w.glob = true
        else if (d === '{' || d === '}') brace = true
        else if (ps && d === '@') break
        j++
      }
      w.text += s.slice(this.i, j)
      this.i = j
    }
    w.raw = s.slice(start, this.i)
    if (brace && !(w.raw === '{' || w.raw === '}')) w.glob = true
    return w
  }

  private doubleQuoted(w: Word, depth: number): void {
    const s = this.s
    const ps = this.ps
    while (this.i < this.n) {
      const c = s[this.i] as string
      if (c === '"') {
        if (ps && s[this.i + 1] === '"') {
          w.text += '"'
          this.i += 2
          continue
        }
        this.i++
        return
      }
      if (!ps && c === '\\') {
        const next = s[this.i + 1]
        if (next === '$' || next === '`' || next === '"' || next === '\\') {
          w.text += next
          this.i += 2
        } else if (next === '\n') {
          this.i += 2
        } else {
          w.text += '\\'
          this.i++
        }
        continue
      }
      if (ps && c === '`') {
        const next = s[this.i + 1]
        if (next !== undefined) w.text += psEscape(next)
        this.i += 2
        continue
      }
      if (c === '$') {
        this.dollar(w, depth, true)
        continue
      }
      if (!ps && c === '`') {
        this.backtick(w)
        continue
      }
      let j = this.i + 1
      while (j < this.n) {
        const d = s[j]
        if (d === '"' || d === '$' || d === '\\' || d === '`') break
        j++
      }
      w.text += s.slice(this.i, j)
      this.i = j
    }
    w.dynamic = true // unterminated double quote
  }

  /** At a `$`: variable, ${..}, $(..), $((..)), $'..', $".." or a literal dollar sign. */
  private dollar(w: Word, depth: number, inDouble: boolean): void {
    const s = this.s
    const start = this.i
    const next = s[this.i + 1]
    if (next === '(') {
      if (!this.ps && s[this.i + 2] === '(') {
        this.i++
        this.skipBalanced('(', ')')
        w.text += s.slice(start, this.i)
        w.dynamic = true
        return
      }
      this.i += 2
      this.substitution(w, depth, start)
      return
    }
    if (next === '{') {
      this.i++
      this.skipBalanced('{', '}')
      w.text += s.slice(start, this.i)
      w.dynamic = true
      return
    }
    if (!this.ps && !inDouble && next === "'") {
      w.quoted = true
      const decoded = ansiCString(s, this.i + 2)
      w.text += decoded.text
      this.i = decoded.end
      return
    }
    if (!this.ps && !inDouble && next === '"') {
      this.i++ // $"..": locale translation, read as a plain double-quoted string
      return
    }
    const name = this.ps ? PS_VARIABLE : BASH_VARIABLE
    name.lastIndex = this.i + 1
    const m = name.exec(s)
    if (m) {
      this.i += 1 + m[0].length
      w.text += s.slice(start, this.i)
      w.dynamic = true
      return
    }
    w.text += '$'
    this.i++
  }

  /** Body of $(..) or <(..), already past the opening `(`; parsed as commands. */
  private substitution(w: Word, depth: number, start: number): void {
    if (depth >= MAX_DEPTH) {
      this.i--
      this.skipBalanced('(', ')')
    } else {
      const sub = this.script(depth + 1, true)
      if (w.subs === NO_SUBS) w.subs = [sub]
      else w.subs.push(sub)
    }
    w.text += this.s.slice(start, this.i)
    w.dynamic = true
  }

  private backtick(w: Word): void {
    const s = this.s
    const start = this.i
    let j = this.i + 1
    while (j < this.n && s[j] !== '`') j += s[j] === '\\' ? 2 : 1
    this.i = Math.min(j + 1, this.n)
    w.text += s.slice(start, this.i)
    w.dynamic = true
  }
}

/** Splits a command string into simple commands. Never throws. */
export function parseScript(command: string, shell: Shell): ScriptNode[] {
  if (typeof command !== 'string' || command.length === 0) return []
  try {
    return new Lexer(command, shell).parse()
  } catch {
    return []
  }
}
