/**
 * Structural hints for a changed file: which declarations a diff adds, removes or modifies,
 * e.g. `+fn parseLine`, `+class Store`, `-interface Old`, `~fn resumeSession`.
 * Pure and line-based (no parser): each added or removed line is matched against a few
 * per-language declaration patterns.
 *
 * Conventions:
 * - A hint is `<sign><kind> <name>`. Sign: `+` added, `-` removed, `~` modified (the same
 *   kind and name occurs in both added and removed lines, e.g. a signature change).
 * - Kinds are language-neutral: `fn` is every free function (TS `function` and arrow consts,
 *   Python `def`, Go `func`, Rust `fn`, Kotlin `fun`, Ruby `def`); Go methods are `fn Type.Name`.
 *   Functions indented one level inside a class/impl whose header is not part of the diff are
 *   `method name` (the owner is unknown); members of a class/impl that is itself in the diff
 *   are not listed (the class hint covers them), nor are functions nested in a function.
 *   Others: class, interface, type, enum, struct, trait, impl (`impl Reader for File`),
 *   mod, object, record, const.
 * - `const` only for top-level constants that look deliberate: TS/JS exported or
 *   SCREAMING_CASE consts, Python SCREAMING_CASE assignments, Go/Rust `const` (Rust `static`).
 * - Order: hints from added lines in order of appearance, then hints only in removed lines.
 *   Deduplicated, at most MAX_HINTS. Unknown extension -> []. Never throws.
 */
import type { LineDiff } from './diff.js'

export const MAX_HINTS = 12

type Kind = 'fn' | 'method' | 'class' | 'interface' | 'type' | 'enum' | 'struct' | 'trait' | 'impl' | 'mod' | 'object' | 'record' | 'const'

interface Decl {
  kind: Kind
  name: string
  /** A function indented inside some block: reported only when that block is not in the diff. */
  member?: true
}

interface Language {
  /** Classify one line (trailing whitespace removed); `code` is the line without its indentation. */
  declare(code: string, indent: number): Decl | null
  /** Deepest indentation (columns, tab = 4) at which a member function is still looked for. */
  memberIndent: number
}

/** Lines longer than this are skipped: declarations are short, minified code is not. */
const MAX_LINE = 400
/** How far back a member function looks for the block that encloses it. */
const MAX_LOOKBACK = 300

export function structuralHints(filePath: string, diff: LineDiff): string[] {
  try {
    const lang = languageOf(filePath)
    if (!lang) return []
    // Only the first MAX_HINTS are kept, and added ones come first: the added side is read no further than that.
    const added = declarations(lang, diff.added, MAX_HINTS)
    const removed = declarations(lang, diff.removed)
    const removedKeys = new Set(removed.map(keyOf))
    const addedKeys = new Set(added.map(keyOf))
    const out: string[] = []
    for (const d of added) out.push((removedKeys.has(keyOf(d)) ? '~' : '+') + keyOf(d))
    for (const d of removed) if (!addedKeys.has(keyOf(d))) out.push('-' + keyOf(d))
    return out.slice(0, MAX_HINTS)
  } catch {
    return []
  }
}

function keyOf(d: Decl): string {
  return `${d.kind} ${d.name}`
}

/** Declarations in one side of a diff, deduplicated, in order: the first `max` of them. */
function declarations(lang: Language, lines: readonly string[], max = Infinity): Decl[] {
  const out: Decl[] = []
  const seen = new Set<string>()
  for (let i = 0; i < lines.length && out.length < max; i++) {
    const line = (lines[i] ?? '').trimEnd()
    if (line.length === 0 || line.length > MAX_LINE) continue
    const indent = indentOf(line)
    const decl = lang.declare(line.trimStart(), indent)
    if (!decl) continue
    if (decl.member) {
      if (indent === 0 || indent > lang.memberIndent) continue
      if (enclosedByDeclaration(lang, lines, i, indent)) continue
    }
    const key = keyOf(decl)
    if (seen.has(key)) continue
    seen.add(key)
    out.push(decl)
  }
  return out
}

/** Whether the nearest earlier, less indented line in the same diff side is itself a declaration. */
function enclosedByDeclaration(lang: Language, lines: readonly string[], index: number, indent: number): boolean {
  for (let j = index - 1; j >= 0 && j >= index - MAX_LOOKBACK; j--) {
    const line = (lines[j] ?? '').trimEnd()
    const code = line.trimStart()
    if (code === '' || line.length > MAX_LINE || isCommentOrAttribute(code)) continue
    const own = indentOf(line)
    if (own >= indent) continue
    return lang.declare(code, own) !== null
  }
  return false
}

function isCommentOrAttribute(code: string): boolean {
  return /^(\/\/|\/\*|\*|#|@)/.test(code)
}

function indentOf(line: string): number {
  let width = 0
  for (const ch of line) {
    if (ch === ' ') width++
    else if (ch === '\t') width += 4
    else break
  }
  return width
}

function languageOf(filePath: string): Language | null {
  const base = filePath.split(/[\\/]/).pop() ?? ''
  const dot = base.lastIndexOf('.')
  if (dot <= 0) return null
  switch (base.slice(dot + 1).toLowerCase()) {
    case 'ts':
    case 'tsx':
    case 'mts':
    case 'cts':
    case 'js':
    case 'jsx':
    case 'mjs':
    case 'cjs':
      return typescript
    case 'py':
    case 'pyi':
      return python
    case 'go':
      return go
    case 'rs':
      return rust
    case 'java':
    case 'cs':
      return javaLike
    case 'kt':
    case 'kts':
      return kotlin
    case 'rb':
      return ruby
    default:
      return null
  }
}

const ID = '[A-Za-z_$][\\w$]*'

// ---------------------------------------------------------------- TypeScript / JavaScript

const TS_FUNCTION = new RegExp(`^(?:export\\s+(?:default\\s+)?)?(?:declare\\s+)?(?:async\\s+)?function\\s*\\*?\\s*(${ID})`)
const TS_CLASS = new RegExp(`^(?:export\\s+(?:default\\s+)?)?(?:declare\\s+)?(?:abstract\\s+)?class\\s+(${ID})`)
const TS_INTERFACE = new RegExp(`^(?:export\\s+(?:default\\s+)?)?(?:declare\\s+)?interface\\s+(${ID})`)
const TS_TYPE = new RegExp(`^(?:export\\s+)?(?:declare\\s+)?type\\s+(${ID})\\s*[<=]`)
const TS_ENUM = new RegExp(`^(?:export\\s+)?(?:declare\\s+)?(?:const\\s+)?enum\\s+(${ID})`)
const TS_NAMESPACE = new RegExp(`^(?:export\\s+)?(?:declare\\s+)?(?:namespace|module)\\s+(${ID}(?:\\.${ID})*)\\s*\\{`)
const TS_BINDING = new RegExp(`^(export\\s+)?(?:declare\\s+)?(const|let|var)\\s+(${ID})`)
const TS_METHOD = new RegExp(
  `^(?:(?:public|private|protected|static|readonly|override|abstract|async|declare|get|set|accessor)\\s+)*\\*?\\s*(#?${ID})\\s*(?:<[^>]*>)?\\s*\\((.*)\\)\\s*(?::\\s*[^{};=]+)?\\{$`,
)
const NOT_METHOD_NAMES = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'with',
  'function',
  'return',
  'do',
  'else',
  'typeof',
  'new',
  'await',
  'yield',
  'super',
  'this',
  'import',
  'export',
  'throw',
  'try',
  'case',
  'delete',
  'void',
])

const typescript: Language = {
  memberIndent: 4,
  declare(code, indent) {
    if (indent > 0) return tsMethod(code)
    let m: RegExpExecArray | null
    if ((m = TS_FUNCTION.exec(code))) return decl('fn', m[1])
    if ((m = TS_CLASS.exec(code))) return decl('class', m[1])
    if ((m = TS_INTERFACE.exec(code))) return decl('interface', m[1])
    if ((m = TS_TYPE.exec(code))) return decl('type', m[1])
    if ((m = TS_ENUM.exec(code))) return decl('enum', m[1])
    if ((m = TS_NAMESPACE.exec(code))) return decl('mod', m[1])
    if ((m = TS_BINDING.exec(code))) {
      const [whole, exported, keyword, name] = m
      if (!name) return null
      const rhs = initializer(code.slice(whole.length))
      if (rhs === null) return null
      if (isFunctionExpression(rhs)) return decl('fn', name)
      if (keyword === 'const' && (exported || /^[A-Z][A-Z0-9_]*$/.test(name))) return decl('const', name)
    }
    return null
  },
}

function tsMethod(code: string): Decl | null {
  const m = TS_METHOD.exec(code)
  const name = m?.[1]
  const params = (m?.[2] ?? '').trim()
  if (!name || NOT_METHOD_NAMES.has(name)) return null
  // `describe('x', function () {` and `foo(() => {` are calls, not methods.
  if (/^['"`]/.test(params) || params.includes('=>') || /\bfunction\b/.test(params)) return null
  return member(name)
}

/**
 * The text after the top-level `=` of a binding (skipping a type annotation such as
 * `: (a: number) => void`), or null when there is none.
 */
function initializer(rest: string): string | null {
  let depth = 0
  for (let i = 0; i < rest.length; i++) {
    const ch = rest[i]
    const next = rest[i + 1]
    if (ch === '=' && next === '>') {
      i++
      continue
    }
    if (ch === '(' || ch === '[' || ch === '{' || ch === '<') depth++
    else if (ch === ')' || ch === ']' || ch === '}' || ch === '>') depth--
    else if (ch === '=' && depth <= 0 && next !== '=') return rest.slice(i + 1).trim()
  }
  return null
}

function isFunctionExpression(rhs: string): boolean {
  const body = rhs.replace(/^async\b\s*/, '')
  if (/^function\b/.test(body)) return true
  if (new RegExp(`^${ID}\\s*=>`).test(body)) return true
  if (body.startsWith('(') || body.startsWith('<')) return body.includes('=>') || body.endsWith('(')
  return false
}

// ---------------------------------------------------------------- Python

const python: Language = {
  memberIndent: 4,
  declare(code, indent) {
    let m: RegExpExecArray | null
    if ((m = /^(?:async\s+)?def\s+([A-Za-z_]\w*)/.exec(code))) {
      return indent === 0 ? decl('fn', m[1]) : member(m[1])
    }
    if (indent > 0) return null
    if ((m = /^class\s+([A-Za-z_]\w*)/.exec(code))) return decl('class', m[1])
    if ((m = /^([A-Z][A-Z0-9_]*)\s*(?::[^=]*)?=(?!=)/.exec(code))) return decl('const', m[1])
    return null
  },
}

// ---------------------------------------------------------------- Go

const go: Language = {
  memberIndent: 0, // Go has no nested declarations worth reporting; methods carry their receiver.
  declare(code, indent) {
    if (indent > 0) return null
    let m: RegExpExecArray | null
    if ((m = /^func\s*\(\s*(?:[A-Za-z_]\w*\s+)?\*?\s*([A-Za-z_]\w*)(?:\[[^\]]*\])?\s*\)\s*([A-Za-z_]\w*)/.exec(code))) {
      return m[1] && m[2] ? { kind: 'fn', name: `${m[1]}.${m[2]}` } : null
    }
    if ((m = /^func\s+([A-Za-z_]\w*)/.exec(code))) return decl('fn', m[1])
    if ((m = /^type\s+([A-Za-z_]\w*)(?:\[[^\]]*\])?\s+(struct|interface)\b/.exec(code))) {
      return decl(m[2] === 'struct' ? 'struct' : 'interface', m[1])
    }
    if ((m = /^type\s+([A-Za-z_]\w*)\b/.exec(code))) return decl('type', m[1])
    if ((m = /^const\s+([A-Za-z_]\w*)\b/.exec(code))) return decl('const', m[1])
    return null
  },
}

// ---------------------------------------------------------------- Rust

const RS_VIS = '(?:pub(?:\\s*\\([^)]*\\))?\\s+)?'
const RS_FN = new RegExp(`^${RS_VIS}(?:default\\s+)?(?:const\\s+)?(?:async\\s+)?(?:unsafe\\s+)?(?:extern\\s+(?:"[^"]*"\\s+)?)?fn\\s+([A-Za-z_]\\w*)`)
const RS_ITEM = new RegExp(`^${RS_VIS}(?:unsafe\\s+)?(?:auto\\s+)?(struct|enum|trait)\\s+([A-Za-z_]\\w*)`)
const RS_IMPL = /^(?:unsafe\s+)?impl\b(.*)$/
const RS_MOD = new RegExp(`^${RS_VIS}mod\\s+([A-Za-z_]\\w*)`)
const RS_TYPE = new RegExp(`^${RS_VIS}type\\s+([A-Za-z_]\\w*)`)
const RS_CONST = new RegExp(`^${RS_VIS}(?:const|static)\\s+(?:mut\\s+)?([A-Za-z_]\\w*)\\s*:`)

const rust: Language = {
  memberIndent: 4,
  declare(code, indent) {
    let m: RegExpExecArray | null
    if ((m = RS_FN.exec(code))) return indent === 0 ? decl('fn', m[1]) : member(m[1])
    if ((m = RS_ITEM.exec(code))) return decl(m[1] as Kind, m[2])
    if ((m = RS_IMPL.exec(code))) return decl('impl', implName(m[1] ?? ''))
    if ((m = RS_MOD.exec(code))) return decl('mod', m[1])
    if (indent > 0) return null
    if ((m = RS_TYPE.exec(code))) return decl('type', m[1])
    if ((m = RS_CONST.exec(code))) return decl('const', m[1])
    return null
  },
}

/** `<T: Clone> fmt::Display for Wrapper<T> where T: X {` -> `fmt::Display for Wrapper`. */
function implName(rest: string): string {
  let text = rest.split(/\{|\bwhere\b/)[0] ?? ''
  let out = ''
  let depth = 0
  for (const ch of text) {
    if (ch === '<') depth++
    else if (ch === '>') depth = Math.max(0, depth - 1)
    else if (depth === 0) out += ch
  }
  text = out.replace(/\s+/g, ' ').trim()
  return /^[\w:&'!]/.test(text) ? text : ''
}

// ---------------------------------------------------------------- Java / C#

const JAVA_MODS =
  '(?:public|protected|private|internal|static|final|abstract|sealed|non-sealed|partial|readonly|ref|unsafe|new|strictfp|synchronized|native|default|virtual|override|async|extern)'
const JAVA_TYPE = new RegExp(`^(?:${JAVA_MODS}\\s+)*(class|interface|enum|record|struct)\\s+([A-Za-z_]\\w*)`)
const JAVA_METHOD = new RegExp(`^(?:${JAVA_MODS}\\s+)+(?:<[^>]+>\\s+)?[\\w.<>\\[\\]?,]+\\s+([A-Za-z_]\\w*)\\s*\\(`)

const javaLike: Language = {
  memberIndent: 8, // C# block namespaces put methods two levels deep
  declare(code) {
    let m: RegExpExecArray | null
    if ((m = JAVA_TYPE.exec(code))) return decl(m[1] as Kind, m[2])
    if ((m = JAVA_METHOD.exec(code))) return member(m[1])
    return null
  },
}

// ---------------------------------------------------------------- Kotlin

const KT_MODS =
  '(?:public|private|internal|protected|open|override|abstract|final|suspend|inline|noinline|operator|infix|tailrec|external|actual|expect|data|sealed|annotation|inner|value|companion)'
const KT_FUN = new RegExp(`^(?:${KT_MODS}\\s+)*fun\\s+(?:<[^>]*>\\s*)?(?:[\\w.<>?, ]+\\.)?([A-Za-z_]\\w*)\\s*\\(`)
const KT_ENUM = new RegExp(`^(?:${KT_MODS}\\s+)*enum\\s+class\\s+([A-Za-z_]\\w*)`)
const KT_TYPE = new RegExp(`^(?:${KT_MODS}\\s+)*(class|interface|object)\\s+([A-Za-z_]\\w*)`)
const KT_ALIAS = new RegExp(`^(?:${KT_MODS}\\s+)*typealias\\s+([A-Za-z_]\\w*)`)
const KT_CONST = new RegExp(`^(?:${KT_MODS}\\s+)*const\\s+val\\s+([A-Za-z_]\\w*)`)

const kotlin: Language = {
  memberIndent: 4,
  declare(code, indent) {
    let m: RegExpExecArray | null
    if ((m = KT_FUN.exec(code))) return indent === 0 ? decl('fn', m[1]) : member(m[1])
    if ((m = KT_ENUM.exec(code))) return decl('enum', m[1])
    if ((m = KT_TYPE.exec(code))) return decl(m[1] as Kind, m[2])
    if (indent > 0) return null
    if ((m = KT_ALIAS.exec(code))) return decl('type', m[1])
    if ((m = KT_CONST.exec(code))) return decl('const', m[1])
    return null
  },
}

// ---------------------------------------------------------------- Ruby

const ruby: Language = {
  memberIndent: 8, // module > class > def
  declare(code, indent) {
    let m: RegExpExecArray | null
    if ((m = /^def\s+(?:self\.)?([A-Za-z_]\w*[?!=]?)/.exec(code))) {
      return indent === 0 ? decl('fn', m[1]) : member(m[1])
    }
    if ((m = /^class\s+([A-Z][\w:]*)/.exec(code))) return decl('class', m[1])
    if ((m = /^module\s+([A-Z][\w:]*)/.exec(code))) return decl('mod', m[1])
    return null
  },
}

function decl(kind: Kind, name: string | undefined): Decl | null {
  return name ? { kind, name } : null
}

function member(name: string | undefined): Decl | null {
  return name ? { kind: 'method', name, member: true } : null
}
