/**
 * The entry of every command line but the installed hooks (bundled into dist/cli/bookmark.cjs; the
 * hooks have bundles of their own, see bin/bookmark.cjs).
 */
import { runCli } from './main.js'

void runCli()
