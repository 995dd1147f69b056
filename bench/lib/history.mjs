/**
 * Store contents that take too long to make through the CLI, written the way the store writes them:
 * a long project history (copies of a snapshot that a real capture wrote, with fresh ids and older
 * times, listed in index.json), a full registry (entries of other projects), and the narrative handoff
 * the model would write. The shapes are taken from the files the capture wrote, not restated here:
 * pretty JSON with a final newline, files 0600.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { BenchError } from './measure.mjs'
import { narrativeSeal } from '../../stress/lib/state.mjs'
import { readKey, sealedJson } from './seal.mjs'

const SNAPSHOT_ID = /^SNAP_\d{8}_\d{6}_\d{3}_[0-9a-f]{4}$/

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch (e) {
    throw new BenchError(`cannot read ${path}: ${e.message}`)
  }
}

function writeJson(path, value) {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 })
}

/** `SNAP_<UTC yyyymmdd_hhmmss_mmm>_<4 hex>`, as the store names snapshots. */
function snapshotId(ms, used) {
  const stamp = new Date(ms).toISOString().replace(/[-:]/g, '').replace('T', '_').replace('.', '_').replace('Z', '')
  for (;;) {
    const id = `SNAP_${stamp}_${randomBytes(2).toString('hex')}`
    if (!used.has(id)) {
      used.add(id)
      return id
    }
  }
}

/**
 * Grows the project's history to `count` snapshots: the newest is the one a real capture wrote; the
 * others are copies of it a minute apart going back, ten per session, with the usual triggers, numbered
 * below it in the store's sequence and sealed with the home's key (so the store reads them as its own).
 * The project's indexCap must allow `count` (the caller sets it), or the next capture prunes them.
 */
export function growHistory(projectDir, count, bookmarkHome) {
  const dir = join(projectDir, '.bookmark')
  const key = readKey(bookmarkHome)
  const write = (path, value) => writeFileSync(path, sealedJson(key, dir, path, value), { mode: 0o600 })
  const { mac: _index, ...index } = readJson(join(dir, 'index.json'))
  const newest = index.snapshots?.[0]
  if (!newest || !SNAPSHOT_ID.test(newest.id)) throw new BenchError(`${dir}/index.json lists no snapshot to copy`)
  const { mac: _snap, ...template } = readJson(join(dir, 'snapshots', `${newest.id}.json`))
  const used = new Set([newest.id])
  const t0 = Date.parse(newest.createdAt)
  const triggers = ['stop', 'stop', 'interval', 'stop', 'pre_compact']
  let sessionId = newest.sessionId
  const entries = [newest]
  for (let k = 1; k < count; k++) {
    if (k % 10 === 0) sessionId = randomUUID()
    const createdAt = new Date(t0 - k * 60_000).toISOString()
    const id = snapshotId(t0 - k * 60_000, used)
    const trigger = triggers[k % triggers.length]
    const seq = newest.seq - k
    write(join(dir, 'snapshots', `${id}.json`), { ...template, id, seq, createdAt, trigger, session: { ...template.session, id: sessionId } })
    entries.push({ ...newest, id, seq, createdAt, sessionId, trigger })
  }
  write(join(dir, 'index.json'), { ...index, snapshots: entries })
  return entries.length
}

/**
 * Fills the registry up to `count` entries with other projects (folders made under `projectsDir`), each
 * an hour older than the last, behind the entries the captures wrote.
 */
export function fillRegistry(bookmarkHome, count, projectsDir) {
  const path = join(bookmarkHome, 'registry.json')
  const registry = readJson(path)
  const real = registry.entries ?? []
  const model = real[0]
  if (!model) throw new BenchError(`${path} has no entry to copy`)
  const used = new Set(real.map((e) => e.snapshotId))
  const oldest = Math.min(...real.map((e) => Date.parse(e.createdAt)))
  const entries = [...real]
  for (let i = 1; entries.length < count; i++) {
    const project = join(projectsDir, `project-${String(i).padStart(3, '0')}`)
    mkdirSync(project, { recursive: true })
    const at = oldest - i * 3_600_000
    entries.push({ ...model, project, snapshotId: snapshotId(at, used), sessionId: randomUUID(), createdAt: new Date(at).toISOString() })
  }
  entries.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.snapshotId.localeCompare(a.snapshotId))
  writeJson(path, { ...registry, entries })
  return entries.length
}

/** The first line of the handoff's Task section: restore must carry it when it uses the narrative. */
export const NARRATIVE_PROBE = 'Make the capture of long sessions cheap enough to run on every Stop hook.'

const DECISIONS = [
  'Keep the transcript cursor as a byte offset of the last complete line, because a line cut in half by a live writer must be read again whole.',
  'Store the extraction state next to the cursor instead of re-reading the transcript, since re-reading a 500 MB file costs seconds on every turn.',
  'Write every store file atomically (temp file, fsync, rename), because a hook killed by the host must never leave half a JSON file.',
  'Redact before shortening any text, so a cut can never leave a fragment of a secret in LATEST.md.',
  'Leave Windows transcripts out of the relocation tests: their drive-letter paths cannot be mapped onto a POSIX project folder.',
]

const FILES = [
  'src/transcript/read.ts: the streaming reader and its cursor',
  'src/capture/capture.ts: one capture, from cursor to snapshot',
  'src/store/store.ts: the only writer of .bookmark/',
  'src/hooks/stop.ts: the Stop hook, capture then the narrative decision',
  'src/restore/render.ts: the budgeted restore text',
]

/**
 * Writes `.bookmark/bookmark.context.md` in the documented form (identity header with the seal the Stop hook hands out, then Task, Progress,
 * Decisions, Open items, Next step, Files), written now for this project's branch and HEAD. `long`
 * repeats the lists until the file is over 9,000 characters, more than any budget lets through.
 */
export function writeNarrative(projectDir, { sessionId, branch, head, long = false, bookmarkHome }) {
  const project = basename(projectDir)
  const written = new Date().toISOString()
  const repeat = long ? 8 : 1
  const many = (items) => Array.from({ length: repeat }, (_, r) => items.map((x) => `- ${r > 0 ? `(${r + 1}) ` : ''}${x}`)).flat()
  const text = [
    '<!-- BOOKMARK_IDENTITY',
    'scope: repo',
    `project: ${project}`,
    `repo_path: ${projectDir}`,
    `branch: ${branch}`,
    `head: ${head}`,
    `session_id: ${sessionId}`,
    `written: ${written}`,
    `seal: ${narrativeSeal(bookmarkHome, projectDir, sessionId, written)}`,
    '-->',
    `# Handoff: ${project}`,
    '',
    '## Task',
    NARRATIVE_PROBE,
    'Done means: a Stop hook after one new turn costs about as much as starting node, whatever the transcript size.',
    '',
    '## Progress',
    '- The reader streams from the saved cursor; the first capture of a 50 MB transcript works but is slower than the goal.',
    '- The benchmark runs paired rounds against bare node and prints a verdict per goal. Not committed yet: the docs table.',
    '',
    '## Decisions',
    ...many(DECISIONS),
    '',
    '## Open items',
    '- The cursor file grows with the session; check whether saving it dominates the incremental Stop.',
    '- Ask the user whether a 1,000-snapshot history is a realistic cap.',
    '',
    '## Next step',
    'Profile one Stop hook on the 500 MB transcript and see where the time goes beyond node start-up.',
    '',
    '## Files',
    ...many(FILES),
    '',
  ].join('\n')
  const path = join(projectDir, '.bookmark', 'bookmark.context.md')
  writeFileSync(path, text, { mode: 0o600 })
  return { path, chars: text.length }
}
