/** The exit code and the one line people see for an error that ends a command (the full CLI and `search`'s own bundle). */
import { isStoreProblem, isUserError } from '../shared/errors.js'

export function failureCode(e: unknown, log: (m: string) => void): number {
  if (isUserError(e)) {
    log(e.message)
    return 1
  }
  const code = (e as NodeJS.ErrnoException).code
  if (code === 'ENOSPC' || code === 'EROFS' || code === 'EACCES' || code === 'EPERM' || code === 'EDQUOT') {
    // The disk, not the program: one line that says so, and what to check.
    log(`cannot write: ${(e as Error).message} (check free space and permissions; \`bookmark doctor\` tells more)`)
    return 1
  }
  // One line for people (a store entry of the wrong type, a lock, a key: the message says what and where);
  // the stack only when asked for, for a bug report.
  const message = ((e as Error).message ?? String(e)).split('\n')[0]
  log(
    `${isStoreProblem(e) ? '' : 'unexpected error: '}${message}${process.env.BOOKMARK_DEBUG === '1' ? `\n${(e as Error).stack ?? ''}` : ' (`bookmark doctor` tells more; BOOKMARK_DEBUG=1 shows where)'}`,
  )
  return 1
}
