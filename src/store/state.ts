/**
 * A project's machine-local folder in the bookmark home (layout.ts, StateLayout), named with this user's key:
 * `projects/<keyed hash of the root>`. Before any capture there is no key, and so no such folder to read.
 */
import { projectId, readKey } from '../trust/key.js'
import { type StateLayout, stateLayout } from './layout.js'
import type { Seal } from '../trust/mac.js'
import { STORE_DIR } from '../shared/names.js'
import { join } from 'node:path'

/** Ids made in this process, by home and root: a hook asks several times, each a keyed hash. */
const ids = new Map<string, string>()

export function idOf(key: Buffer, home: string, root: string): string {
  const k = `${home}\0${root}`
  let id = ids.get(k)
  if (id === undefined) {
    id = projectId(key, root)
    if (ids.size >= 64) ids.clear()
    ids.set(k, id)
  }
  return id
}

/** The project's folder in the home; undefined when this home has no key yet (then nothing was kept there). */
export async function stateOf(bookmarkHome: string, root: string): Promise<StateLayout | undefined> {
  const key = await readKey(bookmarkHome)
  return key ? stateLayout(bookmarkHome, idOf(key, bookmarkHome, root)) : undefined
}

/** What the sealed files of `root`'s `.bookmark/` are checked against; undefined without a key (nothing there is ours). */
export async function sealOf(bookmarkHome: string, root: string): Promise<Seal | undefined> {
  const key = await readKey(bookmarkHome)
  return key ? { key, dir: join(root, STORE_DIR) } : undefined
}
