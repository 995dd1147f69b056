/**
 * The PowerShell cmdlets whose file effects we read (with their aliases), and
 * PowerShell's parameter binding for them: -Name value, -Name:value, unique
 * prefixes, positional slots, `a, b` arrays. Used by the walker (Set-Location,
 * Push-Location) and by the rules (psRules in rules.ts).
 */
import type { Word } from './syntax.js'

export type PsKind = 'write' | 'append' | 'outfile' | 'tee' | 'newitem' | 'mkdir' | 'delete' | 'move' | 'rename' | 'copy' | 'clear' | 'cd' | 'pushd' | 'popd'

export const PS_ALIASES: Record<string, PsKind> = {
  'set-content': 'write',
  'add-content': 'append',
  ac: 'append',
  'out-file': 'outfile',
  'tee-object': 'tee',
  tee: 'tee',
  'new-item': 'newitem',
  ni: 'newitem',
  mkdir: 'mkdir',
  md: 'mkdir',
  'remove-item': 'delete',
  rm: 'delete',
  del: 'delete',
  erase: 'delete',
  ri: 'delete',
  rd: 'delete',
  rmdir: 'delete',
  'move-item': 'move',
  mv: 'move',
  move: 'move',
  mi: 'move',
  'rename-item': 'rename',
  ren: 'rename',
  rni: 'rename',
  'copy-item': 'copy',
  cp: 'copy',
  copy: 'copy',
  cpi: 'copy',
  'clear-content': 'clear',
  clc: 'clear',
  'set-location': 'cd',
  cd: 'cd',
  sl: 'cd',
  chdir: 'cd',
  'push-location': 'pushd',
  pushd: 'pushd',
  'pop-location': 'popd',
  popd: 'popd',
}

export interface PsSpec {
  /** Parameters that take a value, by full lower-case name. */
  values: string[]
  switches: string[]
  /** Parameter names bound by position, in order. */
  positional: string[]
  aliases?: Record<string, string>
}

const PS_COMMON_VALUES = [
  'erroraction',
  'warningaction',
  'informationaction',
  'errorvariable',
  'warningvariable',
  'informationvariable',
  'outvariable',
  'outbuffer',
  'pipelinevariable',
  'progressaction',
]
const PS_COMMON_SWITCHES = ['verbose', 'debug', 'whatif', 'confirm']
const PS_COMMON_ALIASES: Record<string, string> = {
  ea: 'erroraction',
  wa: 'warningaction',
  infa: 'informationaction',
  ev: 'errorvariable',
  wv: 'warningvariable',
  iv: 'informationvariable',
  ov: 'outvariable',
  ob: 'outbuffer',
  pv: 'pipelinevariable',
  vb: 'verbose',
  db: 'debug',
  wi: 'whatif',
  cf: 'confirm',
  pspath: 'literalpath',
  lp: 'literalpath',
}

export const PS_SPECS: Record<'content' | 'outfile' | 'tee' | 'newitem' | 'remove' | 'move' | 'rename' | 'copy' | 'cd', PsSpec> = {
  content: {
    values: ['path', 'literalpath', 'value', 'encoding', 'filter', 'include', 'exclude', 'stream', 'credential'],
    switches: ['nonewline', 'passthru', 'force', 'asbytestream'],
    positional: ['path', 'value'],
  },
  outfile: {
    values: ['filepath', 'literalpath', 'encoding', 'width', 'inputobject'],
    switches: ['append', 'force', 'noclobber', 'nonewline'],
    positional: ['filepath', 'encoding'],
    aliases: { path: 'filepath' },
  },
  tee: {
    values: ['filepath', 'literalpath', 'variable', 'inputobject', 'encoding'],
    switches: ['append'],
    positional: ['filepath'],
    aliases: { path: 'filepath' },
  },
  newitem: {
    values: ['path', 'name', 'itemtype', 'value', 'credential'],
    switches: ['force'],
    positional: ['path'],
    aliases: { type: 'itemtype' },
  },
  remove: {
    values: ['path', 'literalpath', 'filter', 'include', 'exclude', 'stream', 'credential'],
    switches: ['recurse', 'force'],
    positional: ['path'],
  },
  move: {
    values: ['path', 'literalpath', 'destination', 'filter', 'include', 'exclude', 'credential'],
    switches: ['force', 'passthru'],
    positional: ['path', 'destination'],
  },
  rename: {
    values: ['path', 'literalpath', 'newname', 'credential'],
    switches: ['force', 'passthru'],
    positional: ['path', 'newname'],
  },
  copy: {
    values: ['path', 'literalpath', 'destination', 'filter', 'include', 'exclude', 'credential', 'tosession', 'fromsession'],
    switches: ['recurse', 'container', 'force', 'passthru'],
    positional: ['path', 'destination'],
  },
  cd: {
    values: ['path', 'literalpath', 'stackname'],
    switches: ['passthru'],
    positional: ['path'],
  },
}

export interface PsBinding {
  named: Map<string, Word[]>
  switches: Set<string>
  first(name: string): Word | undefined
  all(name: string): Word[]
}

/** PowerShell parameter binding: -Name value, -Name:value, unique prefixes, positional slots, `a, b` arrays. */
export function bindPs(args: Word[], spec: PsSpec): PsBinding {
  const values = [...spec.values, ...PS_COMMON_VALUES]
  const switches = [...spec.switches, ...PS_COMMON_SWITCHES]
  const aliases: Record<string, string> = { ...PS_COMMON_ALIASES, ...spec.aliases }
  const named = new Map<string, Word[]>()
  const on = new Set<string>()
  const loose: Word[][] = []
  const resolve = (given: string): string | undefined => {
    if (values.includes(given) || switches.includes(given)) return given
    const alias = aliases[given]
    if (alias) return alias
    // The cmdlet's own parameters win over common ones (`-p` is -Path, not -PipelineVariable).
    const own = [...spec.values, ...spec.switches].filter((p) => p.startsWith(given))
    if (own.length === 1) return own[0]
    const hits = [...values, ...switches].filter((p) => p.startsWith(given))
    return hits.length === 1 ? hits[0] : undefined
  }
  // Take a value and the array items that follow it (`a.txt, b.txt`).
  const takeList = (k: number): [Word[], number] => {
    const list: Word[] = []
    const first = args[k]
    if (!first) return [list, k]
    list.push(first)
    let j = k + 1
    while (j < args.length && (args[j] as Word).comma) list.push(args[j++] as Word)
    return [list, j]
  }
  let k = 0
  while (k < args.length) {
    const a = args[k] as Word
    const m = !a.quoted && !a.dynamic ? /^-([A-Za-z][A-Za-z0-9]*)(?::(.*))?$/.exec(a.text) : null
    if (m) {
      const param = resolve((m[1] as string).toLowerCase())
      const attached = m[2]
      k++
      if (!param) continue
      if (switches.includes(param)) {
        if (attached === undefined || !/^\$false$/i.test(attached)) on.add(param)
        continue
      }
      if (attached !== undefined && attached.length > 0) {
        named.set(param, [{ ...a, text: attached, raw: attached }])
        continue
      }
      const [list, next] = takeList(k)
      named.set(param, list)
      k = next
      continue
    }
    const [list, next] = takeList(k)
    loose.push(list)
    k = next
  }
  const free = spec.positional.filter((p) => !named.has(p) && !(p === 'path' && named.has('literalpath')))
  loose.forEach((list, idx) => {
    const p = free[idx]
    if (p) named.set(p, list)
  })
  return {
    named,
    switches: on,
    first: (name) => named.get(name)?.[0],
    all: (name) => named.get(name) ?? [],
  }
}
