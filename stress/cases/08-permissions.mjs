/**
 * 8. Permissions: a mixed run (snapshot, every hook, a Stop block, a compact resume, config in both places,
 * clear, a logged failure in the project and in the home, MCP when present) under umask 000 and 022, then a
 * walk of both stores.
 * Guarantees: ~/.bookmark and .bookmark/ and every folder in them are 0700; every file in them is 0600.
 */
import { mkdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { lines, writeTranscript } from '../lib/gen.mjs'
import { Checks } from '../lib/result.mjs'
import { gitProject, runCli, sandbox } from '../lib/sandbox.mjs'
import { walk } from '../lib/store.mjs'

export const name = '8 permissions'

async function mixedRun(umask) {
  const sb = sandbox(`perm${umask}`)
  const project = gitProject(join(sb.dir, 'proj'))
  const env = { ...sb.env, CLAUDE_PROJECT_DIR: project }
  const sid = 'perm0000-0000-4000-8000-000000000000'
  const t = join(sb.dir, `${sid}.jsonl`)
  const g = lines(sid, project)
  writeTranscript(t, [
    ...g.turn(1, 'src/a.ts'),
    ...g.turn(2, 'src/b.ts'),
    g.prompt('one more request about the exporter'),
    g.prompt('and another one about its tests'),
  ])
  const run = (args, stdin, cwd = project) => runCli(args, { env, cwd, stdin, umask, timeoutMs: 30_000 })
  const p = (extra) => JSON.stringify({ session_id: sid, transcript_path: t, cwd: project, ...extra })
  await run(['snapshot', '--transcript', t, '--cwd', project, '--json'])
  await run(['stop'], p({ stop_hook_active: false, last_assistant_message: 'done' }))
  await run(['precompact'], p({ trigger: 'manual' }))
  await run(['check'], p({ prompt: 'go on' }))
  await run(['restore'], p({ source: 'compact' }))
  await run(['config', '--set', 'interval=10'])
  await run(['config', '--project', '--set', 'restoreBudget=5000'])
  await run(['clear', '--project', project])
  await run(['stop'], p({ transcript_path: join(sb.dir, 'missing.jsonl') })) // logged in .bookmark/errors.log
  // a failure where the project has no store yet: logged in ~/.bookmark/errors.log
  const bare = join(sb.dir, 'bare')
  mkdirSync(bare)
  await run(['stop'], JSON.stringify({ session_id: 'x', transcript_path: join(sb.dir, 'missing.jsonl'), cwd: bare }), bare)
  await run(['restore'], JSON.stringify({ session_id: 'h', cwd: sb.home, source: 'startup' }), sb.home)
  await run(['doctor', '--json', '--cwd', project])
  return { sb, project }
}

export async function run() {
  const c = new Checks(name)
  let entries = 0
  for (const umask of ['000', '022']) {
    const { sb, project } = await mixedRun(umask)
    const wrong = []
    const kinds = new Set()
    for (const [label, dir] of [
      ['~/.bookmark', sb.bookmarkHome],
      ['.bookmark', join(project, '.bookmark')],
    ]) {
      const all = walk(dir)
      if (all.length === 0) wrong.push(`${label} was not created`)
      for (const e of all) {
        entries++
        const want = e.isDir ? 0o700 : 0o600
        kinds.add(e.rel.replace(/[0-9a-z]{8}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{12}|SNAP_\w+/g, '*'))
        if (e.isSymlink) wrong.push(`${label}/${e.rel} is a symlink`)
        else if (e.mode !== want) wrong.push(`${label}/${e.rel} is ${e.mode.toString(8).padStart(4, '0')} (want ${want.toString(8).padStart(4, '0')})`)
      }
    }
    c.check(
      `umask ${umask}: ~/.bookmark and .bookmark/ 0700, every folder 0700, every file 0600`,
      wrong.length === 0,
      wrong.length
        ? wrong.slice(0, 6).join(', ')
        : `${kinds.size} kinds of entries (${[...kinds]
            .filter((k) => k !== '.')
            .slice(0, 30)
            .join(', ')})`,
    )
  }
  // A ~/.bookmark that someone else created 0755 before the first capture: reported, not failed.
  const sb = sandbox('perm-pre')
  mkdirSync(sb.bookmarkHome, { mode: 0o755 })
  const project = gitProject(join(sb.dir, 'proj'))
  const t = join(sb.dir, 's.jsonl')
  writeTranscript(t, lines('s', project).turn(1, 'src/a.ts'))
  await runCli(['snapshot', '--transcript', t, '--cwd', project], { env: sb.env, cwd: project, timeoutMs: 30_000 })
  const mode = statSync(sb.bookmarkHome).mode & 0o777
  c.note(`a ~/.bookmark created 0755 beforehand stays ${mode.toString(8)} after a capture (its files are 0600)`)
  return c.result(
    `mixed run (snapshot, 4 hooks, block, compact, config x2, clear, logged failures, doctor) under umask 000 and 022; ${entries} entries walked`,
    '~/.bookmark and .bookmark/ 0700, folders 0700, files 0600',
  )
}
