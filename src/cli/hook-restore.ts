/** Entry of the `restore` hook as installed (bundled alone into dist/cli/hook-restore.cjs; bin/bookmark.js picks it). */
import { restoreHook } from '../hooks/restore.js'
import { runInstalledHook } from './hook-main.js'

void runInstalledHook('restore', restoreHook)
