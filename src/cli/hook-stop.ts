/** Entry of the `stop` hook as installed (bundled alone into dist/cli/hook-stop.cjs; bin/bookmark.cjs picks it). */
import { stopHook } from '../hooks/stop.js'
import { runInstalledHook } from './hook-main.js'

void runInstalledHook('stop', stopHook)
