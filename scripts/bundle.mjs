#!/usr/bin/env node
// Bundles src/ into dist/cli/, CommonJS, as separate builds:
//   bookmark.cjs      every command line (commander and all commands), with its chunks;
//   redact.cjs        the redactor as a library (the stress suite calls it directly);
//   hook-<name>.cjs   one per hook (src/cli/hook-<name>.ts, one for each row of src/hooks/table.ts), holding
//                     what that hook does on every call; what it does rarely (the capture proper, writing,
//                     the narrative request) is in chunks it requires when needed;
//   scan-worker.cjs   the read and fold of a large capture, run in a worker thread by src/capture/scan.ts
//                     (which loads it by this name);
//   search.cjs        `bookmark search` (src/cli/search-main.ts), what a search does on every call, its rare
//                     paths (reading changed transcripts) in chunks.
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
// The hooks: one entry file each (test/hookpath.test.ts checks them against src/hooks/table.ts).
const HOOKS = readdirSync(`${root}src/cli`)
  .flatMap((f) => /^hook-(\w+)\.ts$/.exec(f)?.[1] ?? [])
  .filter((h) => h !== 'main')

// A hash of the sources and the version: what a build prepared ahead (src/hooks/prepared.ts) is used
// only by the same build.
const sources = createHash('sha256').update(pkg.version)
for (const f of readdirSync(`${root}src`, { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.ts'))
  .sort())
  sources.update(f).update(readFileSync(`${root}src/${f}`))
const BUILD_ID = sources.digest('hex').slice(0, 16)

const builds = [
  { input: 'src/cli/entry.ts', name: 'bookmark', chunks: 'cli' },
  // The redactor alone, for the stress suite's corpus check (stress/cases/06-secrets.mjs).
  { input: 'src/redact/secrets.ts', name: 'redact', chunks: 'redact' },
  { input: 'src/capture/scan-worker.ts', name: 'scan-worker', chunks: 'worker' },
  // `bookmark search`: its own bundle (bin/bookmark.cjs), timed against a bare Node start like a hook.
  // Its modules are taken as free of side effects: what it reaches only through the writers' imports (the
  // redactor, the store's seals) stays out of the file every search loads.
  { input: 'src/cli/search-main.ts', name: 'search', chunks: 'search', hook: true, pure: true },
  ...HOOKS.map((h) => ({ input: `src/cli/hook-${h}.ts`, name: `hook-${h}`, chunks: h, hook: true })),
]

/**
 * Modules of a capturing Stop's one chunk (the `turn` group of the stop build): src/ but what only some Stops load,
 * and what the other hosts' chunks use (the budget cut, the ancestry, the transcript reader, text helpers, hash53): in the
 * group, a host's chunk would require it, and a Codex or Gemini Stop with nothing new would load the whole capture.
 */
function stopCapture(id) {
  const rel = id.replace(/\\/g, '/').replace(/^.*?\/src\//, '')
  if (rel === id.replace(/\\/g, '/')) return false // not in src/
  return !/^(hosts\/(codex|gemini)\/|memory\/|narrative\/prompt\.ts|repo\/(ledger|git-objects)\.ts|hosts\/claude\/transcripts\.ts|restore\/budget\.ts|hosts\/ancestry\.ts|transcript\/read\.ts|shared\/(text|hash53)\.ts)/.test(
    rel,
  )
}

rmSync(`${root}dist`, { recursive: true, force: true })
for (const b of builds) {
  await build({
    cwd: root,
    input: { [b.name]: b.input },
    platform: 'node',
    preserveEntrySignatures: 'allow-extension',
    // Runtime dependencies stay packages of their own (the README's dependency table); Node's modules are Node's.
    external: [...runtimeDeps, /^node:/, ...builtinModules],
    logLevel: 'warn',
    ...(b.pure ? { treeshake: { moduleSideEffects: [{ test: /[\\/]src[\\/]/, sideEffects: false, external: false }] } } : {}),
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
      // A hook's entry file keeps every module the hook imports as it starts, even one that a chunk loaded
      // later shares (by default that would be a chunk file of its own: one more file on every call).
      // The stop hook's capture (stop.turn): what a Stop that captures loads after its entry, one file instead of
      // twenty-odd (each file costs its own read, cache lookup and compile). Left out of it, each in its own chunk as
      // before: what only some Stops load (another host, the search memory, a narrative request, a git read on a
      // ledger memo's miss, finding a transcript for an empty payload).
      ...(b.hook
        ? {
            codeSplitting: {
              groups: [
                { name: b.name, tags: ['$initial'] },
                ...(b.name === 'hook-stop' ? [{ name: 'turn', test: stopCapture, includeDependenciesRecursively: false }] : []),
              ],
            },
          }
        : {}),
      comments: { legal: true, annotation: false, jsdoc: false },
      // Non-ASCII characters escaped: a file that holds one is decoded into a two-byte string, which V8 then copies
      // and hashes whole to compile it (a capturing Stop's chunks cost about 4 million instructions more so).
      charset: 'ascii',
    },
  })
}
// Marks the folder as CommonJS for tools that look for the nearest package.json.
writeFileSync(`${root}dist/package.json`, '{ "type": "commonjs" }\n')
