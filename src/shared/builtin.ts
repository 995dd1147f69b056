/**
 * Node built-ins that a hook rarely needs, loaded when first asked for instead of with the module that
 * names them: each one loaded is a measurable share of a hook run (docs/BENCHMARKS.md). The bundles are
 * CommonJS, so `require` is there; `process.getBuiltinModule` (Node 20.16+) serves the test runner's ES
 * modules and any newer Node.
 */
type Loader = { getBuiltinModule?: (id: string) => unknown }

function load<T>(id: string): T {
  const viaProcess = (process as Loader).getBuiltinModule
  if (viaProcess) return viaProcess(id) as T
  return require(id) as T
}

export const os = (): typeof import('node:os') => load('node:os')
export const crypto = (): typeof import('node:crypto') => load('node:crypto')
/** Also: a hook's bundle is compiled as a plain script, where `import()` has no loader to call. */
export const workerThreads = (): typeof import('node:worker_threads') => load('node:worker_threads')
export const zlib = (): typeof import('node:zlib') => load('node:zlib')
export const childProcess = (): typeof import('node:child_process') => load('node:child_process')
export const nodeModule = (): typeof import('node:module') => load('node:module')
/** Experimental: it says so on stderr when loaded (src/cli/stdin.ts loads it quietly). */
export const wasi = (): typeof import('node:wasi') => load('node:wasi')

/** The home folder: $HOME, else what the system says. */
export function homeDir(env: NodeJS.ProcessEnv): string {
  return env.HOME && env.HOME.trim() !== '' ? env.HOME : os().homedir()
}
