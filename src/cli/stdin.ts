/**
 * Reading a hook payload from stdin without ever waiting on it forever: an open pipe with no data, an
 * empty stdin or a huge payload all end within `timeoutMs`.
 *
 * Built for speed as well, because every hook pays for it: `process.stdin` loads Node's stream and
 * socket modules, about 45 million instructions, half a bare Node start (docs/BENCHMARKS.md). So file
 * descriptor 0 is read directly. A regular file (`< payload`) is read synchronously: it cannot block. A
 * socket or pipe (Claude Code 2.1.332 hands hooks one end of a socketpair) is switched to non-blocking
 * mode and polled until end of file or the deadline, so no read ever waits in the thread pool (a read
 * stuck there holds the process at exit, `process.exit` included). If that switch is unavailable
 * (Windows, no WebAssembly), `process.stdin` does the reading.
 */
import { fstatSync, readFileSync, readSync } from 'node:fs'
import type { Readable } from 'node:stream'
import { wasi } from '../shared/builtin.js'

export interface StdinResult {
  text: string
  /** The payload was larger than `maxBytes`: only its head was kept. */
  truncated: boolean
  /** The pipe stayed open past the timeout. */
  timedOut: boolean
}

export interface StdinOptions {
  timeoutMs?: number
  maxBytes?: number
}

const CHUNK = 64 * 1024
const POLL_MS = 2

/** Collects chunks up to `maxBytes`. */
class Collector {
  private chunks: Buffer[] = []
  private size = 0
  truncated = false

  constructor(private readonly maxBytes: number) {}

  /** Keeps `n` bytes of `buf`; false once `maxBytes` is reached. */
  keep(buf: Buffer, n: number): boolean {
    const room = this.maxBytes - this.size
    const take = Math.min(n, room)
    this.chunks.push(Buffer.from(buf.subarray(0, take)))
    this.size += take
    if (n > room) this.truncated = true
    return n <= room && this.size < this.maxBytes
  }

  result(timedOut: boolean): StdinResult {
    return { text: Buffer.concat(this.chunks, this.size).toString('utf8'), truncated: this.truncated, timedOut }
  }
}

const EMPTY: StdinResult = { text: '', truncated: false, timedOut: false }

export function readStdin(fd = 0, opts: StdinOptions = {}): Promise<StdinResult> {
  const timeoutMs = opts.timeoutMs ?? 1_000
  const maxBytes = opts.maxBytes ?? 16 * 1024 * 1024
  let isFile: boolean
  let size: number
  try {
    const s = fstatSync(fd)
    if (s.isCharacterDevice()) return Promise.resolve(EMPTY) // a terminal or /dev/null: no payload to wait for
    isFile = s.isFile()
    size = s.size
  } catch {
    return Promise.resolve(EMPTY) // no stdin at all
  }
  if (isFile && size <= maxBytes) {
    // The whole file in one call, decoded by Node's native reader: none of the buffer code below runs.
    try {
      return Promise.resolve({ text: readFileSync(fd, 'utf8'), truncated: false, timedOut: false })
    } catch {
      // unreadable this way: read it in chunks below
    }
  }
  const into = new Collector(maxBytes)
  if (isFile) {
    const buf = Buffer.allocUnsafe(CHUNK)
    try {
      for (;;) {
        const n = readSync(fd, buf, 0, CHUNK, null)
        if (n <= 0 || !into.keep(buf, n)) break
      }
    } catch {
      // unreadable: what was read so far
    }
    return Promise.resolve(into.result(false))
  }
  // Windows pipes do not take the non-blocking switch: the stream reads them, as it always did.
  if (process.platform === 'win32' || !setNonBlocking(fd)) return readStream(process.stdin, timeoutMs, into)
  return new Promise((resolve) => {
    const buf = Buffer.allocUnsafe(CHUNK)
    const deadline = Date.now() + timeoutMs
    const poll = (): void => {
      for (;;) {
        let n: number
        try {
          n = readSync(fd, buf, 0, CHUNK, null)
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code
          if (code !== 'EAGAIN' && code !== 'EWOULDBLOCK') return resolve(into.result(false))
          if (Date.now() >= deadline) return resolve(into.result(true))
          setTimeout(poll, POLL_MS) // not unref: this timer is what keeps the process waiting for the payload
          return
        }
        if (n <= 0 || !into.keep(buf, n)) return resolve(into.result(false))
      }
    }
    poll()
  })
}

/** A WebAssembly module that exports an empty memory and nothing else: what `WASI#initialize` asks for. */
const MEMORY_ONLY = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 5, 3, 1, 0, 0, 7, 10, 1, 6, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 2, 0])
/** The global, which this project's TypeScript libraries (ES2022, no DOM) do not declare. */
declare const WebAssembly: { Module: new (bytes: Uint8Array) => object; Instance: new (module: object) => object }
/** WASI's `FDFLAGS_NONBLOCK`. */
const NONBLOCK = 4

/**
 * Puts a socket or pipe descriptor in non-blocking mode. Node has no public call for it short of a
 * `net.Socket` (its module costs about 45 million instructions), so this asks WASI: `fd_fdstat_set_flags`
 * is `fcntl(F_SETFL, O_NONBLOCK)` on POSIX systems (Linux, macOS), about 2 million instructions with the
 * module's load (docs/BENCHMARKS.md). The call comes from here rather than from a WebAssembly program,
 * with `fd` as the WASI program's descriptor 0. node:wasi is experimental and says so on stderr when
 * loaded, which a hook must not print on every call: the warning is swallowed while it loads. False when
 * unavailable (no WebAssembly under --jitless, an API that changed): the caller falls back to the stream.
 */
function setNonBlocking(fd: number): boolean {
  try {
    const emitWarning = process.emitWarning
    let WASI: typeof import('node:wasi').WASI
    process.emitWarning = () => {}
    try {
      WASI = wasi().WASI
    } finally {
      process.emitWarning = emitWarning
    }
    const host = new WASI({ version: 'preview1', stdin: fd })
    host.initialize(new WebAssembly.Instance(new WebAssembly.Module(MEMORY_ONLY)))
    const setFlags = host.wasiImport.fd_fdstat_set_flags as (fd: number, flags: number) => number
    return setFlags(0, NONBLOCK) === 0
  } catch {
    return false
  }
}

/** The fallback: Node's stream for stdin, with the same deadline. */
function readStream(stream: Readable & { isTTY?: boolean }, timeoutMs: number, into: Collector): Promise<StdinResult> {
  if (stream.isTTY) return Promise.resolve(EMPTY)
  return new Promise((resolve) => {
    let done = false
    const finish = (timedOut: boolean): void => {
      if (done) return
      done = true
      clearTimeout(timer)
      stream.removeListener('data', onData)
      stream.removeListener('end', onEnd)
      stream.removeListener('error', onEnd)
      if (timedOut || into.truncated) {
        stream.pause()
        stream.destroy()
      }
      resolve(into.result(timedOut))
    }
    const onData = (chunk: Buffer | string): void => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      if (!into.keep(buf, buf.length)) finish(false)
    }
    const onEnd = (): void => finish(false)
    const timer = setTimeout(() => finish(true), timeoutMs)
    timer.unref?.()
    stream.on('data', onData)
    stream.on('end', onEnd)
    stream.on('error', onEnd)
  })
}
