/**
 * A cross-process lock on a file: created with O_EXCL, holding the owner's pid, host, a nonce and the time.
 * Locks live in the bookmark home (layout.ts), where no repository can plant one.
 *
 * Taken over when its owner is dead (same host), when it is older than `staleMs`, when it is ownerless for a
 * second (a killed writer), or when its time lies in the future (a clock that was set back, or a file no
 * capture of ours made as it is). Anything at the lock's path that is not a regular file (a folder, a FIFO)
 * is not a lock of ours: the caller fails at once, never spins. A lock held by a live capture that does not
 * come free within `timeoutMs` fails the caller too: a hook logs it and answers, the next capture reads on.
 */
import { LockTimeoutError, LockUnusable } from '../shared/errors.js'
import { randomHex } from '../shared/random.js'
import { lstatOrNone, open, readRegularFile, unlink } from '../shared/fsp.js'
import { os } from '../shared/builtin.js'

export interface LockOptions {
  /** A lock older than this is stale whatever its owner (ms). */
  staleMs?: number
  /** Give up after this long (ms); 0: one try, never a wait (a stale lock is removed for the next caller). */
  timeoutMs?: number
}

/** A time this far past now was not written by this clock as it is: the lock is not trusted to be live. */
const FUTURE_SLACK_MS = 2_000

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
    // Never waits: a FIFO or a folder at the path reads as no owner.
    const parsed = JSON.parse(await readRegularFile(path)) as Partial<Owner>
    if (typeof parsed.pid === 'number' && typeof parsed.nonce === 'string') {
      return { pid: parsed.pid, host: String(parsed.host ?? ''), nonce: parsed.nonce, at: Number(parsed.at ?? 0) }
    }
  } catch {
    // unreadable or half-written: judged by age below
  }
  return undefined
}

/** True when the lock at `path` may be taken over; throws LockUnusable when what is there is not a lock file. */
export async function isStale(path: string, staleMs: number, now = Date.now()): Promise<boolean> {
  const s = await lstatOrNone(path).catch(() => undefined)
  if (s === undefined) return false // gone: not stale, just retry
  if (!s.isFile()) throw new LockUnusable(`${path} is not a lock file (it is a ${s.isDirectory() ? 'folder' : 'special file'}): remove it`)
  const mtime = s.mtimeMs
  if (now - mtime > staleMs) return true
  if (mtime - now > FUTURE_SLACK_MS) return true
  const owner = await readOwner(path)
  if (owner && owner.at - now > FUTURE_SLACK_MS) return true
  if (owner && owner.host === os().hostname() && owner.pid !== process.pid && !alive(owner.pid)) return true
  // A lock file with no readable owner that is more than a second old was left half-written by a killed process.
  return owner === undefined && now - mtime > 1_000
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/**
 * The options of a lock waited for until `deadline` (epoch ms; undefined: the lock's own 15 s). `leastMs`: a
 * short write (a log line, a registry entry) still gets that long once the deadline has passed.
 */
export function untilDeadline(deadline: number | undefined, leastMs = 0): LockOptions {
  return deadline === undefined ? {} : { timeoutMs: Math.max(leastMs, deadline - Date.now()) }
}

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
      if (before?.nonce === again?.nonce) {
        try {
          await unlink(path)
        } catch (e) {
          // A lock that cannot be removed would be met again at once: fail instead of spinning.
          if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
            throw new LockUnusable(`${path} is stale but cannot be removed (${(e as Error).message}): remove it`)
        }
      }
    }
    if (Date.now() - started > timeoutMs || timeoutMs === 0) throw new LockTimeoutError(path, Date.now() - started)
    // Always a pause before the next try: no path through this loop runs without one.
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
