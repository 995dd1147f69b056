/** Entry of the `check` hook as installed (bundled alone into dist/cli/hook-check.cjs; bin/bookmark.cjs picks it). */
import { checkHook } from '../hooks/check.js'
import { runInstalledHook } from './hook-main.js'

void runInstalledHook('check', checkHook)
