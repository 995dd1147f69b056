/**
 * The command table of contents. Each action returns what to print; main.ts prints it and decides the
 * exit code.
 */
import { hostOf } from '../hosts/index.js'
import type { HostId } from '../hosts/host.js'
import { transcriptHost } from './transcript-host.js'
import { resolve } from 'node:path'
import type { Readable } from 'node:stream'
import { Command, InvalidArgumentError, Option } from 'commander'
import { HOOKS, hookBody } from '../hooks/names.js'
import { runHook } from '../hooks/run.js'
import { readStdin } from './stdin.js'
import { type ConfigOptions, configCommand, pointHome } from './admin.js'
import { type SetupHost, setupCommand, uninstallCommand } from '../setup/index.js'
import { serve } from '../mcp/server.js'
import { doctor } from '../doctor/doctor.js'
import { DoctorFailed, doctorText } from './doctor-text.js'
import { capture } from '../capture/capture.js'
import { type Deps, configured } from '../shared/deps.js'
import { runDemo } from '../commands/demo.js'
import { snapshotRefusal, switchCapture, switchText } from '../commands/switch.js'
import { exportHandoff, exportTarget } from '../commands/export.js'
import { listAll, listProject, show, status } from '../commands/query.js'
import { forget, forgetText } from '../commands/forget.js'
import { TRIGGERS, type Trigger } from '../snapshot/model.js'
import { renderLatest } from '../snapshot/render.js'
import { writeText } from '../store/files.js'
import { captureText, demoText, indexText, registryText, statusText } from './output.js'
import { digestNone, recordWrapup, wrapupDigest } from '../memory/wrapup-command.js'
import { digestText, inputFromFlags, parseWrapupInput, wrapupText } from '../memory/wrapup.js'
import { InputError } from '../shared/errors.js'
import { startExplorer } from '../explorer/server.js'
import { openBrowser } from '../explorer/open.js'
import { eventText, getEvent, indexText as memoryIndexText, runIndex } from '../memory/log-commands.js'
import { type SearchFlags, searchCommand } from '../memory/search-cli.js'

export interface Io {
  out: (text: string) => void
  deps: Deps
  cwd: string
  version: string
  stdin: Readable & { isTTY?: boolean }
  /** Set by hook commands: the process exits as soon as their output is written (nothing may hold it). */
  hookRan?: boolean
}

function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError(`expected a positive whole number, got "${value}"`)
  return Number(value)
}

const json = (v: unknown): string => JSON.stringify(v, null, 2)

export function buildProgram(io: Io): Command {
  const program = new Command()
  program
    .name('bookmark')
    .description(
      'Session continuity for AI coding agents (Claude Code, Codex CLI, Gemini CLI): captures each session into .bookmark/ and hands it to the next one.',
    )
    .version(io.version, '-v, --version')
    .showHelpAfterError('(run `bookmark --help` for usage)')

  program
    .command('snapshot')
    .description('capture a session now: read its transcript (only what is new), write a snapshot, LATEST.md and the trail')
    .option('--transcript <path>', "the session transcript (.jsonl); default: the folder's newest session of any host (Claude Code, Codex, Gemini)")
    .option('--session-id <id>', 'the session to capture (picks its transcript when --transcript is not given)')
    .option('--cwd <dir>', 'the session working directory (default: current directory)')
    .addOption(
      new Option(
        '--host <host>',
        'whose transcript it is (default: told from the file itself; without --transcript, whichever host has the newest session)',
      ).choices(['claude', 'codex', 'gemini']),
    )
    .addOption(new Option('--trigger <trigger>', 'why the capture happened').choices(TRIGGERS as string[]).default('manual'))
    .option('--force', 'capture even when capture is off for the project or the session (`bookmark off`)')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { transcript?: string; sessionId?: string; cwd?: string; host?: HostId; trigger: Trigger; force?: boolean; json?: boolean }) => {
      const { deps, resolved, projectRoot } = await configured(io.deps, opts.cwd ?? io.cwd)
      const refused = opts.force ? undefined : snapshotRefusal(resolved, opts.sessionId)
      if (refused) {
        io.out(opts.json ? json({ written: false, reason: refused, projectRoot }) : `No snapshot written: ${refused}.`)
        return
      }
      const found = await transcriptHost(resolve(opts.cwd ?? io.cwd), opts.transcript, opts.host, opts.sessionId, deps.env)
      const { host, sessionId, note } = found
      const transcript = opts.transcript ?? found.transcript
      if (note) io.deps.log(note)
      const result = await capture(
        {
          cwd: opts.cwd ?? io.cwd,
          trigger: opts.trigger,
          ...(host ? { host } : {}),
          ...(transcript ? { transcript } : {}),
          ...(sessionId ? { sessionId } : {}),
        },
        deps,
      )
      for (const note of result.notes) io.deps.log(note)
      io.out(
        opts.json
          ? json({
              written: result.written,
              reason: result.reason,
              projectRoot: result.projectRoot,
              sessionId: result.sessionId,
              transcript: result.transcript,
              snapshotFile: result.snapshotFile ?? null,
              snapshotId: result.snapshot?.id ?? null,
              stats: result.stats,
              notes: result.notes,
            })
          : captureText(result),
      )
    })

  program
    .command('status')
    .description('show the project store: snapshots, the latest one, registry entries, and whether capture is on')
    .option('--cwd <dir>', 'the project folder (default: current directory)')
    .option('--json', 'print as JSON')
    .action(async (opts: { cwd?: string; json?: boolean }) => {
      const s = await status(opts.cwd ?? io.cwd, io.deps)
      io.out(opts.json ? json(s) : statusText(s))
    })

  program
    .command('list')
    .description("list this project's snapshots, newest first (--all: every project's, from the registry)")
    .option('--limit <n>', 'how many to list', positiveInt, 10)
    .option('--all', 'list snapshots of every project from ~/.bookmark/registry.json')
    .option('--cwd <dir>', 'the project folder (default: current directory)')
    .option('--json', 'print as JSON')
    .action(async (opts: { limit: number; all?: boolean; cwd?: string; json?: boolean }) => {
      if (opts.all) {
        const r = await listAll(opts.limit, io.deps)
        io.out(opts.json ? json(r) : registryText(r.entries, r.total))
      } else {
        const r = await listProject(opts.cwd ?? io.cwd, opts.limit, io.deps)
        io.out(opts.json ? json(r) : indexText(r.projectRoot, r.entries, r.total))
      }
    })

  program
    .command('show')
    .description('show a snapshot (default: the latest) as Markdown, or as JSON')
    .argument('[id]', 'snapshot id, as printed by `bookmark list`')
    .option('--latest', 'show the latest snapshot (the default when no id is given)')
    .option('--cwd <dir>', 'the project folder (default: current directory)')
    .option('--json', 'print the snapshot JSON')
    .action(async (id: string | undefined, opts: { latest?: boolean; cwd?: string; json?: boolean }) => {
      const snap = await show(opts.cwd ?? io.cwd, opts.latest ? undefined : id, io.deps)
      io.out(opts.json ? json(snap) : renderLatest(snap).trimEnd())
    })

  program
    .command('forget')
    .description(
      'remove snapshots and all that was derived from them (index, LATEST.md, trail, registry, prepared answers): one snapshot, a session, or all (asks first)',
    )
    .argument('[id]', 'snapshot id, as printed by `bookmark list`')
    .option('--session <id>', 'every snapshot of this session; its capture starts over (its transcript is not touched)')
    .option('--all', "every snapshot of the project, every session's capture state and the handoff bookmark.context.md, after confirmation")
    .option('--keep-handoff', 'with --all: keep the handoff bookmark.context.md')
    .option('--yes', 'confirm --all without asking (for scripts)')
    .option('--cwd <dir>', 'the project folder (default: current directory)')
    .option('--json', 'print the result as JSON')
    .action(async (id: string | undefined, opts: { session?: string; all?: boolean; keepHandoff?: boolean; yes?: boolean; cwd?: string; json?: boolean }) => {
      const r = await forget({ ...opts, ...(id !== undefined ? { id } : {}), cwd: opts.cwd ?? io.cwd }, { deps: io.deps, stdin: io.stdin })
      io.out(opts.json ? json(r) : forgetText(r))
    })

  program
    .command('export')
    .description(
      'write one self-contained Markdown handoff of the project (its sealed narrative and the latest snapshot) to paste into another tool or a ticket',
    )
    .option('--out <file>', 'write it to this file (atomically) instead of stdout')
    .option('--budget <n>', 'cut it to n characters as the restore does (default: nothing is cut)', positiveInt)
    .option('--cwd <dir>', 'the project folder (default: current directory)')
    .option('--json', 'print the result as JSON (the text included when there is no --out)')
    .action(async (opts: { out?: string; budget?: number; cwd?: string; json?: boolean }) => {
      const cwd = opts.cwd ?? io.cwd
      // The target is checked first: a bad --out is one line, and nothing is read for nothing.
      const target = opts.out === undefined ? undefined : await exportTarget(opts.out, io.cwd)
      const e = await exportHandoff(cwd, io.deps, opts.budget)
      if (target === undefined) {
        io.out(opts.json ? json(e) : e.text)
        return
      }
      // Already redacted; durable because the user asked for this file and may close the terminal next.
      await writeText(target, `${e.text}\n`, { redacted: true, durable: true })
      const { text: _text, ...facts } = e
      io.out(
        opts.json
          ? json({ ...facts, out: target })
          : `Wrote the handoff of ${e.projectRoot} (snapshot ${e.snapshotId}${e.narrative ? ', with the narrative' : ''}, ${e.characters} characters) to ${target}.`,
      )
    })

  program
    .command('demo')
    .description(
      'capture the sample session that ships with the package, in a temporary folder, and print what was captured and what the next session would receive',
    )
    .option('--json', 'print the result as JSON')
    .action(async (opts: { json?: boolean }) => {
      const d = await runDemo(io.deps)
      io.out(
        opts.json
          ? json({
              folder: d.folder,
              projectRoot: d.projectRoot,
              latestPath: d.latestPath,
              snapshotFile: d.result.snapshotFile ?? null,
              snapshot: d.result.snapshot ?? null,
            })
          : demoText(d),
      )
    })

  for (const want of ['off', 'on'] as const) {
    program
      .command(want)
      .description(
        want === 'off'
          ? "switch capture off for this project (--session: one session): every hook exits silently and writes nothing; kept in the project's config.json in the bookmark home"
          : 'switch capture back on for this project (--session: one session); the next capture reads what the transcript gained meanwhile',
      )
      .option('--session <id>', `switch ${want} only this session`)
      .option('--cwd <dir>', 'the project folder (default: current directory)')
      .option('--json', 'print the result as JSON')
      .action(async (opts: { session?: string; cwd?: string; json?: boolean }) => {
        const r = await switchCapture(want, opts, io.cwd, io.deps)
        io.out(opts.json ? json(r) : switchText(r))
      })
  }

  program
    .command('index')
    .description(
      'build the search index of past sessions: --backfill reads every transcript of Claude Code ($CLAUDE_CONFIG_DIR/projects) and Codex ($CODEX_HOME/sessions, archived_sessions), resuming where it stopped',
    )
    .option('--backfill', 'read every transcript on this machine (only what is new since the last run)')
    .option('--rebuild', 'build the whole index again from the events log')
    .option('--status', 'say what the index holds, change nothing')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { backfill?: boolean; rebuild?: boolean; status?: boolean; json?: boolean }) => {
      const tty = process.stderr.isTTY === true && opts.json !== true
      const r = await runIndex({ ...opts, ...(tty ? { progress: (line: string) => process.stderr.write(`\r${line}\x1b[K`) } : {}) }, io.deps)
      if (tty && opts.backfill) process.stderr.write('\r\x1b[K')
      io.out(opts.json ? json(r) : memoryIndexText(r))
    })

  program
    .command('search')
    .description(
      'search every past session (requests, replies, commands, file changes, commits, errors …): ranked pointers to transcript lines; use --since or --recent for "latest" questions; inside a project, that project (--all for every one); --project P with no query orients on P',
    )
    .argument('[query...]', 'words, file names, identifiers (none with --project: orientation on the project)')
    .option('--project <name>', 'only this project: its folder name, its repository name (of a worktree), an alias (`config --alias`), or its path')
    .option('--all', 'every project, though run inside one')
    .option('--kind <kinds>', 'only these kinds (comma-separated): request, reply, command, file, tool, commit, error, subagent, compaction, title, wrapup')
    .option('--since <when>', 'only events since then: 7d, 12h, 2w or a date (2025-11-02)')
    .option('--before <when>', 'only events before then: a date or a duration')
    .option('--recent', 'the newest events holding every word, newest first (instead of by relevance)')
    .option('--limit <n>', 'how many hits', positiveInt)
    .option('--json', 'print one JSON array of hits (orientation: one object of sections)')
    .action(async (words: string[], opts: SearchFlags) => {
      await searchCommand(words, opts, io)
    })

  program
    .command('get')
    .description('print one event found by `bookmark search` in full, and where to read more')
    .argument('<id>', 'the event id (12 hex digits)')
    .option('--json', 'print the event as JSON')
    .action(async (id: string, opts: { json?: boolean }) => {
      const e = await getEvent(id, io.deps)
      io.out(opts.json ? json(e) : eventText(e))
    })

  const many = (value: string, previous: string[] = []): string[] => [...previous, value]
  program
    .command('wrapup')
    .description(
      "record an end-of-session milestone in the project's .bookmark/ and the search index: a one-line summary, decisions with why, discoveries, open threads, files and commits; --digest first shows what the session did",
    )
    .option('--digest', 'show what the session did (span, requests, files, commits, open tasks) from its latest snapshot; record nothing')
    .option('--summary <text>', 'one line: what the session achieved')
    .option('--decision <text>', 'a decision and its why, as "what -- why" (repeatable)', many)
    .option('--discovery <text>', 'something learned that the next session should know (repeatable)', many)
    .option('--open <text>', 'an open thread: what is left to do or decide (repeatable)', many)
    .option('--file <path>', 'a file that matters (repeatable)', many)
    .option('--commit <hash>', 'a commit that matters: its hash, optionally followed by its subject (repeatable)', many)
    .option(
      '--stdin',
      'read the wrap-up as one JSON object on stdin: summary, decisions [{decision, why}], discoveries, open_threads, files, commits, session_id',
    )
    .option('--session-id <id>', "the session wrapped up (default: the project's latest snapshot's)")
    .option('--cwd <dir>', 'the project folder (default: current directory)')
    .option('--json', 'print the result as JSON')
    .action(
      async (opts: {
        digest?: boolean
        summary?: string
        decision?: string[]
        discovery?: string[]
        open?: string[]
        file?: string[]
        commit?: string[]
        stdin?: boolean
        sessionId?: string
        cwd?: string
        json?: boolean
      }) => {
        const cwd = opts.cwd ?? io.cwd
        const flags = ['summary', 'decision', 'discovery', 'open', 'file', 'commit'] as const
        const given = flags.filter((f) => opts[f] !== undefined)
        if (opts.digest) {
          if (given.length > 0 || opts.stdin)
            throw new InputError('--digest records nothing: give it alone (with --session-id or --cwd), then record the wrap-up')
          const r = await wrapupDigest(cwd, opts.sessionId, io.deps)
          const prev = r.previous ? `\nThe last wrap-up recorded here (${r.previous.createdAt}): ${r.previous.summary}` : ''
          io.out(opts.json ? json(r) : `${r.digest ? digestText(r.digest) : digestNone(r, opts.sessionId)}${prev}`)
          return
        }
        let input
        if (opts.stdin) {
          if (given.length > 0) throw new InputError(`--stdin takes the whole wrap-up as JSON: drop --${given[0]}`)
          const { text } = await readStdin(0, { timeoutMs: 5_000, maxBytes: 1024 * 1024 })
          let value: unknown
          try {
            value = JSON.parse(text)
          } catch (e) {
            throw new InputError(`--stdin: the input is not JSON (${(e as Error).message})`)
          }
          input = parseWrapupInput(value, 'the wrap-up on stdin')
          if (opts.sessionId !== undefined) input.sessionId = opts.sessionId
        } else {
          if (given.length === 0)
            throw new InputError(
              'wrapup needs --summary (and --decision, --discovery, --open, --file, --commit), or --stdin with JSON; --digest shows the session first',
            )
          input = inputFromFlags(opts)
        }
        const r = await recordWrapup(input, cwd, io.deps)
        io.out(
          opts.json
            ? json(r)
            : `${wrapupText(r.wrapup, r.file)}\n${r.indexed ? `Searchable now: event ${r.eventId} (\`bookmark get ${r.eventId}\`).` : `Not in the search index: ${r.note}`}`,
        )
      },
    )

  program
    .command('explorer')
    .description(
      'a local page (127.0.0.1 only) to look through every project, its sessions, one session’s timeline, and search; stops on Ctrl-C or after 30 minutes unused',
    )
    .option('--port <n>', 'listen on this port (default: a free one)', positiveInt)
    .option('--no-open', 'do not open the browser')
    .option('--print-url', 'print the address only (it is the first line of the output anyway)')
    .action(async (opts: { port?: number; open?: boolean; printUrl?: boolean }) => {
      const ex = await startExplorer({ deps: io.deps, ...(opts.port !== undefined ? { port: opts.port } : {}) })
      io.out(ex.url)
      if (!opts.printUrl) io.deps.log('explorer: open the address above (it works once); Ctrl-C stops it')
      if (opts.open !== false) openBrowser(ex.url)
      const stop = (): void => void ex.close()
      process.once('SIGINT', stop)
      process.once('SIGTERM', stop)
      await ex.closed
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
    })

  program
    .command('mcp')
    .description('serve the bookmark tools over MCP (JSON-RPC on stdio) until stdin closes')
    .addOption(
      new Option('--host <host>', 'the agent that starts the server: whose sessions bookmark_snapshot captures (default: claude)').choices([
        'claude',
        'codex',
        'gemini',
      ]),
    )
    .action(async (opts: { host?: HostId }) => {
      await serve({
        deps: io.deps,
        cwd: io.cwd,
        version: io.version,
        input: io.stdin,
        output: process.stdout,
        log: io.deps.log,
        ...(opts.host ? { host: hostOf(opts.host) } : {}),
      })
    })

  program
    .command('doctor')
    .description('check the installation and the store; every finding with a fix; exit 1 when something is broken')
    .option('--cwd <dir>', 'the project folder (default: current directory)')
    .option('--json', 'print as JSON')
    .action(async (opts: { cwd?: string; json?: boolean }) => {
      const report = await doctor(opts.cwd ?? io.cwd, io.deps)
      io.out(opts.json ? json(report) : doctorText(report))
      if (!report.ok) throw new DoctorFailed()
    })

  for (const hook of HOOKS) {
    program
      .command(hook.name)
      .description(`${hook.description}; reads the ${hook.event} payload on stdin, always exits 0`)
      .option('--cwd <dir>', 'the session working directory (overrides the payload)')
      .option('--transcript <path>', 'the session transcript (overrides the payload)')
      .option('--session-id <id>', 'the session id (overrides the payload)')
      .addOption(new Option('--host <host>', 'the agent that runs the hook (default: claude)').choices(['claude', 'codex', 'gemini']))
      .action(async (opts: { cwd?: string; transcript?: string; sessionId?: string; host?: HostId }) => {
        io.hookRan = true
        const { host, ...flags } = opts
        const run = await runHook(hostOf(host ?? 'claude'), hook.name, hookBody(hook.name), flags, io.deps, () => readStdin(), io.cwd)
        for (const note of run.notes) io.deps.log(note)
        if (run.stdout !== '') io.out(run.stdout)
      })
  }

  program
    .command('point')
    .description('point the home pointer (~/.bookmark/bookmark.context.md) at a project: sessions started outside any project continue it')
    .option('--project <dir>', 'the project (default: the project of the current directory)')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { project?: string; json?: boolean }) => {
      const r = await pointHome(opts.project ?? io.cwd, io.deps)
      io.out(opts.json ? json(r) : `Home pointer now leads to ${r.projectRoot} (${r.pointer}).`)
    })

  program
    .command('setup')
    .description(
      "wire the four hooks into Claude Code's ~/.claude/settings.json (--project: the project's .claude/settings.local.json) and allow the model to write its handoff there (permissions.allow); with --host codex (or when Codex CLI is installed) into $CODEX_HOME/hooks.json, trusted in its config.toml; with --host gemini (or when Gemini CLI is installed) three hooks and the MCP server into ~/.gemini/settings.json; touches nothing else in the files",
    )
    .option('--project', 'write <project>/.claude/settings.local.json instead of the user settings')
    .option('--dry-run', 'print what would change, write nothing')
    .option('--json', 'print the result as JSON')
    .addOption(
      new Option(
        '--hook-form <form>',
        'exec (command + args, Claude Code 2.1.139+) or shell (every version); default: what `claude --version` on PATH understands',
      ).choices(['exec', 'shell']),
    )
    .addOption(
      new Option(
        '--host <host>',
        'claude (~/.claude/settings.json), codex ($CODEX_HOME/hooks.json, trusted in its config.toml) or gemini (~/.gemini/settings.json, hooks and mcpServers); default: Claude Code, and Codex CLI and Gemini CLI when they are installed',
      ).choices(['claude', 'codex', 'gemini']),
    )
    .action(async (opts: { project?: boolean; dryRun?: boolean; json?: boolean; hookForm?: 'exec' | 'shell'; host?: SetupHost }) => {
      io.out(await setupCommand(opts, { cwd: io.cwd, deps: io.deps }))
    })

  program
    .command('uninstall')
    .description('remove exactly the hooks and the permission rule setup added, leaving the settings as they were (--purge: also delete the stored data)')
    .option('--project', "the project's .claude/settings.local.json instead of the user settings")
    .option('--purge', "also delete this project's .bookmark/ and the bookmark home (~/.bookmark), after confirmation")
    .option('--yes', 'confirm --purge without asking (for scripts)')
    .option('--dry-run', 'print what would change, write nothing')
    .option('--json', 'print the result as JSON')
    .addOption(
      new Option(
        '--host <host>',
        "claude (default), codex (Codex CLI's hooks.json and the trust setup added to its config.toml) or gemini (~/.gemini/settings.json: the hooks and the MCP server)",
      ).choices(['claude', 'codex', 'gemini']),
    )
    .action(async (opts: { project?: boolean; purge?: boolean; yes?: boolean; dryRun?: boolean; json?: boolean; host?: SetupHost }) => {
      io.out(await uninstallCommand(opts, { cwd: io.cwd, deps: io.deps, stdin: io.stdin }))
    })

  program
    .command('config')
    .description('show every setting with its value and where it comes from; change them with the options')
    .option('--interval <minutes>', 'set interval (minutes between time-based snapshots)')
    .option('--set <key=value...>', 'set keys')
    .option('--unset <key...>', 'remove keys (back to the lower layer)')
    .option(
      '--alias <name=project...>',
      'a name search --project (and MCP) takes for this project, or for the project path or name after =; kept in ~/.bookmark/config.json',
    )
    .option('--unalias <name...>', 'remove project aliases')
    .option('--project', "write this project's config.json (in its folder of the bookmark home) instead of ~/.bookmark/config.json")
    .option('--cwd <dir>', 'the project folder (default: current directory)')
    .option('--json', 'print as JSON')
    .action(async (opts: ConfigOptions) => {
      io.out(await configCommand(opts, io.cwd, io.deps))
    })

  return program
}
