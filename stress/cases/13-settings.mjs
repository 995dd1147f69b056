/**
 * 13. Settings files: the three attacks of the review of `bookmark setup` / `uninstall`, against the built CLI.
 *   links      settings.json as a symlink (dangling, relative, a chain, into a missing folder): setup and
 *              uninstall write through it or refuse; the link itself is never replaced.
 *   concurrent another process saves settings.json while setup or uninstall runs (N rounds, a writer process
 *              saving several times at random moments around the CLI's read and write, in place or by
 *              rename): the writer's last save is never lost.
 *   project    `.claude` or `.claude/settings.local.json` as links out of the project, and a symlinked
 *              ~/.bookmark/backups: `setup --project` / `uninstall --project` refuse and write nothing outside.
 * Guarantees: 0 links replaced, 0 changes lost, 0 writes outside the project, every refusal one line, the file
 * always valid JSON after a run.
 */
import { spawn } from 'node:child_process'
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { pick } from '../lib/env.mjs'
import { Checks } from '../lib/result.mjs'
import { gitProject, rng, sandbox } from '../lib/sandbox.mjs'

export const name = '13 settings'

/** The CLI under test (`ctx.bin`) with a private env; resolves to `{code, stdout, stderr, ms}`. */
function cli(ctx, args, env, cwd) {
  return new Promise((resolve) => {
    const started = Date.now()
    const child = spawn(process.execPath, [ctx.bin, ...args], { env, cwd: cwd ?? env.HOME, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d))
    child.on('error', (e) => (stderr += `spawn error: ${e.message}`))
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }))
  })
}

const oneLine = (r) => r.stderr.trim() !== '' && r.stderr.trim().split('\n').length === 1

/** Every entry under `dir` with what it holds: equal trees mean nothing was written there. */
function tree(dir) {
  const out = {}
  if (!existsSync(dir)) return out
  for (const rel of readdirSync(dir, { recursive: true }).map(String).sort()) {
    const p = join(dir, rel)
    const s = lstatSync(p)
    out[rel] = s.isSymbolicLink() ? `-> ${readlinkSync(p)}` : s.isDirectory() ? '<dir>' : readFileSync(p, 'utf8')
  }
  return JSON.stringify(out)
}

const wiredStop = (path) => {
  try {
    return (
      JSON.parse(readFileSync(path, 'utf8')).hooks?.Stop?.some((g) =>
        g.hooks?.some((h) => /bookmark\.cjs'? stop$/.test([h.command, ...(h.args ?? [])].join(' '))),
      ) === true
    )
  } catch {
    return false
  }
}

// ------------------------------------------------------------------------------------------------ links

async function links(ctx, c) {
  const sb = sandbox('settings-links')
  const claude = sb.env.CLAUDE_CONFIG_DIR
  const settings = join(claude, 'settings.json')
  const dot = join(sb.dir, 'dotfiles')
  // name, link text (relative to ~/.claude), the file it should reach, whether setup must refuse
  const variants = [
    ['dangling, absolute', join(dot, 'a', 'settings.json'), join(dot, 'a', 'settings.json'), false],
    ['dangling, relative', '../../dotfiles/b/settings.json', join(dot, 'b', 'settings.json'), false],
    ['dangling, a chain of two links', join(dot, 'c', 'hop.json'), join(dot, 'c', 'settings.json'), false],
    ['to an existing file', join(dot, 'd', 'settings.json'), join(dot, 'd', 'settings.json'), false],
    ['dangling into a folder that does not exist', join(dot, 'missing', 'settings.json'), join(dot, 'missing', 'settings.json'), true],
  ]
  let replaced = 0
  let runs = 0
  const wrong = []
  for (const [label, text, reaches, refuse] of variants) {
    rmSync(claude, { recursive: true, force: true })
    mkdirSync(claude, { recursive: true })
    if (!refuse) mkdirSync(dirname(reaches), { recursive: true })
    if (label.includes('chain')) symlinkSync('settings.json', join(dot, 'c', 'hop.json'))
    if (label.includes('existing')) writeFileSync(reaches, '{"model": "opus"}\n')
    symlinkSync(text, settings)
    for (const args of [['setup'], ['setup'], ['uninstall']]) {
      const r = await cli(ctx, args, sb.env)
      runs++
      const still = lstatSync(settings, { throwIfNoEntry: false })?.isSymbolicLink() === true && readlinkSync(settings) === text
      if (!still) replaced++
      if (!still) wrong.push(`${label}: \`${args.join(' ')}\` replaced the link`)
      if (refuse) {
        if (args[0] === 'setup' && (r.code !== 1 || !oneLine(r) || !r.stderr.includes('does not exist')))
          wrong.push(`${label}: \`${args.join(' ')}\` exit ${r.code}: ${r.stderr.trim().slice(0, 160)}`)
        if (existsSync(dirname(reaches))) wrong.push(`${label}: created ${dirname(reaches)}`)
      } else if (r.code !== 0) {
        wrong.push(`${label}: \`${args.join(' ')}\` exit ${r.code}: ${r.stderr.trim().slice(0, 160)}`)
      } else if (args[0] === 'setup' && !wiredStop(reaches)) {
        wrong.push(`${label}: the hooks are not in ${reaches}`)
      }
    }
    if (!refuse && label.includes('existing') && readFileSync(reaches, 'utf8') !== '{"model": "opus"}\n')
      wrong.push(`${label}: uninstall did not give the file back as it was`)
    if (!refuse && !label.includes('existing') && existsSync(reaches)) wrong.push(`${label}: uninstall left the file setup created`)
  }
  c.figure('links replaced', replaced)
  c.check(
    'links: a settings.json link is never replaced (dangling, relative, chained, to a file)',
    replaced === 0,
    `${replaced} of ${runs} runs replaced the link`,
  )
  c.check(
    'links: setup writes through the link, refuses a missing folder in one line, uninstall gives back the state before',
    wrong.length === 0,
    wrong.length ? wrong.slice(0, 4).join('; ') : `${variants.length} kinds of links, ${runs} runs`,
  )
  return runs
}

// ------------------------------------------------------------------------------------------- concurrent

/**
 * A writer process that, like Claude Code, reads the settings, sets one key and saves the whole file, in place
 * (truncate, then write) or by rename. It aims at the CLI's window between its read and its write (about a
 * millisecond): it waits for the CLI's lock file (its read follows at once) and saves at the given moments after
 * it (ms, busy-waited).
 * Prints how many saves it made: the value of "saved" the file must hold at the end.
 */
const WRITER = `
const fs = require('node:fs')
const [file, how, limit, ...at] = process.argv.slice(1)
const lock = file + '.bookmark.lock'
const until = Date.now() + Number(limit)
let n = 0
const save = () => {
  let v = {}
  try { v = JSON.parse(fs.readFileSync(file, 'utf8')) } catch {}
  v.saved = ++n
  const text = JSON.stringify(v, null, 2)
  if (how === 'rename') { fs.writeFileSync(file + '.w.tmp', text); fs.renameSync(file + '.w.tmp', file) }
  else fs.writeFileSync(file, text)
}
while (!fs.existsSync(lock) && Date.now() < until) {}
const t0 = performance.now()
for (const ms of at) {
  while (performance.now() - t0 < Number(ms)) {}
  save()
}
process.stdout.write(String(n))
`

/** Saves per round by the writer process, the first as the lock appears, the others within SPREAD ms after it. */
const SAVES = 6
const SPREAD = 3

async function concurrent(ctx, c) {
  const rounds = pick(ctx, 60, 10)
  const sb = sandbox('settings-race')
  const settings = join(sb.env.CLAUDE_CONFIG_DIR, 'settings.json')
  mkdirSync(sb.env.CLAUDE_CONFIG_DIR, { recursive: true })
  const rand = rng(13)
  // How long a run takes here: the writer stops waiting for the lock after four times that.
  writeFileSync(settings, '{"theme": "dark"}\n')
  const probe = [await cli(ctx, ['setup'], sb.env), await cli(ctx, ['uninstall'], sb.env)]
  const span = Math.max(...probe.map((r) => r.ms))
  let lost = 0
  let refused = 0
  let done = 0
  const wrong = []
  for (let i = 0; i < rounds; i++) {
    const command = i % 2 === 0 ? 'setup' : 'uninstall'
    if (command === 'setup') writeFileSync(settings, `{\n  "theme": "dark",\n  "round": ${i}\n}\n`)
    const how = i % 4 < 2 ? 'rename' : 'inplace'
    const at = [0, ...Array.from({ length: SAVES - 1 }, () => (rand() * SPREAD).toFixed(2))].sort((a, b) => a - b)
    const writer = new Promise((resolve) => {
      const w = spawn(process.execPath, ['-e', WRITER, settings, how, String(span * 4), ...at.map(String)], { stdio: ['ignore', 'pipe', 'inherit'] })
      let out = ''
      w.stdout.setEncoding('utf8').on('data', (d) => (out += d))
      w.on('close', () => resolve(Number(out)))
    })
    const [r, lastSaved] = await Promise.all([cli(ctx, [command], sb.env), writer])
    let final
    try {
      final = JSON.parse(readFileSync(settings, 'utf8'))
    } catch (e) {
      wrong.push(`round ${i}: the file is not valid JSON after the run (${e.message})`)
      continue
    }
    if (final.saved !== lastSaved) {
      lost++
      wrong.push(`round ${i} (${command}, ${how}): the writer's save ${lastSaved} is lost (file holds ${final.saved})`)
    }
    if (r.code === 0) done++
    else if (r.code === 1 && oneLine(r)) refused++
    else wrong.push(`round ${i} (${command}): exit ${r.code}: ${r.stderr.trim().slice(0, 160)}`)
    if (command === 'setup' && i + 1 < rounds && !wiredStop(settings)) await cli(ctx, ['setup'], sb.env) // the writer saved over our hooks after setup: wire again for the uninstall round
  }
  c.figure('changes lost', lost)
  c.figure('concurrent rounds', rounds)
  c.check(
    `concurrent: another process saving settings.json during setup/uninstall loses nothing (${rounds} rounds)`,
    lost === 0,
    `${lost} of ${rounds} rounds lost the writer's last save`,
  )
  c.check(
    'concurrent: every run finishes or refuses in one line; the file is always valid JSON',
    wrong.length === lost,
    wrong
      .filter((w) => !w.includes('is lost'))
      .slice(0, 4)
      .join('; ') || `${done} finished, ${refused} refused in one line, a run ~${span} ms`,
  )
  if (refused > 0)
    c.note(
      `${refused} of ${rounds} concurrent runs refused in one line (${SAVES} saves within ${SPREAD} ms of its lock; the file kept changing or did not parse)`,
    )
  return rounds
}

// --------------------------------------------------------------------------------------------- project

async function project(ctx, c) {
  let outsideWrites = 0
  let runs = 0
  const wrong = []
  const plants = [
    ['.claude -> a folder outside', (p, out) => symlinkSync(out, join(p, '.claude'))],
    ['.claude -> a missing folder outside', (p, out) => symlinkSync(join(out, 'missing'), join(p, '.claude'))],
    [".claude -> the project's parent (relative)", (p) => symlinkSync('..', join(p, '.claude'))],
    [
      'settings.local.json -> a file outside',
      (p, out) => (mkdirSync(join(p, '.claude')), symlinkSync(join(out, 'settings.local.json'), join(p, '.claude', 'settings.local.json'))),
    ],
    [
      'settings.local.json -> a missing file outside',
      (p, out) => (mkdirSync(join(p, '.claude')), symlinkSync(join(out, 'new.json'), join(p, '.claude', 'settings.local.json'))),
    ],
    [
      'settings.local.json -> a link inside -> a file outside',
      (p, out) => {
        mkdirSync(join(p, '.claude'))
        symlinkSync(join(out, 'settings.local.json'), join(p, 'hop.json'))
        symlinkSync('../hop.json', join(p, '.claude', 'settings.local.json'))
      },
    ],
  ]
  for (const [label, plant] of plants) {
    for (const args of [
      ['setup', '--project'],
      ['setup', '--project', '--dry-run'],
      ['uninstall', '--project'],
    ]) {
      const sb = sandbox('settings-proj')
      const proj = gitProject(join(sb.dir, 'proj'))
      const out = join(sb.dir, 'outside')
      mkdirSync(out)
      // Already wired outside, so an uninstall that followed the link would edit it.
      writeFileSync(
        join(out, 'settings.local.json'),
        JSON.stringify(
          { model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: process.execPath, args: [ctx.bin, 'stop'], timeout: 60 }] }] } },
          null,
          2,
        ),
      )
      plant(proj, out)
      const watched = [out, sb.dir].map((d) => [d, tree(d)])
      const r = await cli(ctx, args, sb.env, proj)
      runs++
      const changed = watched.filter(([d, before]) => tree(d) !== before).map(([d]) => d)
      if (changed.length > 0) {
        outsideWrites++
        wrong.push(`${label}: \`${args.join(' ')}\` wrote to ${changed[0] === out ? 'the folder outside' : 'the sandbox'}`)
      }
      if (r.code !== 1 || !oneLine(r) || !r.stderr.includes('is a link to'))
        wrong.push(`${label}: \`${args.join(' ')}\` exit ${r.code}: ${r.stderr.trim().slice(0, 160)}`)
    }
  }
  // The backups of project settings never go through a link in ~/.bookmark.
  const sb = sandbox('settings-backup')
  const proj = gitProject(join(sb.dir, 'proj'))
  const out = join(sb.dir, 'outside')
  mkdirSync(out)
  mkdirSync(join(proj, '.claude'))
  writeFileSync(join(proj, '.claude', 'settings.local.json'), '{"model": "opus"}\n')
  mkdirSync(sb.bookmarkHome, { recursive: true })
  symlinkSync(out, join(sb.bookmarkHome, 'backups'))
  const r = await cli(ctx, ['setup', '--project'], sb.env, proj)
  runs++
  if (readdirSync(out).length > 0) {
    outsideWrites++
    wrong.push('~/.bookmark/backups -> outside: a backup was written through the link')
  }
  if (r.code !== 1 || !oneLine(r)) wrong.push(`~/.bookmark/backups -> outside: exit ${r.code}: ${r.stderr.trim().slice(0, 160)}`)
  // A link that stays inside the project is followed.
  const inside = sandbox('settings-inside')
  const p2 = gitProject(join(inside.dir, 'proj'))
  mkdirSync(join(p2, 'config', 'claude'), { recursive: true })
  symlinkSync('config/claude', join(p2, '.claude'))
  const ok = await cli(ctx, ['setup', '--project'], inside.env, p2)
  if (ok.code !== 0 || !wiredStop(join(p2, 'config', 'claude', 'settings.local.json')))
    wrong.push(`a .claude link inside the project: exit ${ok.code}, hooks not written there`)
  c.figure('writes outside the project', outsideWrites)
  c.check(
    'project: links out of the project (.claude, settings.local.json, chains) and a linked backups folder: nothing written outside',
    outsideWrites === 0,
    `${outsideWrites} of ${runs} runs wrote outside`,
  )
  c.check(
    'project: each refused in one line naming the link; a link inside the project is followed',
    wrong.length === outsideWrites,
    wrong
      .filter((w) => !w.includes('wrote'))
      .slice(0, 4)
      .join('; ') || `${plants.length} kinds of links x 3 commands, 1 backups link, 1 inside link`,
  )
  return runs
}

export async function run(ctx) {
  const c = new Checks(name)
  const a = await links(ctx, c)
  const b = await concurrent(ctx, c)
  const d = await project(ctx, c)
  return c.result(
    `${a} runs through settings links, ${b} rounds with a concurrent writer, ${d} runs against links out of a project`,
    'links kept, no change lost, nothing written outside the project, one-line refusals',
  )
}
