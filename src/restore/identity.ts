/**
 * The identity header of the narrative file (`.bookmark/bookmark.context.md`, and the home pointer
 * `~/.bookmark/bookmark.context.md`): which repository, branch and commit the narrative was written
 * for, and when. Parsed tolerantly (the file is written by a model), rendered exactly. Pure.
 *
 * ```
 * <!-- BOOKMARK_IDENTITY
 * scope: repo
 * project: acme-notes
 * repo_path: /home/dev/acme-notes
 * ...
 * -->
 * ```
 */
import { fromGitBashPath, isWindowsPath, normalizeAbsolute } from '../shared/paths.js'
import { oneLine } from '../shared/text.js'
import { parseTimestamp } from './staleness.js'

export interface Identity {
  scope: 'repo' | 'home'
  project?: string
  repo_path?: string
  branch?: string
  head?: string
  session_id?: string
  written?: string
  points_to_canonical?: string
  /**
   * A keyed hash (trust/seal.ts) of the project, the session and `written`, which only this user's bookmark can
   * make: it gives it to the model with the header, and a handoff without a valid one is never loaded.
   */
  seal?: string
  /** A home pointer's project, as its folder in the bookmark home is named (a keyed hash: never a path). */
  project_id?: string
}

export type ParsedNarrative = { ok: true; identity: Identity; body: string } | { ok: false; reason: string; body: string }

/** Header keys in the order they are rendered. */
const KEYS = ['scope', 'project', 'repo_path', 'branch', 'head', 'session_id', 'written', 'points_to_canonical', 'project_id', 'seal'] as const
type Key = (typeof KEYS)[number]

const OPEN = /^<!--\s*BOOKMARK_IDENTITY\b\s*(.*)$/i
const CLOSE = '-->'

function shown(value: string): string {
  return `\`${oneLine(value, 60)}\``
}

/** Everything after the header with leading blank lines removed and trailing whitespace trimmed. */
function bodyOf(lines: string[]): string {
  let start = 0
  while (start < lines.length && lines[start]!.trim() === '') start++
  return lines.slice(start).join('\n').trimEnd()
}

/**
 * Splits the file into its identity header and body. Tolerates a BOM, CRLF, blank lines before the
 * header, extra keys (ignored), upper-case keys, `repo-path`/`Repo Path` for `repo_path`, spaces around
 * `:`; empty values and unfilled `{{placeholders}}` count as absent; the first of a duplicated key wins.
 * The header must be the first non-blank thing in the file. On failure `body` is the rest of the file
 * (the whole file when there is no header) and `reason` is one line.
 */
export function parseNarrative(text: string): ParsedNarrative {
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n')
  let i = 0
  while (i < lines.length && lines[i]!.trim() === '') i++
  const first = OPEN.exec((lines[i] ?? '').trim())
  if (!first) {
    const later = lines.findIndex((l) => OPEN.test(l.trim()))
    const where = later >= 0 ? ` (one was found on line ${later + 1}; it must come first)` : ''
    return { ok: false, reason: `no BOOKMARK_IDENTITY header at the top of the file${where}`, body: bodyOf(lines) }
  }

  const fields = new Map<string, string>()
  const take = (line: string): void => {
    const colon = line.indexOf(':')
    if (colon <= 0) return
    const key = line
      .slice(0, colon)
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_')
    const value = line.slice(colon + 1).trim()
    // `{{branch}}`: a template placeholder nobody filled in says nothing.
    if (value !== '' && !/^\{\{.*\}\}$/.test(value) && !fields.has(key)) fields.set(key, value)
  }

  let closed = -1
  let rest = first[1] ?? ''
  for (let j = i; j < lines.length; j++) {
    const line = j === i ? rest : lines[j]!.trim()
    const end = line.indexOf(CLOSE)
    if (end >= 0) {
      take(line.slice(0, end).trim())
      closed = j
      rest = line.slice(end + CLOSE.length).trim()
      break
    }
    take(line)
  }
  if (closed < 0) return { ok: false, reason: 'the BOOKMARK_IDENTITY header is not closed with -->', body: bodyOf(lines.slice(i + 1)) }

  const body = bodyOf([rest, ...lines.slice(closed + 1)])
  const scope = fields.get('scope')?.toLowerCase()
  if (scope === undefined) return { ok: false, reason: 'the BOOKMARK_IDENTITY header has no scope (expected repo or home)', body }
  if (scope !== 'repo' && scope !== 'home') return { ok: false, reason: `the identity scope must be repo or home, found ${shown(scope)}`, body }

  const identity: Identity = { scope }
  for (const key of KEYS) {
    if (key === 'scope') continue
    const value = fields.get(key)
    if (value !== undefined) identity[key] = value
  }
  if (identity.written !== undefined && parseTimestamp(identity.written) === undefined) {
    return { ok: false, reason: `the identity written time is not an ISO date-time: ${shown(identity.written)}`, body }
  }
  return { ok: true, identity, body }
}

/** A value on one header line: no line breaks, and no `-->` that would close the comment early. */
function headerValue(value: string): string {
  return value
    .replace(/[\r\n]+/g, ' ')
    .replace(/-->/g, '-- >')
    .trim()
}

/** The header block, keys in the fixed order, absent or empty ones omitted, ending with `-->\n`. */
export function renderIdentity(id: Identity): string {
  const out = ['<!-- BOOKMARK_IDENTITY']
  for (const key of KEYS) {
    const value = id[key as Key]
    if (value === undefined) continue
    const v = headerValue(value)
    if (v !== '') out.push(`${key}: ${v}`)
  }
  out.push(CLOSE)
  return out.join('\n') + '\n'
}

export interface Here {
  root: string
  branch?: string
  head?: string
}

/** `unsealed`: no valid seal, so not written for this project through this user's bookmark (nothing of it is shown). */
export type IdentityVerdict =
  { kind: 'match'; notes: string[] } | { kind: 'foreign'; warning: string } | { kind: 'invalid'; reason: string } | { kind: 'unsealed'; reason: string }

/**
 * A repository path in comparable form: normalised, no trailing slash, forward slashes and lower case
 * for Windows drive paths. `other` decides how to read a Git Bash `/c/...` path: as drive C only when
 * the path it is compared with is a Windows path.
 */
function comparable(p: string, other: string): string {
  let path = p.trim()
  if (!isWindowsPath(path) && isWindowsPath(other.trim())) path = fromGitBashPath(path)
  const n = normalizeAbsolute(path)
  return isWindowsPath(n) ? n.toLowerCase() : n
}

export function samePath(a: string, b: string): boolean {
  return comparable(a, b) === comparable(b, a)
}

function short(sha: string): string {
  return sha.trim().slice(0, 7)
}

/** Same commit when one sha is a prefix of the other (either may be abbreviated), case-insensitive. */
function sameCommit(a: string, b: string): boolean {
  const x = a.trim().toLowerCase()
  const y = b.trim().toLowerCase()
  if (x === '' || y === '') return true
  return x.startsWith(y) || y.startsWith(x)
}

/**
 * Whether a repo-scoped narrative belongs to the repository at `here.root`. A home pointer, or a header
 * without `repo_path`, is invalid here (the caller follows `points_to_canonical` itself). A different
 * repository is `foreign`: its content must not be injected. Branch and head differences are notes.
 */
export function checkIdentity(id: Identity, here: Here): IdentityVerdict {
  if (id.scope !== 'repo') return { kind: 'invalid', reason: `the identity has scope ${id.scope}, expected repo (a home pointer is not a narrative)` }
  const repo = id.repo_path?.trim()
  if (!repo) return { kind: 'invalid', reason: 'the identity has no repo_path' }
  if (!samePath(repo, here.root)) {
    return {
      kind: 'foreign',
      warning: `The bookmark narrative was written for another repository (${oneLine(repo, 200)}), not this one (${oneLine(here.root, 200)}); it was not loaded.`,
    }
  }
  const notes: string[] = []
  if (id.branch && here.branch && id.branch.trim() !== here.branch.trim()) {
    notes.push(`The narrative was written on branch ${oneLine(id.branch, 120)}, now on ${oneLine(here.branch, 120)}.`)
  }
  if (id.head && here.head && !sameCommit(id.head, here.head)) {
    notes.push(`The narrative was written at commit ${short(id.head)}, HEAD is now ${short(here.head)}.`)
  }
  return { kind: 'match', notes }
}
