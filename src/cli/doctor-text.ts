/** The doctor report for people. */
import type { DoctorReport } from '../doctor/doctor.js'

/** Thrown after printing a report with errors: main turns it into exit code 1 without a message. */
export class DoctorFailed extends Error {
  constructor() {
    super('doctor found problems')
  }
}

const MARK = { ok: '✔', warn: '!', error: '✖', info: '·' } as const

export function doctorText(r: DoctorReport): string {
  const lines = r.checks.map((c) => `${MARK[c.status]} ${c.id.padEnd(11)} ${c.message}${c.fix ? `\n  ${' '.repeat(12)}fix: ${c.fix}` : ''}`)
  const errors = r.checks.filter((c) => c.status === 'error').length
  const warns = r.checks.filter((c) => c.status === 'warn').length
  lines.push('', r.ok ? `All good${warns ? ` (${warns} warning${warns > 1 ? 's' : ''})` : ''}.` : `${errors} problem${errors > 1 ? 's' : ''} to fix.`)
  return lines.join('\n')
}
