/**
 * The search bench's world: the corpus copied into a private Claude Code store and CODEX_HOME, backfilled by
 * the CLI under test into one bookmark home, then an events log of N events (200,000 by default) written into
 * another by repeating the backfilled events, as ../shared/docs/search-notes.md built its 200k:
 *
 * - repetition 0 is the backfill's log as it is; each further one gets fresh event ids and session ids, its
 *   times moved back by REPEAT_SHIFT_DAYS per repetition, its projects renamed (the repository's folder gets
 *   a suffix, so each repetition is other projects), and its rare words (in at most RARE_DF events of the
 *   corpus) and file names (the last part of a path) renamed with a suffix of its own, so the vocabulary grows
 *   as a real archive's does instead of 25 copies sharing every term;
 * - log.json holds a checkpoint for each repetition's transcripts (the backfill's, under a path of the
 *   repetition's own); the files themselves are on disk only for the newest `linked` repetitions (hard links of
 *   the corpus files), as after a host deleted old transcripts (Claude Code keeps 30 days by default), until
 *   `linkAll` puts every one there.
 * The log is written in its on-disk form (docs/SEARCH.md, "The files": `events/NNNNNN.jsonl` and `log.json`).
 */
import { createHash } from 'node:crypto'
import { closeSync, copyFileSync, existsSync, linkSync, mkdirSync, openSync, readFileSync, readdirSync, statSync, writeFileSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

/** A log segment is closed past this size (src/memory/log.ts SEGMENT_BYTES). */
const SEGMENT_BYTES = 64 * 1024 * 1024
const RARE_DF = 3
const REPEAT_SHIFT_DAYS = 20
const DAY = 86_400_000
const WORD = /[\p{L}\p{N}]+/gu
/** A path or file name: a run of path characters holding a separator or ending in an extension. */
const PATHISH = /[\p{L}\p{N}_./\\-]*[\p{L}\p{N}_-]+\.[A-Za-z][A-Za-z0-9]{0,5}\b|[\p{L}\p{N}_.-]*[/\\][\p{L}\p{N}_./\\-]+/gu

/** Private homes for the search cases: HOME, CLAUDE_CONFIG_DIR, CODEX_HOME, and a bookmark home per use. */
export function searchWorld(root, corpus) {
  const dir = join(root, 'search')
  const home = join(dir, 'home')
  const claude = join(dir, 'claude')
  const codex = join(dir, 'codex')
  mkdirSync(home, { recursive: true })
  const stores = { claude: join(claude, 'projects', '-bench-corpus'), codex: join(codex, 'sessions', '2026', '01', '01') }
  for (const [from, to] of [
    ['claude', stores.claude],
    ['codex', stores.codex],
  ]) {
    mkdirSync(to, { recursive: true })
    if (!existsSync(join(corpus, from))) continue
    for (const f of readdirSync(join(corpus, from)).filter((n) => n.endsWith('.jsonl'))) copyFileSync(join(corpus, from, f), join(to, f))
  }
  const env = (bookmarkHome) => ({
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_CONFIG_DIR: claude,
    CODEX_HOME: codex,
    BOOKMARK_HOME: join(dir, bookmarkHome),
    TMPDIR: dir,
    NODE_OPTIONS: '',
  })
  return { dir, home, claude, codex, stores, env }
}

/** The committed events of a bookmark home's log and its log.json, as a reader sees them. */
export function readLog(bookmarkHome) {
  const memory = join(bookmarkHome, 'memory')
  const state = JSON.parse(readFileSync(join(memory, 'log.json'), 'utf8'))
  // The checkpoints as the log's reader takes them (src/memory/checkpoints.ts): one file per transcript, then
  // those of the last commit and of a first-version log.json.
  const sources = {}
  const dir = join(memory, 'sources')
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    if (!name.endsWith('.json')) continue
    const { path, ...cp } = JSON.parse(readFileSync(join(dir, name), 'utf8'))
    sources[path] = cp
  }
  for (const [path, cp] of Object.entries(state.last ?? {})) if ((sources[path]?.commit ?? 0) <= (cp.commit ?? 0)) sources[path] = cp
  Object.assign(sources, state.legacy ?? {}, state.sources ?? {})
  state.sources = sources
  const events = []
  for (let s = 0; s <= state.segment; s++) {
    const path = join(memory, 'events', `${String(s).padStart(6, '0')}.jsonl`)
    if (!existsSync(path)) continue
    const bytes = readFileSync(path)
    const text = (s === state.segment ? bytes.subarray(0, state.committed) : bytes).toString('utf8')
    for (const line of text.split('\n')) if (line !== '') events.push(JSON.parse(line))
  }
  return { state, events }
}

const hex = (s, n) => createHash('sha1').update(s).digest('hex').slice(0, n)
const uuidOf = (s) => {
  const h = hex(s, 32)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`
}
/** A suffix no word of the corpus ends in, its own per repetition: `zqb`, `zqc`, … */
export const suffixOf = (k) => {
  let s = ''
  for (let n = k; n > 0; n = Math.floor(n / 26)) s = String.fromCharCode(97 + (n % 26)) + s
  return `zq${s}`
}

const rareOf = new WeakMap()

/** Words in at most RARE_DF events: renamed per repetition. */
function rareWords(events) {
  if (rareOf.has(events)) return rareOf.get(events)
  const df = new Map()
  for (const e of events) {
    const seen = new Set()
    for (const m of e.text.matchAll(WORD)) seen.add(m[0].toLowerCase())
    for (const w of seen) df.set(w, (df.get(w) ?? 0) + 1)
  }
  const rare = new Set([...df].filter(([, n]) => n <= RARE_DF).map(([w]) => w))
  rareOf.set(events, rare)
  return rare
}

/** The project of repetition `k`: its repository's folder renamed (a worktree keeps its place under it). */
function projectOf(project, k) {
  if (k === 0 || project === '') return project
  const parts = project.split(/([\\/])/)
  const names = parts.filter((p, i) => i % 2 === 0)
  let at = names.findIndex((p, i) => p === '.worktrees' || (p === 'worktrees' && names[i - 1] === '.claude'))
  at = at > 0 ? (names[at - 1] === '.claude' ? at - 2 : at - 1) : names.length - 1
  while (at > 0 && names[at] === '') at--
  parts[at * 2] = `${parts[at * 2]}-r${k}`
  return parts.join('')
}

function renameText(text, rare, suffix) {
  const files = text.replace(PATHISH, (p) => p.replace(/([^\\/.]+)(\.[A-Za-z][A-Za-z0-9]{0,5})?$/, (_m, stem, ext = '') => `${stem}${suffix}${ext}`))
  return files.replace(WORD, (w) => (rare.has(w.toLowerCase()) ? `${w}${suffix}` : w))
}

/**
 * Writes a log of `target` events into `bookmarkHome` from the backfilled `base`, with hard links and
 * checkpoints for each repetition's transcripts. Returns the number of events, repetitions and transcripts.
 */
export function writeRepeatedLog(base, bookmarkHome, target, w, { linked = Infinity } = {}) {
  const rare = rareWords(base.events)
  const memory = join(bookmarkHome, 'memory')
  mkdirSync(join(memory, 'events'), { recursive: true, mode: 0o700 })
  mkdirSync(join(memory, 'index'), { recursive: true, mode: 0o700 })
  let segment = 0
  let size = 0
  let fd = openSync(join(memory, 'events', '000000.jsonl'), 'w', 0o600)
  let chunk = []
  const flush = () => {
    if (chunk.length === 0) return
    const data = Buffer.from(chunk.join(''), 'utf8')
    writeSync(fd, data)
    size += data.length
    chunk = []
  }
  const sources = {}
  let written = 0
  let k = 0
  for (; written < target; k++) {
    const suffix = suffixOf(k)
    const paths = new Map()
    for (const [path, cp] of Object.entries(base.state.sources)) {
      const to = k === 0 ? path : copyPath(path, k, w)
      if (k > 0 && k < linked) linkCopy(path, to)
      paths.set(path, to)
      sources[to] = k === 0 ? cp : { ...cp, session: uuidOf(`${k}:${cp.session}`) }
    }
    for (const e of base.events) {
      if (written >= target) break
      const out =
        k === 0
          ? e
          : {
              ...e,
              id: hex(`${k}:${e.id}`, 12),
              ...(e.ts ? { ts: new Date(Date.parse(e.ts) - k * REPEAT_SHIFT_DAYS * DAY).toISOString() } : {}),
              project: projectOf(e.project, k),
              session: uuidOf(`${k}:${e.session}`),
              text: renameText(e.text, rare, suffix),
              ...(e.paths ? { paths: e.paths.map((p) => renameText(p, new Set(), suffix)) } : {}),
              transcript: paths.get(e.transcript) ?? e.transcript,
            }
      chunk.push(`${JSON.stringify(out)}\n`)
      written++
      if (chunk.length >= 2_000) flush()
      if (size >= SEGMENT_BYTES) {
        flush()
        closeSync(fd)
        segment++
        size = 0
        fd = openSync(join(memory, 'events', `${String(segment).padStart(6, '0')}.jsonl`), 'w', 0o600)
      }
    }
  }
  flush()
  closeSync(fd)
  writeFileSync(join(memory, 'log.json'), JSON.stringify({ version: 1, segment, committed: size, sources }), { mode: 0o600 })
  const logBytes = folderBytes(join(memory, 'events'))
  return { events: written, repetitions: k, transcripts: Object.keys(sources).length, logBytes }
}

/** Where repetition `k` keeps a corpus transcript: a folder of its own in the host's store. */
function copyPath(path, k, w) {
  return path.startsWith(w.stores.claude)
    ? join(dirname(w.stores.claude), `-bench-r${k}`, basename(path))
    : join(dirname(w.stores.codex), String(k + 1).padStart(2, '0'), basename(path))
}

function linkCopy(path, to) {
  if (existsSync(to)) return
  mkdirSync(dirname(to), { recursive: true })
  linkSync(path, to)
}

/** Every repetition's transcripts on disk (hard links); returns how many transcripts are there now. */
export function linkAll(base, w, repetitions) {
  let n = 0
  for (const path of Object.keys(base.state.sources)) {
    n++
    for (let k = 1; k < repetitions; k++, n++) linkCopy(path, copyPath(path, k, w))
  }
  return n
}

/**
 * `n` more events after the log's end (repetition `k` of the base, fresh ids), appended and committed as
 * log.json says a commit is: the bytes, then the new committed length.
 */
export function appendRepeated(base, bookmarkHome, n, k) {
  const rare = rareWords(base.events)
  const memory = join(bookmarkHome, 'memory')
  const statePath = join(memory, 'log.json')
  const state = JSON.parse(readFileSync(statePath, 'utf8'))
  const suffix = suffixOf(k)
  const lines = []
  for (let i = 0; i < n; i++) {
    const e = base.events[i % base.events.length]
    lines.push(
      `${JSON.stringify({ ...e, id: hex(`${k}:${i}:${e.id}`, 12), project: projectOf(e.project, k), session: uuidOf(`${k}:${e.session}`), text: renameText(e.text, rare, suffix) })}\n`,
    )
  }
  const path = join(memory, 'events', `${String(state.segment).padStart(6, '0')}.jsonl`)
  const data = Buffer.from(lines.join(''), 'utf8')
  const fd = openSync(path, 'r+')
  try {
    writeSync(fd, data, 0, data.length, state.committed)
  } finally {
    closeSync(fd)
  }
  state.committed += data.length
  writeFileSync(statePath, JSON.stringify(state), { mode: 0o600 })
}

/** Bytes of every file in a folder (not recursive). */
export function folderBytes(dir) {
  return readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0)
}
