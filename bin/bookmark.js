#!/usr/bin/env node
// CommonJS (bin/package.json says so): an ES module entry alone costs several percent of a bare Node start.
// A hook as installed (`bookmark stop`, nothing else) loads its own bundle, which holds only what that
// hook needs; everything else loads the whole command line. Keep HOOKS equal to src/hooks/names.ts.
const HOOKS = ['stop', 'check', 'restore', 'precompact']
const command = process.argv[2]
if (process.argv.length === 3 && HOOKS.includes(command)) require(`../dist/cli/hook-${command}.cjs`)
else require('../dist/cli/bookmark.cjs')
