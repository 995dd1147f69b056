/**
 * The promise file API the hooks and captures use: the names and behaviour of `node:fs/promises` for
 * what is here, done with Node's synchronous calls.
 *
 * Why: a hook is one short process doing one thing, and it is timed against a bare Node start
 * (docs/BENCHMARKS.md). Each asynchronous call crosses to the thread pool and back, and a hook makes
 * dozens of small ones (stat, a 64-byte read, a config file): that round trip, not the disk, was most
 * of their cost, and `fs/promises` itself loads a dozen more modules on first use. On a local disk
 * these calls take microseconds; the long-lived MCP server answers one request at a time anyway.
 */
import {
  type MakeDirectoryOptions,
  constants,
  type RmOptions,
  type Stats,
  chmodSync,
  chownSync,
  closeSync,
  fchmodSync,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  read,
  readFileSync,
  readSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import { ForeignOwner, NotRegularFile } from './errors.js'

/** Runs `fn` now and gives its result (or its error) as a promise, like the asynchronous call would. */
function now<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn())
  } catch (e) {
    return Promise.reject(e)
  }
}

export const stat = (path: string): Promise<Stats> => now(() => statSync(path))
/** stat, or undefined when nothing is there (no error object is made: a hook asks this often). */
export const statOrNone = (path: string): Promise<Stats | undefined> => now(() => statSync(path, { throwIfNoEntry: false }))
/** lstat, or undefined when nothing is there. */
export const lstatOrNone = (path: string): Promise<Stats | undefined> => now(() => lstatSync(path, { throwIfNoEntry: false }))
export const lstat = (path: string): Promise<Stats> => now(() => lstatSync(path))
export const readdir = (path: string): Promise<string[]> => now(() => readdirSync(path))
export const unlink = (path: string): Promise<void> => now(() => unlinkSync(path))
export const link = (from: string, to: string): Promise<void> => now(() => linkSync(from, to))
export const rename = (from: string, to: string): Promise<void> => now(() => renameSync(from, to))
export const realpath = (path: string): Promise<string> => now(() => realpathSync(path))
export const chown = (path: string, uid: number, gid: number): Promise<void> => now(() => chownSync(path, uid, gid))
export const chmod = (path: string, mode: number): Promise<void> => now(() => chmodSync(path, mode))
export const rm = (path: string, options?: RmOptions): Promise<void> => now(() => rmSync(path, options))
/**
 * Removes a file (never a folder); nothing to do when it is gone. One unlink: the first `rmSync` of a process
 * compiles Node's own rimraf, which a capture that prunes a snapshot would pay for.
 */
export const removeFile = (path: string): Promise<void> =>
  now(() => {
    try {
      unlinkSync(path)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
    }
  })
export const mkdir = (path: string, options?: MakeDirectoryOptions): Promise<string | undefined> => now(() => mkdirSync(path, options))

export function readFile(path: string, encoding: BufferEncoding, flag?: number): Promise<string>
export function readFile(path: string): Promise<Buffer>
/** `flag`: open flags (O_NOFOLLOW and the like); a UTF-8 read with flags is still one native call. */
export function readFile(path: string, encoding?: BufferEncoding, flag?: number): Promise<string | Buffer> {
  // @types/node types `flag` as a string; Node takes the numeric flags as they are (stringToFlags).
  return now(() => (encoding ? readFileSync(path, flag === undefined ? encoding : { encoding, flag: flag as unknown as string }) : readFileSync(path)))
}

const describeType = (s: Stats): string =>
  s.isDirectory()
    ? 'a folder'
    : s.isFIFO()
      ? 'a FIFO'
      : s.isSocket()
        ? 'a socket'
        : s.isCharacterDevice() || s.isBlockDevice()
          ? 'a device'
          : 'not a regular file'

/**
 * Reads a regular file as text without following a link and without ever blocking: opened with O_NONBLOCK
 * (a FIFO opens at once instead of waiting for a writer), then refused unless fstat says it is a regular file.
 * `ownUid`: refuse a file another user owns (the store only reads what this user wrote).
 */
export function readRegularFile(path: string, options: { follow?: boolean; ownUid?: number } = {}): Promise<string> {
  return now(() => {
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (options.follow === true ? 0 : constants.O_NOFOLLOW))
    try {
      const s = fstatSync(fd)
      if (!s.isFile()) throw new NotRegularFile(`${path} is ${describeType(s)}, not a regular file: not read`)
      if (options.ownUid !== undefined && s.uid !== options.ownUid) throw new ForeignOwner(`${path} belongs to another user (uid ${s.uid}): not read`)
      return readFileSync(fd, 'utf8')
    } finally {
      closeSync(fd)
    }
  })
}

/** The uid files of this user's store must have (undefined where the system has none: Windows). */
export const ownUid = (): number | undefined => process.getuid?.()

/** What we use of a FileHandle. */
export interface FileHandle {
  readonly fd: number
  read(buffer: Buffer, offset: number, length: number, position: number | null): Promise<{ bytesRead: number; buffer: Buffer }>
  stat(): Promise<Stats>
  readFile(encoding: BufferEncoding): Promise<string>
  /** Writes all of `data` from the current position (a short write is continued, never taken for success). */
  writeFile(data: string | Buffer): Promise<void>
  chmod(mode: number): Promise<void>
  sync(): Promise<void>
  close(): Promise<void>
}

/**
 * A read done on Node's thread pool, the one asynchronous call here: a long read (the first capture of a large
 * transcript) asks for its next chunk before it parses the last one, and the copy from the disk cache, a tenth of
 * that capture's time, then runs on another core while this thread parses.
 */
export function readInBackground(fd: number, buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }> {
  return new Promise((resolve, reject) => read(fd, buffer, offset, length, position, (err, bytesRead) => (err ? reject(err) : resolve({ bytesRead }))))
}

export function open(path: string, flags: string | number, mode?: number): Promise<FileHandle> {
  return now(() => handle(openSync(path, flags, mode ?? 0o666)))
}

function handle(fd: number): FileHandle {
  return {
    fd,
    read: (buffer, offset, length, position) => now(() => ({ bytesRead: readSync(fd, buffer, offset, length, position), buffer })),
    stat: () => now(() => fstatSync(fd)),
    readFile: (encoding) => now(() => readFileSync(fd, encoding)),
    writeFile: (data) =>
      now(() => {
        const buf = typeof data === 'string' ? Buffer.from(data) : data
        let off = 0
        while (off < buf.length) {
          const n = writeSync(fd, buf, off, buf.length - off)
          if (n <= 0) throw Object.assign(new Error(`short write (${off} of ${buf.length} bytes)`), { code: 'EIO' })
          off += n
        }
      }),
    chmod: (mode) => now(() => fchmodSync(fd, mode)),
    sync: () => now(() => fsyncSync(fd)),
    close: () => now(() => closeSync(fd)),
  }
}
