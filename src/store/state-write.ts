/**
 * Making a project's folder in the bookmark home and the seal of its store (state.ts), with this user's key
 * made when there is none yet: for writers only (a hook that only reads never loads this).
 */
import { join } from 'node:path'
import { STORE_DIR } from '../shared/names.js'
import type { Seal } from '../trust/mac.js'
import { ensureKey } from '../trust/make-key.js'
import { ensureDir } from './files.js'
import { type StateLayout, homeLayout, stateLayout } from './layout.js'
import { idOf } from './state.js'

/** The project's folder in the home, made (with the key) when missing. */
export async function ensureState(bookmarkHome: string, root: string): Promise<StateLayout> {
  const key = await ensureKey(bookmarkHome)
  const state = stateLayout(bookmarkHome, idOf(key, bookmarkHome, root))
  await ensureDir(homeLayout(bookmarkHome).projects)
  await ensureDir(state.dir)
  await Promise.all([ensureDir(state.cursors), ensureDir(state.sessions)])
  return state
}

/** The seal for writing `root`'s `.bookmark/`, the key made when missing. */
export async function ensureSeal(bookmarkHome: string, root: string): Promise<Seal> {
  return { key: await ensureKey(bookmarkHome), dir: join(root, STORE_DIR) }
}
