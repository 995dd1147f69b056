/**
 * The command table of contents. Each action returns what to print; main.ts prints it and decides the
 * exit code.
 */
import { Command, InvalidArgumentError, Option } from 'commander'
import { capture } from '../ops/capture.js'
import type { Deps } from '../ops/context.js'
import { runDemo } from '../ops/demo.js'
import { listAll, listProject, show, status } from '../ops/query.js'
import { TRIGGERS, type Trigger } from '../snapshot/model.js'
import { renderLatest } from '../snapshot/render.js'
import { captureText, demoText, indexText, registryText, statusText } from './output.js'

export interface Io {
  out: (text: string) => void
  deps: Deps
  cwd: string
  version: string
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
    .description('Session continuity for Claude Code: captures each session into .bookmark/ and hands it to the next one.')
    .version(io.version, '-v, --version')
    .showHelpAfterError('(run `bookmark --help` for usage)')

  program
    .command('snapshot')
    .description('capture a session now: read its transcript (only what is new), write a snapshot, LATEST.md and the trail')
    .option('--transcript <path>', 'the session transcript (.jsonl); default: discovered from the project folder')
    .option('--session-id <id>', 'the session to capture (picks its transcript when --transcript is not given)')
    .option('--cwd <dir>', 'the session working directory (default: current directory)')
    .addOption(new Option('--trigger <trigger>', 'why the capture happened').choices(TRIGGERS as string[]).default('manual'))
    .option('--json', 'print the result as JSON')
    .action(async (opts: { transcript?: string; sessionId?: string; cwd?: string; trigger: Trigger; json?: boolean }) => {
      const result = await capture(
        {
          cwd: opts.cwd ?? io.cwd,
          trigger: opts.trigger,
          ...(opts.transcript ? { transcript: opts.transcript } : {}),
          ...(opts.sessionId ? { sessionId: opts.sessionId } : {}),
        },
        io.deps,
      )
      for (const note of result.notes) io.deps.log(note)
      io.out(opts.json ? json({ written: result.written, reason: result.reason, projectRoot: result.projectRoot, sessionId: result.sessionId, transcript: result.transcript, snapshotFile: result.snapshotFile ?? null, snapshotId: result.snapshot?.id ?? null, stats: result.stats, notes: result.notes }) : captureText(result))
    })

  program
    .command('status')
    .description('show the project store: snapshots, the latest one, registry entries')
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
    .command('demo')
    .description('capture the sample session that ships with the package, in a temporary folder, and print what was captured')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { json?: boolean }) => {
      const d = await runDemo(io.deps)
      io.out(opts.json ? json({ folder: d.folder, projectRoot: d.projectRoot, latestPath: d.latestPath, snapshotFile: d.result.snapshotFile ?? null, snapshot: d.result.snapshot ?? null }) : demoText(d))
    })

  return program
}
