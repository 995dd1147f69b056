/** Entry of the `precompact` hook as installed (bundled alone into dist/cli/hook-precompact.cjs; bin/bookmark.cjs picks it). */
import { precompactHook } from '../hooks/precompact.js'
import { runInstalledHook } from './hook-main.js'

void runInstalledHook('precompact', precompactHook)
