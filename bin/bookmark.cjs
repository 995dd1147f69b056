#!/usr/bin/env node
// The `bookmark` command, CommonJS (an ES module entry costs a hook several percent of a bare Node start).
// A hook line (`bookmark stop`, or `bookmark stop --host codex|gemini`) loads only that hook's bundle,
// dist/cli/hook-<name>.cjs, `bookmark search` its own, any other command the whole CLI; each compiles from
// V8's code cache in <bookmark home>/cache/. docs/DESIGN.md ("How a hook stays near the cost of a bare Node
// start") says why and how. Nothing here may fail a hook. Keep HOOKS equal to src/hooks/names.ts.
// Two ways in: as the package's command (a CommonJS module), or as a script that the hooks' guard (GUARD in
// src/setup/hooks.ts) runs with node:vm, which costs less than a `require` from `node -e`. The guard's
// `require` gives Node's modules, all that a hook bundle asks for.
'use strict'
;(function (bin) {
  const HOOKS = ['stop', 'check', 'restore', 'precompact']
  // A cache is written at exit by the first CACHE_RUNS runs of a bundle file, each adding what its run compiled
  // (its first byte counts them), then only read; V8 rejects one made under other flags.
  const CACHE_RUNS = 3
  const command = process.argv[2]
  // `bookmark stop --host codex` (or gemini): the line setup writes for Codex CLI and Gemini CLI (src/cli/hook-main.ts reads the host).
  const hosted = process.argv.length === 5 && process.argv[3] === '--host' && (process.argv[4] === 'codex' || process.argv[4] === 'gemini')
  if ((process.argv.length === 3 || hosted) && HOOKS.includes(command)) {
    // BOOKMARK_DISABLE=1 (the words src/config/keys.ts accepts for a switch): the hook does nothing, so it loads
    // nothing and writes nothing, not even the code cache. It exits without reading stdin, as `echo` would.
    if (!/^(1|true|yes|on)$/i.test((process.env.BOOKMARK_DISABLE || '').trim())) {
      try {
        runHook(command)
      } catch (e) {
        // A hook never fails towards the host, not even when its bundle cannot be loaded (an unbuilt or broken install).
        process.stderr.write(`bookmark: ${command} hook could not start: ${e && e.message ? e.message : e} (\`bookmark doctor\` tells more)\n`)
        process.exitCode = 0
      }
    }
  } else if (command === 'search') {
    // Its own bundle, with the code cache (made once the bookmark home exists); a line it leaves to the whole CLI
    // (help, an unknown option, a bad value) runs that instead.
    const load = loader('home')
    let search
    try {
      search = load('search.cjs')
    } catch {
      search = undefined // a build without it: the whole CLI answers
    }
    if (!search || !search.run(process.argv.slice(3))) load('bookmark.cjs')
  } else runBundle('bookmark.cjs', false)

  function runHook(name) {
    runBundle(`hook-${name}.cjs`, true)
  }

  /** Runs dist/cli/<entry> and the chunks it requires, each compiled with its code cache (made when `create`). */
  function runBundle(entry, create) {
    loader(create)(entry)
  }

  /** A loader of dist/cli/ files and the chunks they require, with the code cache (made when `create`; 'home': if the bookmark home exists). */
  function loader(create) {
    const fs = require('node:fs')
    const { join } = require('node:path')
    const dist = join(bin, '..', '..', 'dist', 'cli')
    const cache = cacheDir(fs, join, create)
    const modules = new Map()
    const fresh = []
    // Registered only when there is a cache to write: most runs only read theirs.
    const keep = (entry) => {
      if (fresh.push(entry) === 1) process.on('exit', () => writeCaches(fs, join, cache, fresh))
    }
    const load = (file) => {
      const known = modules.get(file)
      if (known) return known.exports
      const module = { exports: {} }
      modules.set(file, module)
      const filename = join(dist, file)
      const source = fs.readFileSync(filename, 'utf8')
      const fn = compile(fs, filename, source, cache, keep)
      const req = (id) => (id.startsWith('./') ? load(id.slice(2)) : require(id))
      fn.call(module.exports, module.exports, req, module, filename, dist)
      return module.exports
    }
    return load
  }

  /** The cache folder; undefined when off, when it is not a real folder (a symlink is never followed), or when absent and not to be made. */
  function cacheDir(fs, join, create) {
    if (process.env.BOOKMARK_CODE_CACHE === '0') return undefined
    try {
      // As src/shared/deps.ts: a relative BOOKMARK_HOME is taken from the home folder, never from where a hook runs.
      const user = process.env.HOME || require('node:os').homedir()
      const set = process.env.BOOKMARK_HOME && process.env.BOOKMARK_HOME.trim() !== '' ? process.env.BOOKMARK_HOME : undefined
      const home = set === undefined ? join(user, '.bookmark') : require('node:path').isAbsolute(set) ? set : join(user, set)
      const dir = join(home, 'cache')
      const s = fs.lstatSync(dir, { throwIfNoEntry: false })
      if (s === undefined) return create === true || (create === 'home' && fs.existsSync(home)) ? { dir, home, exists: false } : undefined
      return s.isDirectory() ? { dir, home, exists: true } : undefined
    } catch {
      return undefined
    }
  }

  /** The module function of `source`, compiled with the cached code when there is a valid cache for it; `keep` takes a cache to write. */
  function compile(fs, filename, source, cache, keep) {
    const { Script } = require('node:vm')
    let key
    let cachedData
    let runs = 0 // runs that wrote the cache read
    if (cache) {
      try {
        const s = fs.statSync(filename)
        key = `${filename.replace(/^.*[\\/]/, '')}.${s.size}-${Math.trunc(s.mtimeMs)}-${s.ino}-${process.version}-${process.arch}.v8c`
        const file = cache.exists
          ? fs.readFileSync(`${cache.dir}/${key}`, { flag: fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK })
          : undefined
        if (file && file.length > 1 && file[0] >= 1 && file[0] <= CACHE_RUNS) {
          runs = file[0]
          cachedData = file.subarray(1)
        }
      } catch {
        cachedData = undefined // none yet (or not a plain file; a FIFO opens without waiting): compiled as usual, and written at exit
      }
    }
    const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename, ...(cachedData ? { cachedData } : {}) })
    const used = cachedData !== undefined && !script.cachedDataRejected
    if (key && (!used || runs < CACHE_RUNS)) keep({ key, script, runs: used ? runs + 1 : 1, prefix: key.slice(0, key.indexOf('.cjs.') + 5) })
    return script.runInThisContext()
  }

  /** Writes the caches that were missing or are still growing (atomically), and removes older ones of the same bundle file. */
  function writeCaches(fs, join, cache, fresh) {
    try {
      if (!cache.exists) {
        fs.mkdirSync(cache.home, { recursive: true, mode: 0o700 })
        fs.mkdirSync(cache.dir, { mode: 0o700 })
      }
    } catch {
      return
    }
    for (const { key, script, runs, prefix } of fresh) {
      const tmp = join(cache.dir, `${key}.${process.pid}.${Math.random().toString(16).slice(2, 10).padEnd(8, '0')}.tmp`) // the store's temp-file shape
      try {
        fs.writeFileSync(tmp, Buffer.concat([Buffer.from([runs]), script.createCachedData()]), { mode: 0o600, flag: 'wx' })
        fs.renameSync(tmp, join(cache.dir, key))
        for (const old of fs.readdirSync(cache.dir))
          if (old.startsWith(prefix) && old !== key && !old.endsWith('.tmp')) fs.rmSync(join(cache.dir, old), { force: true })
      } catch {
        // A full disk, a read-only home: no temp file left behind; the next run compiles as usual and tries again.
        try {
          fs.rmSync(tmp, { force: true })
        } catch {
          // nothing more to do
        }
      }
    }
  }
  // The guard's `-e` names its own module `[eval]`: the script is then the first argument.
})(typeof __filename === 'string' && __filename !== '[eval]' ? __filename : process.argv[1])
