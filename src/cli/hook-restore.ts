/** Entry of the `restore` hook as installed (bundled alone into dist/cli/hook-restore.cjs; bin/bookmark.cjs picks it). */
import { restoreHookBody } from '../hooks/session-start.js'
import { runInstalledHook } from './hook-main.js'

void runInstalledHook('restore', restoreHookBody)
