/**
 * Git activity in a shell command: commits, branch switches, pushes and the
 * history-changing commands, read from the command (via the shell lexer) and
 * confirmed by its output. Pure string work.
 *
 * Evidence rule: a command's output line proves an effect even when the whole
 * command failed later (`git commit ... && npm test` with a failing test still
 * committed). Without such a line, a failed command (isError) produced nothing.
 */
import {
  forEachCommand,
  heredocSubstitution,
  parseGitInvocation,
  parseOptions,
  stdinText,
  type ScriptNode,
  type ShellCommand,
  type Word,
} from './shell/index.js'

export type GitEvent =
  | { kind: 'commit'; message: string; hash?: string; branch?: string }
  | { kind: 'branch'; to: string; created: boolean }
  | { kind: 'push'; remote?: string; branch?: string; ok: boolean }
  | { kind: 'merge' | 'rebase' | 'reset' | 'pull' | 'stash' | 'tag'; detail: string }

interface CommitSummary {
  branch?: string
  hash: string
  subject: string
}

/** `[main 1a2b3c4] subject`, `[main (root-commit) 1a2b3c4] subject`, `[detached HEAD 1a2b3c4] subject`. */
const SUMMARY = /^\[(?:detached HEAD|([^\s\]]+)(?: \(root-commit\))?) ([0-9a-f]{7,64})\] ?(.*)$/gm
const NOTHING_TO_COMMIT = /nothing to commit|nothing added to commit|no changes added to commit/i
const SWITCHED = /^(?:Switched to (a new )?branch|Switched to and reset branch|Reset branch|Already on) '([^'\n]+)'/gm
const PUSH_REF = /^[ \t]*[*+!=-]?[ \t]*(?:\[[^\]\n]+\]|[0-9a-f]{4,64}\.\.\.?[0-9a-f]{4,64})[ \t]+(\S+)[ \t]+->[ \t]+(\S+)/m
const PUSH_TRACK = /set up to track (?:remote branch '[^']+' from '([^']+)'|'([^'/]+)\/)/
const PUSH_FAILED = /\[rejected\]|\[remote rejected\]|error: failed to push/
const CONFLICT = /^CONFLICT\b|Automatic merge failed|could not apply/m
const DETAIL_MAX = 200

function commitSummaries(out: string): CommitSummary[] {
  const found: CommitSummary[] = []
  for (const m of out.replace(/\r/g, '').matchAll(SUMMARY)) {
    const summary: CommitSummary = { hash: m[2] as string, subject: (m[3] ?? '').trim() }
    if (m[1] !== undefined) summary.branch = m[1]
    found.push(summary)
  }
  return found
}

function switchLines(out: string): { to: string; created: boolean }[] {
  return [...out.replace(/\r/g, '').matchAll(SWITCHED)].map((m) => ({ to: m[2] as string, created: m[1] !== undefined }))
}

/** A commit message argument: literal text, or the body of `"$(cat <<'EOF' ... EOF)"`. */
function messageOf(w: Word | undefined): string | undefined {
  if (!w) return undefined
  if (!w.dynamic) return w.text
  return heredocSubstitution(w)
}

interface CommitArgs {
  /** undefined: the message is not in the command (-F file, -C commit, --no-edit, $VAR). */
  message?: string
  dryRun: boolean
  /** `--amend --no-edit`, or `--amend` with no message: the commit keeps the message of the one it replaces. */
  keepsMessage: boolean
}

function commitArgs(c: ShellCommand, args: Word[]): CommitArgs {
  const parts: (string | undefined)[] = []
  let dryRun = false
  let fromElsewhere = false
  let amend = false
  let noEdit = false
  const takeFile = (w: Word | undefined): void => {
    // `-F -` reads the message from stdin: a heredoc in real transcripts.
    if (w && !w.dynamic && (w.text === '-' || w.text === '/dev/stdin')) parts.push(stdinText(c.redirects))
    else fromElsewhere = true
  }
  for (let k = 0; k < args.length; k++) {
    const a = args[k] as Word
    const t = a.text
    if (t === '--') break
    if (t === '-m' || t === '--message') parts.push(messageOf(args[++k]))
    else if (t.startsWith('--message=')) parts.push(messageOf({ ...a, text: t.slice('--message='.length) }))
    else if (t === '-F' || t === '--file') takeFile(args[++k])
    else if (t.startsWith('--file=')) takeFile({ ...a, text: t.slice('--file='.length) })
    else if (t === '--dry-run') dryRun = true
    else if (t === '--amend') amend = true
    else if (t === '--no-edit') noEdit = true
    else if (/^(-C|-c|--reuse-message|--reedit-message)$/.test(t)) {
      fromElsewhere = true
      k++
    } else if (/^--(reuse-message|reedit-message)=/.test(t)) fromElsewhere = true
    else if (/^(-t|--template|--author|--date|--cleanup|--trailer|--fixup|--squash|--pathspec-from-file)$/.test(t)) k++
    else if (/^-[A-Za-z]{2,}$/.test(t)) {
      // A cluster such as -am "msg" or -qm "msg".
      for (let j = 1; j < t.length; j++) {
        const ch = t[j]
        const rest = t.slice(j + 1)
        if (ch === 'm' || ch === 'F' || ch === 'C' || ch === 'c' || ch === 't') {
          const value = rest.length > 0 ? { ...a, text: rest } : args[++k]
          if (ch === 'm') parts.push(messageOf(value))
          else if (ch === 'F') takeFile(value)
          else if (ch !== 't') fromElsewhere = true
          break
        }
        if (ch === 'S' || ch === 'u') break // optional attached value
      }
    } else if (t.startsWith('-m') && t.length > 2) parts.push(messageOf({ ...a, text: t.slice(2) }))
  }
  // `-F file --no-edit` with --amend (seen in the corpus) still takes the file's message; the old one is the best guess.
  const keepsMessage = amend && (noEdit || (!fromElsewhere && parts.length === 0))
  if (fromElsewhere || parts.length === 0 || parts.some((p) => p === undefined)) return { dryRun, keepsMessage }
  return {
    message: (parts as string[])
      .map((p) => p.trim())
      .join('\n\n')
      .trim(),
    dryRun,
    keepsMessage: false,
  }
}

/** The output subject replaces the first paragraph (git prints the first paragraph as one line). */
function withSubject(message: string | undefined, subject: string): string {
  if (message === undefined || message === '') return subject
  const blank = message.search(/\n\s*\n/)
  return blank < 0 ? subject : subject + message.slice(blank)
}

/** A message's first paragraph as git prints it in `[branch hash] subject`: its lines joined by spaces. */
function firstParagraph(message: string): string {
  return message
    .trim()
    .split(/\n\s*\n/)[0]!
    .replace(/\s*\n\s*/g, ' ')
    .trim()
}

function renderArg(w: Word): string {
  const body = heredocSubstitution(w)
  const text = (body !== undefined ? body.trim() : w.text).split('\n')[0] ?? ''
  return /\s/.test(text) || text === '' ? `"${text}"` : text
}

function detailOf(args: Word[]): string {
  const detail = args.map(renderArg).join(' ')
  return detail.length > DETAIL_MAX ? detail.slice(0, DETAIL_MAX - 1) + '…' : detail
}

function looksLikePath(name: string): boolean {
  return name === '.' || name === '..' || /^\.{1,2}[\\/]|[\\/]$/.test(name) || /\.[A-Za-z][A-Za-z0-9]{0,5}$/.test(name) || /[\s*?[\]]/.test(name)
}

function validRef(w: Word | undefined): w is Word {
  return w !== undefined && !w.dynamic && w.text.length > 0 && !w.text.startsWith('-') && !/[\s~^:?*[\\]/.test(w.text)
}

/**
 * Git events of one shell command, in order (`parsed`: the command as `parseScript(command, 'bash')` gave it;
 * `lastMessage`: the message of the last commit recorded before it, which an amend keeps). Never throws.
 */
export function gitEvents(command: string, resultText: string, isError: boolean, parsed?: ScriptNode[], lastMessage?: string): GitEvent[] {
  const events: GitEvent[] = []
  const out = typeof resultText === 'string' ? resultText : ''
  const failed = isError === true
  const summaries = commitSummaries(out)
  const switches = switchLines(out)
  let nextSummary = 0
  let nextSwitch = 0
  const takeSwitch = (name?: string): { to: string; created: boolean } | undefined => {
    for (let k = nextSwitch; k < switches.length; k++) {
      const line = switches[k] as { to: string; created: boolean }
      if (name === undefined || line.to === name) {
        nextSwitch = k + 1
        return line
      }
    }
    return undefined
  }

  const commit = (c: ShellCommand, args: Word[]): void => {
    const parsed = commitArgs(c, args)
    if (parsed.dryRun) return
    const kept = parsed.keepsMessage && lastMessage !== undefined && lastMessage !== '' ? lastMessage : undefined
    const summary = summaries[nextSummary]
    if (summary) {
      nextSummary++
      // An amend keeping its message prints its subject: the body of the message it kept goes with it.
      const message = withSubject(parsed.message ?? (kept !== undefined && firstParagraph(kept) === summary.subject ? kept : undefined), summary.subject)
      const event: GitEvent = { kind: 'commit', message, hash: summary.hash }
      if (summary.branch !== undefined) event.branch = summary.branch
      events.push(event)
      lastMessage = message
      return
    }
    if (failed || NOTHING_TO_COMMIT.test(out)) return
    const message = parsed.message ?? kept ?? ''
    events.push({ kind: 'commit', message })
    lastMessage = message
  }

  const branch = (sub: 'checkout' | 'switch', args: Word[]): void => {
    const o = parseOptions(
      args,
      sub === 'checkout' ? 'bB' : 'cC',
      sub === 'checkout' ? ['orphan', 'conflict', 'pathspec-from-file'] : ['create', 'force-create', 'orphan', 'conflict'],
    )
    const created = [
      ...(o.values.get('b') ?? []),
      ...(o.values.get('B') ?? []),
      ...(o.values.get('c') ?? []),
      ...(o.values.get('C') ?? []),
      ...(o.values.get('create') ?? []),
      ...(o.values.get('force-create') ?? []),
      ...(o.values.get('orphan') ?? []),
    ][0]
    if (created) {
      const line = validRef(created) ? takeSwitch(created.text) : takeSwitch()
      if (line) events.push({ kind: 'branch', to: line.to, created: true })
      else if (!failed && validRef(created)) events.push({ kind: 'branch', to: created.text, created: true })
      return
    }
    if (o.flags.has('detach') || (sub === 'switch' && o.flags.has('d'))) return
    // `git checkout -- file`, `git checkout main file`, `git checkout .`: files, not branches.
    const dashDash = args.some((a) => a.text === '--')
    if (dashDash || o.positionals.length !== 1 || o.flags.has('pathspec-from-file')) return
    const target = o.positionals[0] as Word
    if (target.text === '-') {
      const line = takeSwitch()
      if (line) events.push({ kind: 'branch', to: line.to, created: line.created })
      return
    }
    if (!validRef(target)) return
    const line = takeSwitch(target.text)
    if (line) {
      events.push({ kind: 'branch', to: line.to, created: line.created })
      return
    }
    if (failed || /HEAD is now at|detached HEAD|Note: switching to|Updated \d+ paths? from/.test(out)) return
    if (sub === 'checkout' && looksLikePath(target.text)) return
    events.push({ kind: 'branch', to: target.text, created: false })
  }

  const push = (args: Word[]): void => {
    const o = parseOptions(args, 'o', ['push-option', 'repo', 'receive-pack', 'exec'])
    if (o.flags.has('n') || o.flags.has('dry-run') || o.flags.has('help') || o.flags.has('h')) return
    const event: GitEvent = { kind: 'push', ok: !failed && !PUSH_FAILED.test(out) }
    const remote = o.positionals[0]
    if (remote && !remote.dynamic) event.remote = remote.text
    const refspec = o.positionals[1]
    if (refspec && !refspec.dynamic) {
      const spec = refspec.text.replace(/^\+/, '')
      const dst = spec.includes(':') ? spec.slice(spec.indexOf(':') + 1) : spec
      if (dst !== '' && dst !== 'HEAD') event.branch = dst.replace(/^refs\/heads\//, '')
    }
    if (event.branch === undefined) {
      const m = PUSH_REF.exec(out)
      if (m) event.branch = (m[2] as string).replace(/^refs\/heads\//, '')
    }
    if (event.remote === undefined) {
      const m = PUSH_TRACK.exec(out)
      const name = m?.[1] ?? m?.[2]
      if (name !== undefined) event.remote = name
    }
    events.push(event)
  }

  const other = (kind: 'merge' | 'rebase' | 'reset' | 'pull' | 'stash' | 'tag', args: Word[]): void => {
    const o = parseOptions(args, kind === 'tag' ? 'mFu' : kind === 'merge' ? 'mFsX' : '')
    if (kind === 'stash' && ['list', 'show', 'create'].includes(o.positionals[0]?.text ?? '')) return
    if (kind === 'tag') {
      const listing = ['l', 'list', 'v', 'verify', 'contains', 'no-contains', 'points-at', 'merged', 'no-merged', 'column']
      if (o.positionals.length === 0 || listing.some((f) => o.flags.has(f)) || [...o.flags].some((f) => /^n\d*$/.test(f))) return
    }
    let detail = detailOf(args)
    if (kind === 'stash' && detail === '') detail = 'push'
    if (failed) {
      if ((kind === 'merge' || kind === 'rebase' || kind === 'pull' || kind === 'stash') && CONFLICT.test(out)) {
        events.push({ kind, detail: detail === '' ? '(conflict)' : `${detail} (conflict)` })
      }
      return
    }
    events.push({ kind, detail })
  }

  try {
    forEachCommand(
      command,
      'bash',
      (c) => {
        if (c.name !== 'git') return
        const g = parseGitInvocation(c.args)
        if (!g || g.args.some((a) => a.text === '--help' || a.text === '-h')) return
        switch (g.sub) {
          case 'commit':
            return commit(c, g.args)
          case 'checkout':
          case 'switch':
            return branch(g.sub, g.args)
          case 'push':
            return push(g.args)
          case 'merge':
          case 'rebase':
          case 'reset':
          case 'pull':
          case 'stash':
          case 'tag':
            return other(g.sub, g.args)
          default:
            return
        }
      },
      parsed,
    )
  } catch {
    // Defensive: keep the events found so far.
  }
  return events
}
