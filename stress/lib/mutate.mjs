/**
 * Hostile transcript lines: a real line (a Buffer, one JSONL record without its newline) turned into one of
 * the ways a transcript goes wrong: cut, bit-flipped, retyped, bloated, nested, NUL-ridden, not UTF-8,
 * prototype keys, lone surrogates. Deterministic for a given PRNG.
 */

const PLAIN_WEIRD = [
  null,
  0,
  -1,
  1e308,
  -0,
  '',
  [],
  {},
  [[[[]]]],
  true,
  false,
  'x'.repeat(10_000),
  '\u0000',
  '../../../../etc/passwd',
  'C:\\Windows\\x',
  '\ud800',
  Number.MAX_SAFE_INTEGER + 2,
  '{"type":"user"}',
  '\n\r\t',
  '%s%n%x',
  '${process.exit(1)}',
]
/** Names of Object.prototype members: as values they become file names, tool names, task ids, model names. */
export const PROTO_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']
let WEIRD = PLAIN_WEIRD

export const KINDS = ['truncate', 'bitflip', 'types', 'huge', 'deep', 'nul', 'utf8', 'shape', 'proto', 'surrogate', 'tooltypes', 'junk']
/** Every kind but the prototype-name ones: what the other transcripts get, so one defect cannot hide the rest. */
export const PLAIN_KINDS = KINDS.filter((k) => k !== 'proto')
/** The prototype-name family: `proto` lines, and retyped values / tool inputs drawn with the names among them. */
export const PROTO_KINDS = ['proto', 'types', 'tooltypes']

function mutateValue(v, r, depth = 0) {
  if (depth > 8) return v
  if (r() < 0.1) return r.pick(WEIRD)
  if (Array.isArray(v)) return r() < 0.05 ? Object.fromEntries(v.map((x, i) => [String(i), x])) : v.map((x) => mutateValue(x, r, depth + 1))
  if (v && typeof v === 'object') {
    if (r() < 0.05) return Object.values(v)
    const out = {}
    for (const [k, x] of Object.entries(v)) if (r() > 0.05) out[k] = mutateValue(x, r, depth + 1)
    return out
  }
  if (typeof v === 'string' && r() < 0.1) return r() < 0.5 ? Number(v.length) : [v]
  return v
}

/** Replaces the longest string in the record with `s` (the tool output, the prompt, a file body...). */
function replaceLongest(rec, s) {
  let best
  const visit = (o, depth) => {
    if (depth > 30 || !o || typeof o !== 'object') return
    for (const [k, v] of Object.entries(o)) {
      if (typeof v === 'string' && (!best || v.length > best.len)) best = { o, k, len: v.length }
      else visit(v, depth + 1)
    }
  }
  visit(rec, 0)
  if (best) best.o[best.k] = s
  else rec.message = { role: 'user', content: s }
  return rec
}

function tryParse(buf) {
  try {
    return JSON.parse(buf.toString('utf8'))
  } catch {
    return undefined
  }
}

const enc = (v) => Buffer.from(JSON.stringify(v), 'utf8')

/** The tool inputs of the tools the extractors follow, with every field of the wrong type. */
function tooltypes(r, cwd) {
  const name = r.pick(['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash', 'TodoWrite', 'TaskCreate', 'TaskUpdate', 'ExitPlanMode', 'Task', 'Read'])
  const bad = () => r.pick(WEIRD)
  const input = {
    file_path: r() < 0.5 ? bad() : `${cwd}/src/\u0000x.ts`,
    content: bad(),
    old_string: bad(),
    new_string: bad(),
    edits: r() < 0.5 ? 'not an array' : [bad(), { old_string: 1, new_string: null }],
    command: r() < 0.5 ? bad() : 'echo hi > "$(printf \'\\0\')" && sed -i s/a/b/ ../../../../etc/hosts',
    todos: r() < 0.5 ? bad() : [{ content: bad(), status: bad() }],
    subject: bad(),
    taskId: bad(),
    plan: bad(),
    prompt: bad(),
    notebook_path: bad(),
  }
  for (const k of Object.keys(input)) if (r() < 0.3) delete input[k]
  return [
    {
      type: 'assistant',
      uuid: `tt-${r.int(1e9)}`,
      timestamp: r() < 0.5 ? bad() : '2026-11-28T10:00:00.000Z',
      cwd: r() < 0.8 ? cwd : bad(),
      message: {
        id: `m${r.int(1e9)}`,
        role: 'assistant',
        model: bad(),
        content: [{ type: 'tool_use', id: 'tx', name, input }],
        usage: r() < 0.5 ? bad() : { input_tokens: bad(), cache_read_input_tokens: -5 },
      },
    },
    {
      type: 'user',
      uuid: `tr-${r.int(1e9)}`,
      cwd,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tx', content: bad(), is_error: bad() }] },
      toolUseResult: r() < 0.5 ? bad() : { type: bad(), filePath: bad(), content: bad(), structuredPatch: bad(), originalFile: bad(), task: bad() },
    },
  ]
}

/**
 * One hostile line (or two, for kinds that emit a pair) from `line`. `budget` limits the bytes of the huge
 * kind: `{ hugeLeft }` is decremented.
 */
export function mutate(line, r, opts) {
  const kind = r.pick(opts.kinds ?? KINDS)
  WEIRD = opts.kinds === PROTO_KINDS ? [...PLAIN_WEIRD, ...PROTO_NAMES, ...PROTO_NAMES] : PLAIN_WEIRD
  const n = line.length
  switch (kind) {
    case 'truncate':
      return { kind, out: [line.subarray(0, r.int(Math.max(1, n)))] }
    case 'bitflip': {
      const b = Buffer.from(line)
      const flips = 1 + r.int(8)
      for (let i = 0; i < flips && b.length > 0; i++) b[r.int(b.length)] ^= 1 << r.int(8)
      // a flipped bit may make a newline: that only splits the line, which is fine too
      return { kind, out: [b] }
    }
    case 'types': {
      const rec = tryParse(line)
      return { kind, out: [rec === undefined ? line : enc(mutateValue(rec, r))] }
    }
    case 'huge': {
      const rec = tryParse(line)
      if (rec === undefined || opts.hugeLeft <= 0) return { kind: 'truncate', out: [line.subarray(0, r.int(Math.max(1, n)))] }
      const size = 64 * 1024 + r.int(opts.hugeMax)
      opts.hugeLeft -= size
      const unit = r.pick(['A', 'ab ', '\\', '"', '\u00e9', '\ud83d\ude00', 'ghp_', 'sk-', '\n', '-----BEGIN RSA PRIVATE KEY-----\n', 'password='])
      return { kind, out: [enc(replaceLongest(rec, unit.repeat(Math.ceil(size / unit.length)).slice(0, size)))] }
    }
    case 'deep': {
      const x = r()
      const depth = x < 0.5 ? 200 : x < 0.85 ? 1_000 : x < 0.99 ? 10_000 : 100_000
      const open = r() < 0.5 ? '['.repeat(depth) : '{"a":'.repeat(depth)
      const close = open[0] === '[' ? ']'.repeat(depth) : '}'.repeat(depth)
      const where = r.pick(['content', 'input', 'toolUseResult', 'message'])
      const body =
        where === 'content'
          ? `{"type":"user","uuid":"deep","message":{"role":"user","content":${open}"x"${close}}}`
          : where === 'input'
            ? `{"type":"assistant","uuid":"deep","message":{"role":"assistant","content":[{"type":"tool_use","id":"d","name":"Write","input":${open}1${close}}]}}`
            : where === 'toolUseResult'
              ? `{"type":"user","uuid":"deep","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"d","content":"ok"}]},"toolUseResult":${open}0${close}}`
              : `{"type":"assistant","uuid":"deep","message":${open}null${close}}`
      return { kind, out: [Buffer.from(body)] }
    }
    case 'nul': {
      // raw NUL bytes (not valid JSON) or escaped \u0000 inside strings (valid JSON, NUL in paths and text)
      if (r() < 0.5) {
        const b = Buffer.from(line)
        for (let i = 0; i < 4 && b.length > 0; i++) b[r.int(b.length)] = 0
        return { kind, out: [b] }
      }
      return { kind, out: [Buffer.from(line.toString('utf8').replace(/"([^"\\]{1,40})"/g, (m, s) => (r() < 0.2 ? `"${s}\\u0000${s}"` : m)))] }
    }
    case 'utf8': {
      const bad = [
        Buffer.from([0xff]),
        Buffer.from([0xfe, 0xff]),
        Buffer.from([0xc3, 0x28]),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from([0xc0, 0xaf]),
        Buffer.from([0xf4, 0x90, 0x80, 0x80]),
        Buffer.from([0xe2, 0x82]),
      ]
      const parts = []
      let at = 0
      for (let i = 0; i < 3; i++) {
        const p = Math.min(n, at + r.int(Math.max(1, n - at)))
        parts.push(line.subarray(at, p), r.pick(bad))
        at = p
      }
      parts.push(line.subarray(at))
      return { kind, out: [Buffer.concat(parts)] }
    }
    case 'shape': {
      const rec = tryParse(line)
      const options = [
        Buffer.from('null'),
        Buffer.from('[]'),
        Buffer.from('{}'),
        Buffer.from('42'),
        Buffer.from('"user"'),
        Buffer.from('   '),
        Buffer.from('\r'),
        Buffer.concat([line, line]), // two records on one line
        Buffer.from(`{"type":${JSON.stringify(r.pick(['user', 'assistant', 'system', 'summary', 'x']))}}`),
        rec ? enc({ ...rec, type: r.pick([1, null, [], 'unknown-type', 'USER']) }) : line,
        rec ? enc({ ...rec, message: r.pick(['a string', 7, [], null, { content: { not: 'an array' } }]) }) : line,
        rec ? enc({ ...rec, timestamp: r.pick([0, 'yesterday', '9999-99-99T99:99:99Z', '-271821-04-20T00:00:00.000Z', 1e20]) }) : line,
        rec ? enc({ ...rec, isSidechain: 'yes', isMeta: 1, isCompactSummary: 'true' }) : line,
      ]
      return { kind, out: [r.pick(options)] }
    }
    case 'proto': {
      // Keys that name Object.prototype members: in the record, as a file name, a tool name, a task id.
      const key = r.pick(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])
      const id = `p${r.int(1e9)}`
      const use = (name, input) => ({
        type: 'assistant',
        uuid: `pu-${id}`,
        cwd: opts.cwd,
        message: { id: `m-${id}`, role: 'assistant', model: key, content: [{ type: 'tool_use', id, name, input }] },
      })
      const result = (extra) => ({
        type: 'user',
        uuid: `pr-${id}`,
        cwd: opts.cwd,
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] },
        toolUseResult: extra,
      })
      switch (r.int(4)) {
        case 0: {
          const rec = tryParse(line) ?? { type: 'user', message: { role: 'user', content: 'x' } }
          return {
            kind,
            out: [
              Buffer.from(JSON.stringify(rec).replace(/^\{/, `{"__proto__":{"polluted":"yes","type":"user"},"constructor":{"prototype":{"polluted":"yes"}},`)),
            ],
          }
        }
        case 1:
          return {
            kind,
            out: [
              use('Write', { file_path: `${opts.cwd}/${key}`, content: 'x\n' }),
              result({ type: 'create', filePath: `${opts.cwd}/${key}`, content: 'x\n' }),
            ].map(enc),
          }
        case 2:
          return { kind, out: [use(key, { x: 1 }), result({ stdout: 'ok' })].map(enc) }
        default:
          return { kind, out: [use('TaskCreate', { subject: `task ${key}` }), result({ task: { id: key, subject: `task ${key}` } })].map(enc) }
      }
    }
    case 'surrogate':
      return { kind, out: [Buffer.from(line.toString('utf8').replace(/"([^"\\]{1,40})"/g, (m, s) => (r() < 0.2 ? `"${s}\\ud800\\udfff\\udc00${s}"` : m)))] }
    case 'tooltypes':
      return { kind, out: tooltypes(r, opts.cwd).map(enc) }
    default: {
      const junk = Buffer.alloc(1 + r.int(2048))
      for (let i = 0; i < junk.length; i++) {
        const b = r.int(256)
        junk[i] = b === 10 ? 32 : b
      }
      return { kind: 'junk', out: [junk] }
    }
  }
}
