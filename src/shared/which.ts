/** Finding a program as a shell would: a file the user may execute, in the first PATH folder that has it. */
import { constants } from 'node:fs'
import { access, stat } from 'node:fs/promises'
import { delimiter, join } from 'node:path'

/** Whether `p` is a regular file this process may open with `mode` (e.g. constants.X_OK). */
export async function isFileWith(p: string, mode: number): Promise<boolean> {
  try {
    if (!(await stat(p)).isFile()) return false
    await access(p, mode)
    return true
  } catch {
    return false
  }
}

/** The path of executable `name` in the first folder of `env.PATH` that holds one. */
export async function onPath(name: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && (await isFileWith(join(dir, name), constants.X_OK))) return join(dir, name)
  }
  return undefined
}
