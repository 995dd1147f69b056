/** Small file-system questions asked in several places; none of them throws. */
import { lstatOrNone, statOrNone } from '../shared/fsp.js'

export async function pathExists(p: string): Promise<boolean> {
  try {
    return (await statOrNone(p)) !== undefined
  } catch {
    return false
  }
}

export async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await statOrNone(p))?.isDirectory() === true
  } catch {
    return false
  }
}

export async function isFile(p: string): Promise<boolean> {
  try {
    return (await statOrNone(p))?.isFile() === true
  } catch {
    return false
  }
}

/** True when `path` exists and is a symbolic link (the store never follows one). */
export async function isSymlink(path: string): Promise<boolean> {
  try {
    return (await lstatOrNone(path))?.isSymbolicLink() === true
  } catch {
    return false
  }
}
