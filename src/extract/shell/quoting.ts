/**
 * Quote forms whose text needs decoding, for the lexer: Bash's $'..' (C escapes)
 * and PowerShell's backtick escapes and here-strings. Pure functions of the source
 * and a position; they return the decoded text and where reading stopped.
 */

const C_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
}

/** $'..' body with C escapes; `start` is past the opening quote, `end` past the closing one. */
export function ansiCString(s: string, start: number): { text: string; end: number } {
  const n = s.length
  let i = start
  let out = ''
  while (i < n) {
    const c = s[i] as string
    if (c === "'") return { text: out, end: i + 1 }
    if (c !== '\\') {
      out += c
      i++
      continue
    }
    const e = s[i + 1]
    i += 2
    if (e === undefined) break
    const mapped = C_ESCAPES[e]
    if (mapped !== undefined) {
      out += mapped
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const max = e === 'x' ? 2 : e === 'u' ? 4 : 8
      const m = new RegExp(`^[0-9A-Fa-f]{1,${max}}`).exec(s.slice(i, i + max))
      if (m) {
        const code = parseInt(m[0], 16)
        out += code <= 0x10ffff ? String.fromCodePoint(code) : ''
        i += m[0].length
      } else {
        out += '\\' + e
      }
    } else if (e >= '0' && e <= '7') {
      const m = /^[0-7]{1,3}/.exec(s.slice(i - 1, i + 2))
      const digits = m ? m[0] : e
      out += String.fromCharCode(parseInt(digits, 8) & 0xff)
      i += digits.length - 1
    } else {
      out += '\\' + e
    }
  }
  return { text: out, end: i }
}

/** The character a PowerShell backtick escape stands for (`n, `t, `r, `0; any other is itself). */
export function psEscape(c: string): string {
  switch (c) {
    case 'n':
      return '\n'
    case 't':
      return '\t'
    case 'r':
      return '\r'
    case '0':
      return '\0'
    default:
      return c
  }
}

/**
 * PowerShell here-string @'..'@ / @".."@ starting at the `@` at `start`; undefined when it is not one.
 * `dynamic`: a double-quoted body that expands something, or no closing line.
 */
export function psHereString(s: string, start: number): { text: string; dynamic: boolean; end: number } | undefined {
  const n = s.length
  const quote = s[start + 1] as string
  let j = start + 2
  while (s[j] === ' ' || s[j] === '\t' || s[j] === '\r') j++
  if (s[j] !== '\n') return undefined
  const close = s.indexOf('\n' + quote + '@', j)
  const bodyEnd = close < 0 ? n : close
  let body = s.slice(j + 1, bodyEnd)
  if (body.endsWith('\r')) body = body.slice(0, -1)
  const dynamic = (quote === '"' && /[$`]/.test(body)) || close < 0
  return { text: body, dynamic, end: close < 0 ? n : close + 3 }
}
