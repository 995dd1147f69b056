/**
 * `bookmark doctor --json` prints `{ok, checks: [{id, status, message, fix}]}`. Older builds have no
 * doctor: the checks that need it are SKIPPED with that reason, never passed.
 */
import { runCli } from './sandbox.mjs'

export async function runDoctor(env, cwd) {
  const r = await runCli(['doctor', '--json', '--cwd', cwd], { env, cwd, timeoutMs: 30_000 })
  if (/unknown command 'doctor'|error: unknown command/i.test(r.stderr)) return { available: false, reason: 'this build has no `bookmark doctor` command' }
  try {
    const report = JSON.parse(r.stdout)
    if (!report || !Array.isArray(report.checks)) return { available: false, reason: `doctor printed no report (exit ${r.code})` }
    return { available: true, code: r.code, report, text: report.checks.map((c) => `${c.status} ${c.id}: ${c.message}`).join('\n') }
  } catch {
    return { available: false, reason: `doctor --json did not print JSON (exit ${r.code}; stderr: ${r.stderr.trim().split('\n')[0]?.slice(0, 160)})` }
  }
}
