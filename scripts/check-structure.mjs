#!/usr/bin/env node
// The structure rules of issue 17, checked without eslint (plain Node, no dependencies):
//   1. no source file over 600 lines (src/, test/, bench/, stress/, scripts/, bin/; .ts .mjs .cjs .js);
//   2. no import cycle between the modules of src/.
// Usage: node scripts/check-structure.mjs [root]   (root defaults to the repository). Exit 0 when both
// hold, 1 with every long file and every cycle listed when not.
//
// Imports are read with regular expressions, which is enough for this code base: relative `import ... from`,
// `export ... from`, side-effect `import './x.js'` and dynamic `import('./x.js')` (a dynamic import still
// makes a cycle: both modules must load, and the order decides what the other sees). Type-only imports
// (`import type`, or every name marked `type`) are erased by the compiler and are not edges.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

export const MAX_LINES = 600
export const SOURCE_DIRS = ['src', 'test', 'bench', 'stress', 'scripts', 'bin']
const SOURCE_EXT = /\.(ts|mjs|cjs|js)$/
const SKIP_DIRS = new Set(['node_modules', 'dist'])

/** Every source file under the given folders of root, as paths relative to root with `/` separators. */
function sourceFiles(root, dirs) {
  const out = []
  const walk = (dir) => {
    let names
    try {
      names = readdirSync(dir, { withFileTypes: true })
    } catch {
      return // a folder this checkout does not have
    }
    for (const d of names) {
      const p = join(dir, d.name)
      if (d.isDirectory()) {
        if (!SKIP_DIRS.has(d.name) && !d.name.startsWith('.')) walk(p)
      } else if (d.isFile() && SOURCE_EXT.test(d.name)) out.push(relative(root, p).split(sep).join('/'))
    }
  }
  for (const d of dirs) walk(join(root, d))
  return out.sort()
}

function countLines(text) {
  if (text === '') return 0
  const n = text.split('\n').length
  return text.endsWith('\n') ? n - 1 : n
}

const lineOf = (text, index) => text.slice(0, index).split('\n').length

// `import x from`, `import { a, type B } from`, `import * as n from`, `export { a } from`, `export * from`,
// `import './side-effect.js'`: at the start of a line, possibly over several lines.
const STATIC = /^[ \t]*(import|export)\s+(type\s+)?([\w$*{}\s,]*?\s*from\s*)?(['"])(\.{1,2}\/[^'"\n]+)\4/gm
const DYNAMIC = /\bimport\s*\(\s*(['"])(\.{1,2}\/[^'"\n]+)\1\s*\)/g

/** `{ type A, type B }` with nothing else: erased by the compiler. A default or namespace import is a value. */
function typeOnly(clause) {
  const names = /\{([^}]*)\}/.exec(clause)
  if (!names || clause.replace(names[0], '').trim() !== '') return false
  const items = names[1]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  return items.length > 0 && items.every((s) => s.startsWith('type '))
}

/** Whether the match at index sits in a comment: after `//` on its line, or on a ` * ` line of a block comment. */
function inComment(text, index) {
  const lineStart = text.lastIndexOf('\n', index - 1) + 1
  const before = text.slice(lineStart, index)
  return /^\s*(\*|\/\*)/.test(before) || /(^|[^:])\/\//.test(before)
}

/** The relative imports of one file: specifier, line and how it is made. */
export function importsOf(text) {
  const out = []
  for (const m of text.matchAll(STATIC)) {
    if (m[2]) continue // import type / export type
    if (m[3] && typeOnly(m[3].replace(/\s*from\s*$/, ''))) continue
    out.push({ spec: m[5], line: lineOf(text, m.index + m[0].indexOf(m[1])), how: `${m[1]} ... from '${m[5]}'` })
  }
  for (const m of text.matchAll(DYNAMIC)) if (!inComment(text, m.index)) out.push({ spec: m[2], line: lineOf(text, m.index), how: `import('${m[2]}')` })
  return out
}

/** The file an import names, among the known ones: `./x.js` is `./x.ts` in the sources. */
function resolveImport(fromFile, spec, known) {
  const base = join(dirname(fromFile), spec).split(sep).join('/')
  const tries = [base]
  const ext = /\.(c|m)?js$/.exec(base)
  if (ext) tries.unshift(base.slice(0, -ext[0].length) + `.${ext[1] ?? ''}ts`)
  else tries.push(`${base}.ts`, `${base}.js`, `${base}/index.ts`, `${base}/index.js`)
  return tries.find((t) => known.has(t))
}

/** Strongly connected components with more than one module (or a module importing itself), Tarjan's way. */
function cycles(graph) {
  let next = 0
  const index = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const found = []
  const visit = (v) => {
    index.set(v, next)
    low.set(v, next)
    next++
    stack.push(v)
    onStack.add(v)
    for (const { to: w } of graph.get(v)) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v), low.get(w)))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)))
    }
    if (low.get(v) === index.get(v)) {
      const scc = []
      let w
      do {
        w = stack.pop()
        onStack.delete(w)
        scc.push(w)
      } while (w !== v)
      if (scc.length > 1 || graph.get(v).some((e) => e.to === v)) found.push(scc.sort())
    }
  }
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v)
  return found
}

/** One shortest chain start -> ... -> start inside a component, with the import that makes each step. */
function chainIn(graph, members) {
  const inside = new Set(members)
  const start = members[0]
  const prev = new Map()
  const queue = [start]
  while (queue.length > 0) {
    const v = queue.shift()
    for (const e of graph.get(v)) {
      if (!inside.has(e.to)) continue
      if (e.to === start) {
        const steps = [e]
        for (let at = v; at !== start; at = prev.get(at).from) steps.unshift(prev.get(at))
        return steps
      }
      if (!prev.has(e.to)) {
        prev.set(e.to, e)
        queue.push(e.to)
      }
    }
  }
  return []
}

export function checkStructure(root, { maxLines = MAX_LINES } = {}) {
  const files = sourceFiles(root, SOURCE_DIRS)
  const texts = new Map(files.map((f) => [f, readFileSync(join(root, f), 'utf8')]))
  const long = files.map((f) => ({ file: f, lines: countLines(texts.get(f)) })).filter((f) => f.lines > maxLines)

  const modules = files.filter((f) => f.startsWith('src/'))
  const known = new Set(modules)
  const graph = new Map(modules.map((f) => [f, []]))
  for (const f of modules) {
    for (const imp of importsOf(texts.get(f))) {
      const to = resolveImport(f, imp.spec, known)
      if (to && !graph.get(f).some((e) => e.to === to)) graph.get(f).push({ from: f, to, line: imp.line, how: imp.how })
    }
  }
  const found = cycles(graph).map((members) => ({ members, chain: chainIn(graph, members) }))
  return { files: files.length, modules: modules.length, long, cycles: found }
}

export function report(result, maxLines = MAX_LINES) {
  const lines = []
  if (result.long.length > 0) {
    lines.push(`${result.long.length} file${result.long.length === 1 ? '' : 's'} over ${maxLines} lines (split by pipeline stage or rule family):`)
    for (const l of result.long) lines.push(`  ${l.file}: ${l.lines} lines`)
  }
  if (result.cycles.length > 0) {
    lines.push(`${result.cycles.length} import cycle${result.cycles.length === 1 ? '' : 's'} in src/ (dynamic imports count):`)
    for (const c of result.cycles) {
      lines.push(`  ${[...c.chain.map((e) => e.from), c.chain[0]?.from ?? c.members[0]].join(' -> ')}`)
      for (const e of c.chain) lines.push(`    ${e.from}:${e.line} ${e.how}`)
      if (c.members.length > c.chain.length)
        lines.push(`    (the cycle's component also holds: ${c.members.filter((m) => !c.chain.some((e) => e.from === m)).join(', ')})`)
    }
  }
  if (lines.length === 0) lines.push(`ok: ${result.files} files, none over ${maxLines} lines; ${result.modules} modules in src/, no import cycle`)
  return lines.join('\n')
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'))
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
    process.stderr.write(`check-structure: expected a folder to check, found no folder at ${root}\n`)
    process.exit(2)
  }
  const result = checkStructure(root)
  const failed = result.long.length > 0 || result.cycles.length > 0
  if (failed) process.stderr.write(`check-structure: failed\n${report(result)}\n`)
  else process.stdout.write(`check-structure: ${report(result)}\n`)
  process.exitCode = failed ? 1 : 0
}
