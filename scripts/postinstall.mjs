#!/usr/bin/env node
// After `npm install -g session-bookmark`: wire the Claude Code hooks with `bookmark setup`, as a
// convenience only. `bookmark setup` is the documented way (npm may skip install scripts). This
// script never fails the install: whatever happens it prints one line and exits 0. Skipped in CI,
// for a local (non-global) install, and with BOOKMARK_SKIP_SETUP=1.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const say = (line) => {
  try {
    process.stdout.write(`session-bookmark: ${line}\n`)
  } catch {
    // nothing to do: the install must go on
  }
}

const firstLine = (text) =>
  String(text ?? '')
    .split('\n')
    .map((l) => l.replace(/^bookmark: /, '').trim())
    .find((l) => l !== '') ?? ''

function run() {
  const env = process.env
  if (env.BOOKMARK_SKIP_SETUP === '1') return say('skipped hook setup (BOOKMARK_SKIP_SETUP=1); run `bookmark setup` to wire the Claude Code hooks')
  if (env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0')
    return say('skipped hook setup (CI is set); run `bookmark setup` to wire the Claude Code hooks')
  if (env.npm_config_global !== 'true') return say('skipped hook setup (not a global install); run `npx bookmark setup` to wire the Claude Code hooks')
  const root = join(dirname(fileURLToPath(import.meta.url)), '..')
  const bin = join(root, 'bin', 'bookmark.cjs')
  if (!existsSync(join(root, 'dist', 'cli', 'bookmark.cjs')) || !existsSync(bin))
    return say('skipped hook setup (the package is not built: dist/ is missing); run `bookmark setup` once it is')
  const r = spawnSync(process.execPath, [bin, 'setup'], { env, encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true })
  if (r.error) return say(`hooks not wired (${r.error.message}); run \`bookmark setup\``)
  if (r.status !== 0) return say(`hooks not wired: ${firstLine(r.stderr) || `setup exited with ${r.status ?? r.signal}`}; fix that and run \`bookmark setup\``)
  return say(firstLine(r.stdout) || 'bookmark setup ran')
}

try {
  run()
} catch (e) {
  say(`hooks not wired (${e instanceof Error ? e.message : String(e)}); run \`bookmark setup\``)
}
process.exitCode = 0
