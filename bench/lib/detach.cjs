'use strict'
// `node bench/lib/detach.cjs BIN < payload`: a Stop that only hands the capture to a detached process and
// exits (bench/floor.mjs, "hand-off only"). The child gets this process's stdin (the payload file the shell
// opened, still unread) and no stdout or stderr, so nothing waits for it. Its pid goes to stdout (one
// write, no stream) so that the bench can wait for it between runs. CommonJS, like bin/bookmark.cjs.
const { spawn } = require('node:child_process')

const child = spawn(process.execPath, [process.argv[2], 'stop'], { detached: true, stdio: [0, 'ignore', 'ignore'] })
child.unref()
require('node:fs').writeSync(1, String(child.pid))
