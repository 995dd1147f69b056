/**
 * What in a project's `.bookmark/` bookmark does not trust, for `bookmark doctor`: files without a valid seal
 * of this user's key (they came with a clone, a tarball, a copied folder, another user or another key), and
 * files of older versions that now live in the bookmark home. Each is named with why it is ignored; nothing
 * of its content is shown.
 */
import { readdir } from '../shared/fsp.js'
import { isSnapshotId, projectLayout } from '../store/layout.js'
import { readJson } from '../store/read.js'
import { sealOf } from '../store/state.js'
import { keyProblem } from '../trust/key.js'
import type { Check } from './check.js'

/** Names that versions before 0.2 kept in `.bookmark/` and now keep in the home: never read from a project. */
const MOVED = ['cursors', 'sessions', 'config.json', 'restore.prepared.json', 'narrative.state.json', 'errors.log', 'store.lock']

export async function trustChecks(root: string, bookmarkHome: string): Promise<Check[]> {
  const l = projectLayout(root)
  const checks: Check[] = []
  const problem = await keyProblem(bookmarkHome)
  if (problem)
    checks.push({
      id: 'trust',
      status: 'error',
      message: `${problem}: nothing in any project's store can be read as this user's`,
      fix: `remove it (a new key is made by the next capture; files sealed with the old one stay ignored)`,
    })
  const seal = await sealOf(bookmarkHome, root)
  const sealed = [l.index, l.trailsJson]
  try {
    for (const name of await readdir(l.snapshots)) if (name.endsWith('.json') && isSnapshotId(name.slice(0, -5))) sealed.push(`${l.snapshots}/${name}`)
  } catch {
    // no snapshots folder
  }
  const ignored: string[] = []
  for (const path of sealed) {
    if (!seal) {
      const r = await readJson(path, (v): v is unknown => true)
      if (!r.ok && r.missing) continue
      ignored.push(`${path} (this bookmark home has no key yet: nothing in the store was written by it)`)
      continue
    }
    const r = await readJson(path, (v): v is unknown => true, seal)
    if (!r.ok && r.untrusted) ignored.push(r.reason)
  }
  for (const line of ignored.slice(0, 20))
    checks.push({ id: 'trust', status: 'warn', message: `ignored: ${line}`, fix: 'nothing of it is read or shown; delete it if it came with the repository' })
  if (ignored.length > 20) checks.push({ id: 'trust', status: 'warn', message: `ignored: ${ignored.length - 20} more files of ${l.dir} without a valid seal` })
  let names: string[] = []
  try {
    names = await readdir(l.dir)
  } catch {
    names = []
  }
  const moved = names.filter((n) => MOVED.includes(n))
  if (moved.length > 0) {
    checks.push({
      id: 'trust',
      status: 'info',
      message: `not read: ${moved.map((n) => `${l.dir}/${n}`).join(', ')} (bookmark keeps this in its home now; a copy in the project came with it or from an older version)`,
      fix: 'delete them; set project configuration again with `bookmark config --project --set KEY=VALUE`',
    })
  }
  if (checks.length === 0) checks.push({ id: 'trust', status: 'ok', message: `every file bookmark reads in ${l.dir} carries this user's seal` })
  return checks
}
