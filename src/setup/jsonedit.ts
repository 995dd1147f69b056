/**
 * A span-preserving JSON editor for files people own (Claude Code settings): a strict JSON parser
 * (RFC 8259: no comments, no trailing commas, no single quotes) that records the source offsets of
 * every value and member, and edits that replace, insert or remove exactly one span of the text.
 * Everything outside the span stays byte-for-byte. Pure: text in, text out.
 */

export interface Span {
  /** Offset of the first character. */
  start: number
  /** Offset just past the last character. */
  end: number
}

export interface ObjectNode extends Span {
  kind: 'object'
  members: MemberNode[]
}

export interface ArrayNode extends Span {
  kind: 'array'
  items: JsonNode[]
}

export interface ScalarNode extends Span {
  kind: 'string' | 'number' | 'boolean' | 'null'
  value: string | number | boolean | null
}

export type JsonNode = ObjectNode | ArrayNode | ScalarNode
export type ContainerNode = ObjectNode | ArrayNode

/** `"key": value`; the member's span runs from the key's opening quote to the end of the value. */
export interface MemberNode extends Span {
  key: string
  keyEnd: number
  value: JsonNode
}

export class JsonParseError extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number,
    readonly line: number,
    readonly column: number,
  ) {
    super(`line ${line}, column ${column}: ${reason}`)
  }
}

/** 1-based line and column (in UTF-16 code units) of `offset`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1
  let lineStart = 0
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++
      lineStart = i + 1
    }
  }
  return { line, column: offset - lineStart + 1 }
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d])

class Parser {
  private pos: number

  constructor(private readonly text: string) {
    // A UTF-8 byte order mark is tolerated (and kept, since edits never touch it).
    this.pos = text.charCodeAt(0) === 0xfeff ? 1 : 0
  }

  fail(reason: string, at = this.pos): never {
    const { line, column } = lineColumn(this.text, at)
    throw new JsonParseError(reason, at, line, column)
  }

  describe(at: number): string {
    if (at >= this.text.length) return 'end of file'
    const ch = this.text[at]!
    return ch === '\n' ? 'a line break' : ch === '\r' ? 'a carriage return' : `"${ch}"`
  }

  skipWs(): void {
    while (this.pos < this.text.length && WS.has(this.text.charCodeAt(this.pos))) this.pos++
    if (this.text.startsWith('//', this.pos) || this.text.startsWith('/*', this.pos)) this.fail('a comment (JSON has no comments)')
  }

  document(): JsonNode {
    this.skipWs()
    if (this.pos >= this.text.length) this.fail('the file is empty (expected a JSON value such as {})')
    const root = this.value(0)
    this.skipWs()
    if (this.pos < this.text.length) this.fail(`unexpected ${this.describe(this.pos)} after the end of the JSON value`)
    return root
  }

  value(depth: number): JsonNode {
    if (depth > 512) this.fail('nesting deeper than 512 levels')
    const start = this.pos
    const ch = this.text[this.pos]
    if (ch === '{') return this.object(depth)
    if (ch === '[') return this.array(depth)
    if (ch === '"') return { kind: 'string', value: this.string(), start, end: this.pos }
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return this.number()
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length
        return { kind: value === null ? 'null' : 'boolean', value, start, end: this.pos }
      }
    }
    if (ch === "'") this.fail('a single-quoted string (JSON strings use double quotes)')
    if (ch === '}' || ch === ']') this.fail(`unexpected ${this.describe(this.pos)} (a trailing comma?)`)
    return this.fail(`unexpected ${this.describe(this.pos)} (expected a JSON value)`)
  }

  object(depth: number): ObjectNode {
    const start = this.pos
    this.pos++ // {
    const members: MemberNode[] = []
    this.skipWs()
    if (this.text[this.pos] === '}') {
      this.pos++
      return { kind: 'object', members, start, end: this.pos }
    }
    for (;;) {
      this.skipWs()
      if (this.text[this.pos] === '}') this.fail('a trailing comma before "}"')
      if (this.text[this.pos] !== '"') this.fail(`unexpected ${this.describe(this.pos)} (expected a double-quoted member name)`)
      const keyStart = this.pos
      const key = this.string()
      const keyEnd = this.pos
      this.skipWs()
      if (this.text[this.pos] !== ':') this.fail(`unexpected ${this.describe(this.pos)} (expected ":" after "${key}")`)
      this.pos++
      this.skipWs()
      const value = this.value(depth + 1)
      members.push({ key, keyEnd, value, start: keyStart, end: value.end })
      this.skipWs()
      const next = this.text[this.pos]
      if (next === ',') {
        this.pos++
        continue
      }
      if (next === '}') {
        this.pos++
        return { kind: 'object', members, start, end: this.pos }
      }
      this.fail(`unexpected ${this.describe(this.pos)} (expected "," or "}")`)
    }
  }

  array(depth: number): ArrayNode {
    const start = this.pos
    this.pos++ // [
    const items: JsonNode[] = []
    this.skipWs()
    if (this.text[this.pos] === ']') {
      this.pos++
      return { kind: 'array', items, start, end: this.pos }
    }
    for (;;) {
      this.skipWs()
      if (this.text[this.pos] === ']') this.fail('a trailing comma before "]"')
      items.push(this.value(depth + 1))
      this.skipWs()
      const next = this.text[this.pos]
      if (next === ',') {
        this.pos++
        continue
      }
      if (next === ']') {
        this.pos++
        return { kind: 'array', items, start, end: this.pos }
      }
      this.fail(`unexpected ${this.describe(this.pos)} (expected "," or "]")`)
    }
  }

  string(): string {
    const start = this.pos
    this.pos++ // "
    for (;;) {
      if (this.pos >= this.text.length) this.fail('an unterminated string', start)
      const c = this.text.charCodeAt(this.pos)
      if (c === 0x22) {
        this.pos++
        break
      }
      if (c < 0x20) this.fail('a control character inside a string (escape it)')
      if (c === 0x5c) {
        const e = this.text[this.pos + 1]
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.pos + 2, this.pos + 6))) this.fail('a bad \\u escape (expected 4 hex digits)')
          this.pos += 6
          continue
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) this.fail(`a bad escape "\\${e ?? ''}"`)
        this.pos += 2
        continue
      }
      this.pos++
    }
    // The slice is valid JSON string syntax now: let the platform decode the escapes.
    return JSON.parse(this.text.slice(start, this.pos)) as string
  }

  number(): ScalarNode {
    const start = this.pos
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.text.slice(this.pos, this.pos + 400))
    if (!m) this.fail('a malformed number')
    this.pos += m[0].length
    const after = this.text[this.pos]
    if (after !== undefined && /[0-9.eE+\-xXa-zA-Z]/.test(after)) this.fail('a malformed number')
    return { kind: 'number', value: Number(m[0]), start, end: this.pos }
  }
}

/** Parses strict JSON, keeping the source span of every value. Throws JsonParseError with line and column. */
export function parseJson(text: string): JsonNode {
  return new Parser(text).document()
}

/** The plain value of a node (what JSON.parse would give, except that a duplicate key keeps its last value). */
export function toValue(node: JsonNode): unknown {
  switch (node.kind) {
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const m of node.members) {
        Object.defineProperty(out, m.key, { value: toValue(m.value), enumerable: true, writable: true, configurable: true })
      }
      return out
    }
    case 'array':
      return node.items.map(toValue)
    default:
      return node.value
  }
}

/** Every member named `key` (more than one is legal JSON but ambiguous). */
export function membersNamed(obj: ObjectNode, key: string): MemberNode[] {
  return obj.members.filter((m) => m.key === key)
}

/** The member named `key`, the last one when the key is repeated (JSON.parse semantics). */
export function member(obj: ObjectNode, key: string): MemberNode | undefined {
  const all = membersNamed(obj, key)
  return all[all.length - 1]
}

export function elementsOf(c: ContainerNode): Span[] {
  return c.kind === 'object' ? c.members : c.items
}

// ---------------------------------------------------------------------------------------------
// Style: how the file is written, so inserted text looks like it belongs there.

export interface Style {
  eol: '\n' | '\r\n'
  /** One level of indentation ("  ", "    ", "\t"). */
  unit: string
  /** Between a member name and its value (": ", ":", " : "). */
  colon: string
  /** The root is written on one line: insert on one line too. */
  compact: boolean
}

/** The leading whitespace of the line that holds `offset`. */
export function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1
  return /^[ \t]*/.exec(text.slice(lineStart, offset))?.[0] ?? ''
}

export function detectStyle(text: string, root: JsonNode): Style {
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  let unit: string | undefined
  let colon: string | undefined
  const visit = (node: JsonNode): void => {
    if (node.kind !== 'object' && node.kind !== 'array') return
    const elements = elementsOf(node)
    const first = elements[0]
    if (unit === undefined && first) {
      const before = text.slice(node.start + 1, first.start)
      if (before.includes('\n')) {
        const outer = lineIndent(text, node.start)
        const inner = lineIndent(text, first.start)
        if (inner.length > outer.length && inner.startsWith(outer)) unit = inner.slice(outer.length)
      }
    }
    if (node.kind === 'object') {
      for (const m of node.members) {
        if (colon === undefined) {
          const between = text.slice(m.keyEnd, m.value.start)
          if (!between.includes('\n')) colon = between
        }
        visit(m.value)
      }
    } else {
      for (const item of node.items) visit(item)
    }
  }
  visit(root)
  const compact = (root.kind === 'object' || root.kind === 'array') && elementsOf(root).length > 0 && !text.slice(root.start, root.end).includes('\n')
  return { eol, unit: unit ?? '  ', colon: colon ?? ': ', compact }
}

/** Serialises `value` the way JSON.stringify(value, null, unit) would, at `indent`, with the file's colon and line ends. */
export function render(value: unknown, style: Style, indent: string, compact = style.compact): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  const comma = compact ? (style.colon.endsWith(' ') ? ', ' : ',') : ','
  const inner = indent + style.unit
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'
    const parts = value.map((v) => render(v, style, inner, compact))
    return compact ? `[${parts.join(comma)}]` : `[${style.eol}${parts.map((p) => inner + p).join(`,${style.eol}`)}${style.eol}${indent}]`
  }
  const entries = Object.entries(value as Record<string, unknown>)
  if (entries.length === 0) return '{}'
  const parts = entries.map(([k, v]) => `${JSON.stringify(k)}${style.colon}${render(v, style, inner, compact)}`)
  return compact ? `{${parts.join(comma)}}` : `{${style.eol}${parts.map((p) => inner + p).join(`,${style.eol}`)}${style.eol}${indent}}`
}

// ---------------------------------------------------------------------------------------------
// Edits: each one replaces the text between two offsets.

export interface Edit {
  start: number
  end: number
  text: string
}

export function applyEdit(text: string, edit: Edit): string {
  return text.slice(0, edit.start) + edit.text + text.slice(edit.end)
}

/** The whitespace between the brackets of an empty container. */
export function interiorOf(text: string, c: ContainerNode): string {
  return text.slice(c.start + 1, c.end - 1)
}

/**
 * Appends an element (`piece` renders it at a given indentation) at the end of a container.
 * In a non-empty container the new text is `<the file's own separator><element>` placed right after
 * the last element, so removing the element again (removeElement) restores the text exactly. In an
 * empty container the interior is replaced: the caller keeps `interiorOf` to restore it.
 */
function appendElement(text: string, c: ContainerNode, style: Style, piece: (indent: string, compact: boolean) => string): Edit {
  const elements = elementsOf(c)
  const last = elements[elements.length - 1]
  const first = elements[0]
  if (!last || !first) {
    const outer = lineIndent(text, c.start)
    if (style.compact) return { start: c.start + 1, end: c.end - 1, text: piece(outer, true) }
    const inner = outer + style.unit
    return { start: c.start + 1, end: c.end - 1, text: `${style.eol}${inner}${piece(inner, false)}${style.eol}${outer}` }
  }
  const prev = elements[elements.length - 2]
  const sep = prev ? text.slice(prev.end, last.start) : `,${text.slice(c.start + 1, first.start)}`
  const nl = sep.lastIndexOf('\n')
  const compact = nl < 0
  const indent = compact ? lineIndent(text, last.start) : sep.slice(nl + 1)
  return { start: last.end, end: last.end, text: sep + piece(indent, compact) }
}

/** Adds `"key": value` at the end of an object. */
export function insertMember(text: string, obj: ObjectNode, key: string, value: unknown, style: Style): Edit {
  return appendElement(text, obj, style, (indent, compact) => `${JSON.stringify(key)}${style.colon}${render(value, style, indent, compact)}`)
}

/** Adds `value` at the end of an array. */
export function appendItem(text: string, arr: ArrayNode, value: unknown, style: Style): Edit {
  return appendElement(text, arr, style, (indent, compact) => render(value, style, indent, compact))
}

/**
 * Removes element `index` of a container with exactly the separator that belongs to it: after the
 * previous element for a later one, up to the next element for the first one. Removing the only
 * element puts back `interior` (the whitespace the container had when it was empty; default none).
 */
export function removeElement(c: ContainerNode, index: number, interior = ''): Edit {
  const elements = elementsOf(c)
  const el = elements[index]
  if (!el) throw new RangeError(`no element ${index}`)
  if (elements.length === 1) return { start: c.start + 1, end: c.end - 1, text: interior }
  const prev = elements[index - 1]
  if (prev) return { start: prev.end, end: el.end, text: '' }
  const next = elements[index + 1]!
  return { start: el.start, end: next.start, text: '' }
}

/** Replaces a value, rendered on one line when the old one was, else at its line's indentation. */
export function replaceValue(text: string, node: JsonNode, value: unknown, style: Style): Edit {
  const compact = style.compact || !text.slice(node.start, node.end).includes('\n')
  return { start: node.start, end: node.end, text: render(value, style, lineIndent(text, node.start), compact) }
}
