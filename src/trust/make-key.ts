/**
 * Making this user's key (key.ts) on the first capture of a bookmark home. Apart from key.ts, which every hook
 * loads to read the key: this one brings the writers.
 */
import { crypto } from '../shared/builtin.js'
import { link, open, removeFile } from '../shared/fsp.js'
import { randomHex } from '../shared/random.js'
import { ensureDir } from '../store/files.js'
import { KeyUnusable } from '../shared/errors.js'
import { keyPath, keyProblem, readKey } from './key.js'

/**
 * The key, created when there is none: written to a private temp file and linked into place, so two processes
 * that start at once agree on one key and no one ever reads half of it. A key that exists but is unusable is
 * never replaced (that would disown every file sealed with it): the caller fails and doctor says why.
 */
export async function ensureKey(home: string): Promise<Buffer> {
  const existing = await readKey(home)
  if (existing) return existing
  const problem = await keyProblem(home)
  if (problem)
    throw new KeyUnusable(`${problem}: bookmark cannot tell its own files (remove it to start a new key; files sealed with the old one are then ignored)`)
  await ensureDir(home)
  const tmp = `${keyPath(home)}.${process.pid}.${randomHex(4)}.tmp`
  const fh = await open(tmp, 'wx', 0o600)
  try {
    await fh.writeFile(`${crypto().randomBytes(32).toString('hex')}\n`)
  } finally {
    await fh.close()
  }
  try {
    await link(tmp, keyPath(home))
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e // another process made it first: that one is the key
  } finally {
    await removeFile(tmp).catch(() => undefined)
  }
  const key = await readKey(home)
  if (!key) throw new KeyUnusable(`${keyPath(home)} could not be read back after it was made`)
  return key
}
