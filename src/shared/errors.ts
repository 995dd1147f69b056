/**
 * The errors people see, in one place. Two kinds:
 *
 * - User errors (`UserError`): the input, the setup or the machine's transcripts are not what the command
 *   needs. The message is the whole story: the CLI prints it as one line and exits 1, the MCP server returns
 *   it as the tool error. `isUserError` is the one test both use.
 * - Store problems (`StoreProblem`): a file or folder of the store, a lock or the key that bookmark cannot
 *   use. The message names the path and what to do; the CLI prints it as one line without "unexpected error".
 *
 * Errors that never leave their module (ChangedError in store/atomic.ts, JsonParseError in setup/jsonedit.ts,
 * SettingsShapeError in setup/shape.ts, RpcError in mcp/protocol.ts, DoctorFailed in cli/doctor-text.ts)
 * stay beside the code that throws and catches them. This file imports nothing, so any module can use it.
 */

/** Something the person can fix: said in one line, exit 1, no stack. */
export class UserError extends Error {}

/** A command's or a tool's arguments are not what it takes (a bad id, a path that is not absolute). */
export class InputError extends UserError {}

/** A setup or uninstall that cannot go on. */
export class SetupError extends InputError {}

/** A capture that cannot start (no transcript to read, a session id that is not one). */
export class CaptureError extends UserError {}

/** No transcript where Claude Code keeps them for this folder, or not the one asked for. */
export class DiscoveryError extends UserError {}

/** The one test of "a user error": the CLI prints the message and exits 1; MCP returns it as the tool error. */
export function isUserError(e: unknown): e is UserError {
  return e instanceof UserError
}

/** Something in the store bookmark cannot use; the message says what, where, and what to do. */
export class StoreProblem extends Error {}

/** A symbolic link where the store keeps a file or folder: never followed. */
export class SymlinkRefused extends StoreProblem {}

/** A store entry that is not what the store needs there (a file where a folder goes, another user's folder). */
export class StoreEntryError extends StoreProblem {}

/** Something at the lock's path that bookmark cannot use as a lock (a folder, a FIFO, a file it cannot remove). */
export class LockUnusable extends StoreProblem {}

export class LockTimeoutError extends StoreProblem {
  constructor(
    readonly path: string,
    waitedMs: number,
  ) {
    super(`could not take the lock ${path} within ${waitedMs} ms (another bookmark process holds it; this capture was skipped, the next one reads on)`)
  }
}

/** This user's key is there but cannot be used (see trust/key.ts). */
export class KeyUnusable extends StoreProblem {}

/** A file that is not a regular file (a FIFO, a device, a folder) where one was expected: never read, never waited on. */
export class NotRegularFile extends StoreProblem {
  readonly code = 'ENOTREG'
}

/** A file owned by another user where only this user's own files are read. */
export class ForeignOwner extends StoreProblem {
  readonly code = 'EFOREIGN'
}

/** A problem of the store or its files: one of the above, or a path whose type is wrong on the way to it. */
export function isStoreProblem(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code
  return e instanceof StoreProblem || code === 'ENOTDIR' || code === 'EISDIR' || code === 'ELOOP'
}
