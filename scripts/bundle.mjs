#!/usr/bin/env node
// Bundles src/ into dist/cli/, CommonJS, as separate builds:
//   bookmark.cjs      every command line (commander and all commands), with its chunks;
//   redact.cjs        the redactor as a library (the stress suite calls it directly);
//   hook-<name>.cjs   one per hook, holding just what that hook does on every call, with its own chunks
//                     for what it does rarely (the capture proper, writing, the narrative request);
//   scan-worker.cjs   the read and fold of a large capture, run in a worker thread by src/capture/scan.ts
//                     (which loads it by this name).
// Why: a hook is timed against a bare Node start (docs/BENCHMARKS.md), and each file a process loads
// costs about as much as the code in it; a hook process should read one file most of the time. An ES
// module entry costs several percent more than CommonJS, hence .cjs (bin/package.json does the same).
// Every file lands in dist/cli/, two levels below the package root like src/<dir>/, so the
// `new URL('../../templates/…', import.meta.url)` paths in the sources hold in the bundle too.
import { createHash } from 'node:crypto'
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { fileURLToPath } from 'node:url'
import { build } from 'rolldown'

const root = fileURLToPath(new URL('..', import.meta.url))
const pkg = (await import('../package.json', { with: { type: 'json' } })).default
const runtimeDeps = Object.keys(pkg.dependencies ?? {})
export const HOOKS = ['stop', 'check', 'restore', 'precompact']

// A hash of the sources and the version: what a build prepared ahead (src/hooks/prepared.ts) is used
// only by the same build.
const sources = createHash('sha256').update(pkg.version)
for (const f of readdirSync(`${root}src`, { recursive: true }).map(String).filter((f) => f.endsWith('.ts')).sort()) sources.update(f).update(readFileSync(`${root}src/${f}`))
const BUILD_ID = sources.digest('hex').slice(0, 16)

const builds = [
  { input: 'src/cli/entry.ts', name: 'bookmark', chunks: 'cli' },
  // The redactor alone, for the stress suite's corpus check (stress/cases/06-secrets.mjs).
  { input: 'src/redact/secrets.ts', name: 'redact', chunks: 'redact' },
  { input: 'src/capture/scan-worker.ts', name: 'scan-worker', chunks: 'worker' },
  ...HOOKS.map((h) => ({ input: `src/cli/hook-${h}.ts`, name: `hook-${h}`, chunks: h })),
]

rmSync(`${root}dist`, { recursive: true, force: true })
for (const b of builds) {
  await build({
    cwd: root,
    input: { [b.name]: b.input },
    platform: 'node',
    // Modules a hook always needs stay in its entry file even when a rarely loaded chunk shares them
    // (the default would split them into a file of their own: one more file on every call).
    preserveEntrySignatures: 'allow-extension',
    // Runtime dependencies stay packages of their own (the README's dependency table); Node's modules are Node's.
    external: [...runtimeDeps, /^node:/, ...builtinModules],
    logLevel: 'warn',
    transform: { define: { __BOOKMARK_BUILD__: JSON.stringify(BUILD_ID) } },
    onLog(level, log, handler) {
      // A module both imported and loaded on demand stays where the import put it: expected here.
      if (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT') return
      handler(level, log)
    },
    output: {
      dir: `${root}dist/cli`,
      format: 'cjs',
      entryFileNames: '[name].cjs',
      chunkFileNames: `${b.chunks}.[name]-[hash].cjs`,
      sourcemap: true,
      comments: { legal: true, annotation: false, jsdoc: false },
    },
  })
}
for (const h of HOOKS) inlineStartChunks(`${root}dist/cli`, `hook-${h}.cjs`)
// Marks the folder as CommonJS for tools that look for the nearest package.json.
writeFileSync(`${root}dist/package.json`, '{ "type": "commonjs" }\n')

/**
 * Puts the chunks a hook entry loads as it starts (rolldown splits out what the entry shares with its on-demand
 * chunks, such as shared/fsp.ts) into the entry file itself, each wrapped as the module it was: one file read and
 * one compile on every call instead of three (about 0.2 ms each). The chunks that load later still require the
 * chunk file, so those modules may exist twice in a process; they hold no state that would tell (a key read twice
 * is the same key). A chunk that requires chunks of its own at its top is taken with them: the entry's copy where
 * it has one, else inlined one level deep. The entry's source map gets empty lines for the inserted ones, so the
 * entry's own code keeps its mapping (the inlined code has none).
 */
function inlineStartChunks(dir, entry) {
  const lines = readFileSync(`${dir}/${entry}`, 'utf8').split('\n')
  const map = JSON.parse(readFileSync(`${dir}/${entry}.map`, 'utf8'))
  const mapLines = map.mappings.split(';')
  // Chunks already in the entry, by file: a chunk that requires one of them is given the entry's copy.
  const known = new Map()
  for (let i = 0; i < lines.length; i++) {
    const m = /^const (\w+) = require\("\.\/([\w.-]+\.cjs)"\);$/.exec(lines[i])
    if (!m) continue
    const code = chunkCode(dir, m[2], known)
    if (code === undefined) continue
    const inlined = wrapped(m[1], m[2], code)
    lines.splice(i, 1, ...inlined)
    mapLines.splice(i + 1, 0, ...inlined.slice(1).map(() => ''))
    known.set(m[2], m[1])
    i += inlined.length - 1
  }
  map.mappings = mapLines.join(';')
  writeFileSync(`${dir}/${entry}`, lines.join('\n'))
  writeFileSync(`${dir}/${entry}.map`, JSON.stringify(map))
}

/** `name = require("./file")` as an inline module. */
function wrapped(name, file, code) {
  return [`const ${name} = (() => { const module = { exports: {} }; (function (exports, module) { // ${file}`, ...code.split('\n'), '})(module.exports, module); return module.exports })();']
}

/**
 * The code of a chunk with the chunks it requires at its top resolved: the entry's copy where the entry has one,
 * else inlined too (one level: a chunk whose own requires need more is left as a file). Undefined when a require
 * cannot be resolved that way, or is made later (then the chunk stays a file of its own).
 */
function chunkCode(dir, file, known, depth = 0) {
  const code = readFileSync(`${dir}/${file}`, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '')
  const out = []
  for (const line of code.split('\n')) {
    const m = /^const (\w+) = require\("\.\/([\w.-]+\.cjs)"\);$/.exec(line)
    if (!m) {
      out.push(line)
      continue
    }
    if (known.has(m[2])) {
      // The entry's own binding of that name is in scope already; another name is bound to it.
      if (known.get(m[2]) !== m[1]) out.push(`const ${m[1]} = ${known.get(m[2])};`)
      continue
    }
    const inner = depth === 0 ? chunkCode(dir, m[2], known, 1) : undefined
    if (inner === undefined) return undefined
    out.push(...wrapped(m[1], m[2], inner))
  }
  const text = out.join('\n')
  return /require\("\.\//.test(text) ? undefined : text
}
