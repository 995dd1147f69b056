/**
 * A cross-process lock on a file: created with O_EXCL, holding the owner's pid, host and a nonce.
 * A lock whose owner is dead (same host) or that is older than `staleMs` is taken over.
 */
import { randomHex } from '../shared/random.js'
import { open, readFile, stat, unlink } from '../shared/fsp.js'
import { os } from '../shared/builtin.js'

export interface LockOptions {
  /** A lock older than this is stale whatever its owner (ms). */
  staleMs?: number
  /** Give up after this long (ms). */
  timeoutMs?: number
}

export class LockTimeoutError extends Error {
  constructor(readonly path: string, waitedMs: number) {
    super(`could not take the lock ${path} within ${waitedMs} ms (another bookmark process holds it; remove the file if no bookmark process is running)`)
  }
}

interface Owner {
  pid: number
  host: string
  nonce: string
  at: number
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

async function readOwner(path: string): Promise<Owner | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<Owner>
    if (typeof parsed.pid === 'number' && typeof parsed.nonce === 'string') {
      return { pid: parsed.pid, host: String(parsed.host ?? ''), nonce: parsed.nonce, at: Number(parsed.at ?? 0) }
    }
  } catch {
    // unreadable or half-written: judged by age below
  }
  return undefined
}

/** True when the lock at `path` may be taken over. */
export async function isStale(path: string, staleMs: number, now = Date.now()): Promise<boolean> {
  let mtime: number
  try {
    mtime = (await stat(path)).mtimeMs
  } catch {
    return false // gone: not stale, just retry
  }
  if (now - mtime > staleMs) return true
  const owner = await readOwner(path)
  if (owner && owner.host === os().hostname() && owner.pid !== process.pid && !alive(owner.pid)) return true
  // A lock file with no readable owner that is more than a second old was left half-written by a killed process.
  return owner === undefined && now - mtime > 1_000
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

export async function withLock<T>(path: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const staleMs = options.staleMs ?? 30_000
  const timeoutMs = options.timeoutMs ?? 15_000
  const started = Date.now()
  const nonce = randomHex(8)
  let delay = 5
  for (;;) {
    try {
      const fh = await open(path, 'wx', 0o600)
      try {
        await fh.writeFile(JSON.stringify({ pid: process.pid, host: os().hostname(), nonce, at: Date.now() }))
        await fh.close()
      } catch (e) {
        // A full disk: never leave an ownerless lock behind for the next process to wait on.
        await fh.close().catch(() => undefined)
        await unlink(path).catch(() => undefined)
        throw e
      }
      break
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if (code !== 'EEXIST') throw e
    }
    if (await isStale(path, staleMs)) {
      const before = await readOwner(path)
      const again = await readOwner(path)
      if (before?.nonce === again?.nonce) await unlink(path).catch(() => undefined)
      continue
    }
    if (Date.now() - started > timeoutMs) throw new LockTimeoutError(path, Date.now() - started)
    await sleep(delay + Math.floor(Math.random() * delay))
    delay = Math.min(delay * 2, 100)
  }
  try {
    return await fn()
  } finally {
    const owner = await readOwner(path)
    if (owner?.nonce === nonce) await unlink(path).catch(() => undefined)
  }
}
