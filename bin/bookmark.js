#!/usr/bin/env node
// The entry older installs' hooks name (setup now writes bin/bookmark.cjs, which Node starts without
// looking up the package's type: a hook is timed against a bare Node start). Runs the same code.
'use strict'
require('./bookmark.cjs')
