/**
 * A tiny npm registry on 127.0.0.1 for the pack test: it serves the packages of the repository's own
 * node_modules, so `npm install -g <tarball>` resolves the runtime dependencies with an empty npm cache
 * and no network. For a name it answers the packument of the one version in `node_modules/<name>`
 * (scoped names as `/@scope%2fname`) and `/<name>/-/<file>.tgz`, a tarball made by `npm pack` of that
 * folder (once per run); anything else is a 404 that names what was asked for.
 */
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export interface LocalRegistry {
  /** `http://127.0.0.1:<port>`, for `--registry`. */
  url: string
  /** Names whose tarball was downloaded, in order of the first request. */
  served: string[]
  close(): Promise<void>
}

interface Packed {
  manifest: Record<string, unknown>
  file: string
  tarball: Buffer
}

// A package name as npm allows it (scope optional); nothing that could climb out of node_modules.
const NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/i

// The package.json fields an install reads from a packument; the rest stays in the tarball.
const FIELDS = [
  'name',
  'version',
  'description',
  'license',
  'main',
  'bin',
  'directories',
  'dependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'bundleDependencies',
  'engines',
  'os',
  'cpu',
  'libc',
  'deprecated',
] as const

/** The name has no folder in node_modules: a 404, where any other failure is a 500 with its message. */
class NotInstalled extends Error {}

/**
 * Starts the registry on an ephemeral port of 127.0.0.1. `nodeModules` is where packages are read;
 * `workDir` (an empty temp folder) receives the packed tarballs and the npm cache of `npm pack`.
 */
export async function startRegistry(nodeModules: string, workDir: string): Promise<LocalRegistry> {
  const packs = new Map<string, Promise<Packed>>()
  const served: string[] = []
  let url = ''

  const pack = (name: string): Promise<Packed> => {
    let p = packs.get(name)
    if (p === undefined) {
      p = packFolder(join(nodeModules, name), name, workDir)
      p.catch(() => packs.delete(name)) // a failure is answered, not cached
      packs.set(name, p)
    }
    return p
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
    const dash = path.indexOf('/-/')
    const name = decodeURIComponent(dash < 0 ? path.slice(1) : path.slice(1, dash))
    if (req.method !== 'GET' || !NAME.test(name)) return notFound(res, path)
    const packed = await pack(name).catch((e: Error) => (e instanceof NotInstalled ? undefined : Promise.reject(e)))
    if (packed === undefined) return notFound(res, path) // npm then fails with E404 naming the package
    const version = String(packed.manifest.version)
    if (dash >= 0) {
      if (path.slice(dash + 3) !== packed.file) return notFound(res, path)
      if (!served.includes(name)) served.push(name)
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': packed.tarball.length })
      res.end(packed.tarball)
      return
    }
    const dist = {
      tarball: `${url}/${name}/-/${packed.file}`,
      integrity: `sha512-${createHash('sha512').update(packed.tarball).digest('base64')}`,
      shasum: createHash('sha1').update(packed.tarball).digest('hex'),
    }
    const body = JSON.stringify({
      name,
      'dist-tags': { latest: version },
      versions: { [version]: { ...packed.manifest, _id: `${name}@${version}`, _hasShrinkwrap: false, dist } },
    })
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
    res.end(body)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(`local registry: ${e.message}\n`)
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url,
    served,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()))
        server.closeAllConnections() // npm keeps its sockets alive; close() alone would wait for them
      }),
  }
}

function notFound(res: ServerResponse, path: string): void {
  const body = JSON.stringify({ error: `not found in the local registry: ${path}` })
  res.writeHead(404, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

/** `npm pack` of one installed package folder (offline: a folder needs no registry), with its packument fields. */
async function packFolder(dir: string, name: string, workDir: string): Promise<Packed> {
  const text = await readFile(join(dir, 'package.json'), 'utf8').catch(() => undefined)
  if (text === undefined) throw new NotInstalled(name)
  const pkg = JSON.parse(text) as Record<string, unknown>
  if (pkg.name !== name || typeof pkg.version !== 'string') throw new Error(`${dir}/package.json is not ${name}`)
  const env = { ...process.env, npm_config_cache: join(workDir, 'npm-cache'), npm_config_update_notifier: 'false' }
  const r = await run('npm', ['pack', dir, '--json', '--ignore-scripts', '--pack-destination', workDir], { cwd: workDir, env, timeout: 60_000 })
  const [result] = JSON.parse(r.stdout) as Array<{ filename: string }>
  if (result === undefined) throw new Error(`npm pack ${dir} printed no result`)
  const manifest: Record<string, unknown> = {}
  for (const field of FIELDS) if (pkg[field] !== undefined) manifest[field] = pkg[field]
  // The registry stores `bin: "x.js"` as `{ <unscoped name>: "x.js" }`.
  if (typeof manifest.bin === 'string') manifest.bin = { [name.replace(/^@[^/]+\//, '')]: manifest.bin }
  return { manifest, file: result.filename, tarball: await readFile(join(workDir, result.filename)) }
}
