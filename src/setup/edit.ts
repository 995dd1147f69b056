/**
 * Editing a user's settings file safely against other programs that save it: a fresh read per try, and a backup
 * of what a write replaces. Shared by setup and uninstall for every host.
 */
import { unlink } from 'node:fs/promises'
import { SetupError } from '../shared/errors.js'
import { ChangedError } from '../store/atomic.js'
import { JsonParseError } from './jsonedit.js'
import { type SettingsFile, readSettings, writeBackup, writeSettings } from './settings.js'

/** How many times an edit starts again from a fresh read when another program saved the file meanwhile. */
const EDIT_TRIES = 5

const pause = (attempt: number): Promise<void> => new Promise((r) => setTimeout(r, 20 * attempt + Math.floor(Math.random() * 20)))

/**
 * Reads the file and runs `edit` on it, under the caller's lock. The lock keeps other bookmark processes
 * out, not Claude Code or an editor: when one of them saves between the read and the write (ChangedError),
 * the edit starts again from what is on disk, so their change is kept; past EDIT_TRIES it gives up.
 */
export async function editFresh<T>(path: string, edit: (file: SettingsFile) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const file = await readSettings(path)
    try {
      return await edit(file)
    } catch (e) {
      // The pause lets a save in progress finish; its jitter keeps two writers from meeting again in step.
      if (e instanceof ChangedError) await pause(attempt)
      else if (e instanceof JsonParseError) {
        // Text that does not parse may be a save caught halfway (a writer that truncates, then writes): the file's own only if it stays.
        await pause(attempt)
        if ((await readSettings(path)).text === file.text) throw e
      } else throw e
      if (attempt >= EDIT_TRIES) {
        throw new SetupError(
          `${path} changed while bookmark was editing it (${attempt} tries): another program (Claude Code?) keeps saving it; nothing was written, run the command again`,
        )
      }
    }
  }
}

/** Writes `text` with a backup of what it replaces; the backup goes again when the write finds the file changed. */
export async function replaceWithBackup(file: SettingsFile, text: string, now: Date, backupDir: string | undefined): Promise<string | null> {
  const backup = file.text !== undefined ? await writeBackup(file.path, file.text, now, backupDir) : null
  try {
    await writeSettings(file, text)
  } catch (e) {
    if (backup && e instanceof ChangedError) await unlink(backup).catch(() => undefined)
    throw e
  }
  return backup
}
