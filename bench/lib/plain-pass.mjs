/**
 * node bench/lib/plain-pass.mjs FILE: the baseline of a first capture. It reads FILE, splits it into lines
 * and JSON-parses every one, the way a Node program plainly does it (a read stream and `readline`), and
 * prints `{"lines":…,"parsed":…,"failed":…,"bytes":…}` on stdout. It keeps nothing it parsed. A capture
 * that is no slower than this pass costs no more than reading its transcript at all would.
 */
import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'

const file = process.argv[2]
if (!file) {
  process.stderr.write('usage: node bench/lib/plain-pass.mjs FILE\n')
  process.exit(2)
}
let lines = 0
let parsed = 0
let failed = 0
let bytes = 0
const input = createReadStream(file)
input.on('data', (chunk) => (bytes += chunk.length))
for await (const line of createInterface({ input, crlfDelay: Infinity })) {
  if (line === '') continue
  lines++
  try {
    JSON.parse(line)
    parsed++
  } catch {
    failed++
  }
}
process.stdout.write(`${JSON.stringify({ lines, parsed, failed, bytes })}\n`)
