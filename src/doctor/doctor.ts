/**
 * `bookmark doctor`: checks the installation and the store, each finding with a fix. Read-only.
 */
import { access, constants, readdir, stat, statfs } from 'node:fs/promises'
import { isSymlink } from '../store/fs.js'
import { join, resolve, sep } from 'node:path'
import { CONFIG_KEYS, KEYS } from '../config/keys.js'
import { resolveConfig } from '../config/resolve.js'
import { claudeConfigDir, discoverTranscript } from '../hosts/claude/transcripts.js'
import { readNarrative } from '../narrative/file.js'
import { describeAge, staleness } from '../restore/staleness.js'
import { type HookEvent, inspectSettings } from '../setup/inspect.js'
import { readGitInfo } from '../repo/git.js'
import { homeLayout, isSnapshotId, projectLayout } from '../store/layout.js'
import { findProjectRoot } from '../repo/root.js'
import { stateOf } from '../store/state.js'
import { StoreReader } from '../store/reader.js'
import type { Check, DoctorReport } from './check.js'
import { trustChecks } from './trust.js'
import { codexChecks } from './codex.js'
import { geminiChecks } from './gemini.js'
import { type WiredHook, probeHooks } from './probe.js'
import { EXEC_FORM_SINCE, atLeast, findClaude } from '../hosts/claude/version.js'
import { hookEntry } from '../setup/hooks.js'
import { handoffPermissionChecks } from './permission.js'
import { readRegularFile } from '../shared/fsp.js'
import { readRegistry } from '../store/registry.js'
import { type Deps, isHomeScope } from '../shared/deps.js'
import { offWhere, switchState } from '../config/switch.js'

export type { Check, CheckStatus, DoctorReport } from './check.js'

const EVENTS: HookEvent[] = ['SessionStart', 'UserPromptSubmit', 'PreCompact', 'Stop']
const STALE_LOCK_MS = 30_000

async function pluginInstalled(env: NodeJS.ProcessEnv): Promise<boolean> {
  try {
    const text = await readRegularFile(join(claudeConfigDir(env), 'plugins', 'installed_plugins.json'), { follow: true })
    return text.includes('session-bookmark@')
  } catch {
    return false
  }
}

async function hookChecks(root: string | undefined, deps: Deps): Promise<Check[]> {
  const files = [join(claudeConfigDir(deps.env), 'settings.json')]
  if (root) files.push(join(root, '.claude', 'settings.local.json'), join(root, '.claude', 'settings.json'))
  const checks: Check[] = []
  const wiredIn: Record<string, string[]> = {}
  const claude = await findClaude(deps.env)
  for (const file of files) {
    const s = await inspectSettings(file, deps.env)
    if (!s.exists) continue
    if (s.parseError) {
      checks.push({
        id: 'hooks',
        status: 'error',
        message: `${file} is not valid JSON: ${s.parseError}`,
        fix: 'fix the file by hand (Claude Code ignores it as it is), then run `bookmark setup`',
      })
      continue
    }
    const probe: WiredHook[] = []
    for (const ev of EVENTS) {
      const e = s.events[ev]
      if (!e.wired) continue
      ;(wiredIn[ev] ??= []).push(file)
      if (!e.resolves) {
        const entry = hookEntry(e)
        checks.push({
          id: 'hooks',
          status: 'error',
          message: `${ev} in ${file} runs ${entry ?? e.command ?? '?'}, which is not there: the hook does nothing`,
          fix: 'the package moved or was removed: run `bookmark setup` again from the installed package, or `bookmark uninstall` to take the hooks out',
        })
      } else if (e.command)
        probe.push({ event: ev, command: e.command, ...(e.args ? { args: e.args } : {}), ...(e.timeout !== undefined ? { timeout: e.timeout } : {}) })
    }
    for (const p of await probeHooks(probe, claude?.version, deps.env)) {
      const h = probe.find((x) => x.event === p.event)
      const why =
        h?.args && claude && !atLeast(claude.version, EXEC_FORM_SINCE)
          ? ` (Claude Code before ${EXEC_FORM_SINCE.join('.')} ignores "args" and runs ${h.command} alone)`
          : ''
      checks.push({
        id: 'hooks',
        status: 'error',
        message: `${p.event} in ${file}, run as ${claude ? `Claude Code ${claude.text}` : 'Claude Code'} runs it, ${p.problem}${why}`,
        fix: 'run `bookmark setup` again (it writes the hook form your Claude Code understands); `bookmark doctor` checks again',
      })
    }
  }
  if (!claude && Object.keys(wiredIn).length > 0)
    checks.push({
      id: 'hooks',
      status: 'info',
      message: 'no `claude` on PATH answered --version: the hooks were run as written, not as a particular Claude Code version would',
    })
  const plugin = await pluginInstalled(deps.env)
  const missing = EVENTS.filter((ev) => !wiredIn[ev])
  if (missing.length === 0) {
    checks.unshift({ id: 'hooks', status: 'ok', message: `hooks wired for ${EVENTS.join(', ')} in ${[...new Set(Object.values(wiredIn).flat())].join(', ')}` })
    if (plugin)
      checks.push({
        id: 'hooks',
        status: 'warn',
        message: 'the session-bookmark plugin is installed too: every hook runs twice',
        fix: 'keep one: `bookmark uninstall` (settings) or `claude plugin uninstall session-bookmark`',
      })
    const doubled = EVENTS.filter((ev) => (wiredIn[ev]?.length ?? 0) > 1)
    if (doubled.length > 0)
      checks.push({
        id: 'hooks',
        status: 'warn',
        message: `${doubled.join(', ')} wired in more than one settings file: those hooks run twice`,
        fix: 'run `bookmark uninstall --project` or `bookmark uninstall` for one of them',
      })
  } else if (plugin && missing.length === EVENTS.length) {
    checks.unshift({ id: 'hooks', status: 'ok', message: 'hooks come from the installed session-bookmark plugin' })
  } else {
    checks.unshift({
      id: 'hooks',
      status: 'error',
      message:
        missing.length === EVENTS.length ? 'no session-bookmark hooks are wired: nothing is captured or restored' : `hooks missing for ${missing.join(', ')}`,
      fix: 'run `bookmark setup`',
    })
  }
  return checks
}

async function walkFiles(dir: string): Promise<string[]> {
  const out: string[] = []
  let entries: import('node:fs').Dirent[]
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch {
    return out
  }
  for (const e of entries) {
    const p = join(dir, e.name)
    if (e.isDirectory()) out.push(p, ...(await walkFiles(p)))
    else out.push(p)
  }
  return out
}

/** Below this much free space a capture may fail half-way (it then leaves nothing half-written, but records nothing). */
const LOW_SPACE_BYTES = 16 * 1024 * 1024

async function spaceCheck(dir: string, label: string): Promise<Check[]> {
  try {
    const s = await statfs(dir)
    const free = s.bavail * s.bsize
    if (free < LOW_SPACE_BYTES) {
      const full = free < 1024 * 1024
      // A full home now fails every capture (the key and the session state live there), and can leave no log line.
      return [
        {
          id: 'storage',
          status: full ? 'error' : 'warn',
          message: `${full ? 'disk full: ' : ''}only ${Math.floor(free / 1024)} KB free on the disk of ${label} ${dir}: captures fail when it is full`,
          fix: 'free disk space (or move the store: BOOKMARK_HOME for ~/.bookmark)',
        },
      ]
    }
  } catch {
    // statfs unsupported here: nothing to say
  }
  return []
}

async function storageChecks(dir: string, label: string, nowMs: number): Promise<Check[]> {
  const checks: Check[] = []
  try {
    await stat(dir)
  } catch {
    return [{ id: 'storage', status: 'info', message: `${label} ${dir} does not exist yet (created by the first capture)` }]
  }
  checks.push(...(await spaceCheck(dir, label)))
  if (await isSymlink(dir))
    checks.push({
      id: 'storage',
      status: 'error',
      message: `${dir} is a symbolic link: bookmark refuses to read or write through it`,
      fix: `remove the link (rm ${dir}); a fresh store is made by the next capture`,
    })
  try {
    await access(dir, constants.W_OK)
  } catch {
    checks.push({ id: 'storage', status: 'error', message: `${dir} is not writable: captures fail`, fix: `chmod u+w ${dir} (and check the disk is not full)` })
  }
  const files = await walkFiles(dir)
  let bad = 0
  let loose = 0
  for (const f of files) {
    if (await isSymlink(f)) {
      checks.push({
        id: 'storage',
        status: 'error',
        message: `${f} is a symbolic link: bookmark never follows it (a repository may have planted it)`,
        fix: `rm ${f}`,
      })
      continue
    }
    const s = await stat(f).catch(() => undefined)
    if (!s) continue
    const mode = s.mode & 0o777
    // The handoff is written by the model under the user's umask; the next capture makes it private (store.ts).
    const handoff = f.endsWith(`${sep}bookmark.context.md`) && f.includes(`${sep}.bookmark${sep}`)
    if (((s.isDirectory() && mode & 0o077) || (!s.isDirectory() && mode & 0o077)) && !handoff) loose++
    if (s.isDirectory()) continue
    if (f.endsWith('.lock') && nowMs - s.mtimeMs > STALE_LOCK_MS) {
      checks.push({
        id: 'storage',
        status: 'warn',
        message: `stale lock ${f} (${Math.round((nowMs - s.mtimeMs) / 1000)} s old)`,
        fix: 'it is taken over automatically; remove it if no bookmark process runs',
      })
    }
    if (f.endsWith('.json')) {
      try {
        JSON.parse(await readRegularFile(f))
      } catch (e) {
        bad++
        checks.push({
          id: 'storage',
          status: 'error',
          message: `${f} does not parse: ${(e as Error).message}`,
          fix: 'delete it: the index is rebuilt from the snapshot files, a cursor from its transcript',
        })
      }
    }
    if (/\.json\.\d+$/.test(f) || /\.md\.\d+$/.test(f))
      checks.push({ id: 'storage', status: 'warn', message: `leftover temporary file ${f} (an interrupted write)`, fix: `delete it` })
  }
  if (loose > 0)
    checks.push({ id: 'storage', status: 'warn', message: `${loose} entries under ${dir} are readable by other users`, fix: `chmod -R go-rwx ${dir}` })
  if (bad === 0)
    checks.unshift({
      id: 'storage',
      status: 'ok',
      message: `${label} ${dir}: ${files.length} ${files.length === 1 ? 'entry' : 'entries'}, every JSON file parses`,
    })
  return checks
}

async function indexChecks(root: string, bookmarkHome: string): Promise<Check[]> {
  const l = projectLayout(root)
  // Only this user's index is compared with the files (trust.ts names one that is not).
  const { index, problem, untrusted } = await new StoreReader(root, bookmarkHome).readIndex()
  if (problem !== undefined || untrusted !== undefined || index.snapshots.length === 0) return []
  const listed = index.snapshots.map((e) => e.id)
  let names: string[] = []
  try {
    names = (await readdir(l.snapshots)).filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -5))
  } catch {
    names = []
  }
  const onDisk = new Set(names.filter(isSnapshotId))
  const missing = listed.filter((id) => !onDisk.has(id))
  const unlisted = [...onDisk].filter((id) => !listed.includes(id))
  const checks: Check[] = []
  if (missing.length > 0)
    checks.push({
      id: 'index',
      status: 'error',
      message: `index.json lists ${missing.length} snapshots whose files are missing (${missing.slice(0, 3).join(', ')})`,
      fix: 'run `bookmark snapshot`: the next capture rewrites the index from the files on disk',
    })
  if (unlisted.length > 0)
    checks.push({
      id: 'index',
      status: 'warn',
      message: `${unlisted.length} snapshot files are not in index.json (an interrupted capture)`,
      fix: 'they are cleaned up by later captures; nothing to do',
    })
  if (checks.length === 0) checks.push({ id: 'index', status: 'ok', message: `index.json and ${onDisk.size} snapshot files agree` })
  return checks
}

async function errorsLogCheck(path: string): Promise<Check[]> {
  try {
    const lines = (await readRegularFile(path)).trim().split('\n').filter(Boolean)
    if (lines.length === 0) return []
    return [
      {
        id: 'errors',
        status: 'warn',
        message: `${lines.length} hook failures logged in ${path}; latest: ${lines[lines.length - 1]!.slice(0, 300)}`,
        fix: 'read the log; after fixing the cause, delete it',
      },
    ]
  } catch {
    return []
  }
}

export async function doctor(cwd: string, deps: Deps): Promise<DoctorReport> {
  const checks: Check[] = []
  const nowMs = deps.now().getTime()
  const major = Number(process.versions.node.split('.')[0])
  checks.push(
    major >= 20
      ? { id: 'node', status: 'ok', message: `Node ${process.versions.node} (${process.execPath})` }
      : { id: 'node', status: 'error', message: `Node ${process.versions.node} is too old`, fix: 'install Node 20 or newer' },
  )

  const choice = await findProjectRoot(resolve(cwd), deps.env.CLAUDE_PROJECT_DIR)
  const home = isHomeScope(choice.root, deps.env)
  if (home)
    checks.push({
      id: 'project',
      status: 'info',
      message: `${choice.root} is not a project: sessions here restore through the home pointer ${homeLayout(deps.bookmarkHome).pointer}`,
    })
  else
    checks.push({
      id: 'project',
      status: 'ok',
      message: `project root ${choice.root} (${choice.reason === 'git' ? 'git top level' : choice.reason === 'claude-project-dir' ? 'CLAUDE_PROJECT_DIR' : 'the working directory: not in a git repository'})`,
    })

  const claudeHooks = await hookChecks(home ? undefined : choice.root, deps)
  const codex = await codexChecks(deps.env)
  const gemini = await geminiChecks(deps.env)
  // Someone who uses Codex CLI or Gemini CLI alone is not missing Claude Code's hooks.
  if (codex.wired || gemini.wired) for (const c of claudeHooks) if (c.id === 'hooks' && c.message.startsWith('no session-bookmark hooks')) c.status = 'info'
  checks.push(...claudeHooks, ...codex.checks, ...gemini.checks)
  checks.push(...(await handoffPermissionChecks(home ? undefined : choice.root, deps)))

  if (!home) {
    const l = projectLayout(choice.root)
    const state = await stateOf(deps.bookmarkHome, choice.root)
    checks.push(...(await storageChecks(l.dir, 'project store', nowMs)))
    checks.push(...(await trustChecks(choice.root, deps.bookmarkHome)))
    checks.push(...(await indexChecks(choice.root, deps.bookmarkHome)))
    if (state) checks.push(...(await errorsLogCheck(state.errorsLog)))
    try {
      const found = await discoverTranscript(choice.root, undefined, deps.env)
      checks.push({ id: 'transcripts', status: 'ok', message: `transcripts found for this folder; newest: ${found.path}` })
    } catch (e) {
      checks.push({
        id: 'transcripts',
        status: 'info',
        message: (e as Error).message.replace(/; pass --transcript PATH$/, ''),
        fix: 'normal before the first Claude Code session in this folder',
      })
    }
    const git = await readGitInfo(choice.root)
    const n = await readNarrative(l.narrative, choice.root, git, deps.bookmarkHome)
    if (!n.state.exists)
      checks.push({ id: 'narrative', status: 'info', message: 'no narrative handoff yet (the Stop hook asks the model for one after meaningful work)' })
    else if (n.state.tracked)
      checks.push({
        id: 'narrative',
        status: 'error',
        message: `${l.narrative} is tracked by git: restore refuses it`,
        fix: 'git rm --cached .bookmark/bookmark.context.md (the store belongs to this machine)',
      })
    else if (!n.identity || !n.verdict)
      checks.push({
        id: 'narrative',
        status: 'warn',
        message: `${l.narrative} has no valid identity header (${n.parseError ?? 'unreadable'})`,
        fix: 'it is rewritten at the next Stop that asks for it',
      })
    else if (n.verdict.kind === 'unsealed')
      checks.push({
        id: 'trust',
        status: 'warn',
        message: `ignored: ${l.narrative}: ${n.verdict.reason}`,
        fix: 'nothing of it is shown; the next Stop after real work asks for a new one (delete it if it came with the repository)',
      })
    else if (n.verdict.kind !== 'match')
      checks.push({
        id: 'narrative',
        status: 'warn',
        message: n.verdict.kind === 'foreign' ? n.verdict.warning : n.verdict.reason,
        fix: 'delete the file; the next Stop asks for a new one',
      })
    else {
      const cfg = await resolveConfig({ bookmarkHome: deps.bookmarkHome, projectRoot: choice.root, env: deps.env })
      const age = staleness(n.identity.written, n.mtimeMs, nowMs, { warnHours: cfg.config.staleWarnHours, refuseHours: cfg.config.staleRefuseHours })
      const text = `narrative for ${n.identity.repo_path} (branch ${n.identity.branch ?? '?'}), written ${describeAge(age.ageHours)} ago${n.verdict.notes.length ? `; ${n.verdict.notes.join(' ')}` : ''}`
      checks.push(
        age.kind === 'fresh'
          ? { id: 'narrative', status: 'ok', message: text }
          : {
              id: 'narrative',
              status: age.kind === 'refuse' ? 'warn' : 'info',
              message: `${text}: ${age.kind === 'refuse' ? 'too old, restore will not inject it' : 'restore injects it with a warning'}`,
            },
      )
    }
  }

  checks.push(...(await storageChecks(deps.bookmarkHome, 'bookmark home', nowMs)))
  const reg = await readRegistry(deps.bookmarkHome)
  if (reg.problem) checks.push({ id: 'registry', status: 'error', message: `registry unreadable: ${reg.problem}`, fix: 'delete it; captures rebuild it' })
  checks.push(...(await errorsLogCheck(homeLayout(deps.bookmarkHome).errorsLog)))

  const cfg = await resolveConfig({ bookmarkHome: deps.bookmarkHome, ...(home ? {} : { projectRoot: choice.root }), env: deps.env })
  const nonDefault = CONFIG_KEYS.filter((k) => cfg.sources[k] !== 'default').map(
    (k) => `${k}=${cfg.config[k]} (${cfg.sources[k]}${cfg.sources[k] === 'env' ? ` ${KEYS[k].env}` : ''})`,
  )
  checks.push({
    id: 'config',
    status: 'ok',
    message: nonDefault.length ? `config: ${nonDefault.join(', ')}; everything else default` : 'config: all defaults (`bookmark config` lists them)',
  })
  for (const p of cfg.problems) checks.push({ id: 'config', status: 'warn', message: p, fix: '`bookmark config --unset KEY` or fix the file/variable' })
  // Off is a choice, not a fault: an info line, so a user who forgot it sees why nothing is captured.
  const sw = switchState(cfg)
  if (sw.offBy)
    checks.push({
      id: 'capture',
      status: 'info',
      message: `capture is off ${offWhere(sw.offBy).where}: the hooks do nothing and write nothing`,
      fix: offWhere(sw.offBy).fix,
    })
  if (sw.sessionsOff.length)
    checks.push({
      id: 'capture',
      status: 'info',
      message: `capture is off for ${sw.sessionsOff.length === 1 ? 'session' : `${sw.sessionsOff.length} sessions:`} ${sw.sessionsOff.map((s) => s.sessionId).join(', ')}`,
      fix: '`bookmark on --session ID`',
    })

  return { ok: !checks.some((c) => c.status === 'error'), checks }
}
