/**
 * A case's result: named checks (PASS / FAIL / SKIPPED), the figures measured, and the one line it prints:
 *   <case> | load: ... | checked: ... | PASS|FAIL|SKIPPED [FAILING: check, check] (<seconds> s)
 */

export class Checks {
  constructor(caseName) {
    this.caseName = caseName
    this.list = []
    this.figures = {}
    this.notes = []
    this.started = Date.now()
  }

  /** A check: `ok` true passes; `info` says what was measured (and, on failure, the evidence). */
  check(name, ok, info = '') {
    this.list.push({ name, status: ok ? 'PASS' : 'FAIL', info })
    return ok
  }

  skip(name, reason) {
    this.list.push({ name, status: 'SKIPPED', info: reason })
  }

  figure(key, value) {
    this.figures[key] = value
  }

  note(text) {
    this.notes.push(text)
  }

  failing() {
    return this.list.filter((c) => c.status === 'FAIL')
  }

  /** The case's result object: `{case, load, checked, result, details}`. */
  result(load, checked) {
    const failing = this.failing()
    const ran = this.list.filter((c) => c.status !== 'SKIPPED')
    const result = failing.length > 0 ? 'FAIL' : ran.length === 0 ? 'SKIPPED' : 'PASS'
    return {
      case: this.caseName,
      load,
      checked,
      result,
      details: {
        seconds: Math.round((Date.now() - this.started) / 100) / 10,
        checks: this.list,
        failing: failing.map((c) => c.name),
        skipped: this.list.filter((c) => c.status === 'SKIPPED').map((c) => `${c.name}: ${c.info}`),
        figures: this.figures,
        notes: this.notes,
      },
    }
  }
}

export function line(r) {
  const tail =
    r.result === 'FAIL'
      ? ` FAILING: ${r.details.failing.join('; ')}`
      : r.details.skipped.length > 0
        ? ` (skipped: ${r.details.skipped.map((s) => s.split(':')[0]).join('; ')})`
        : ''
  return `${r.case} | load: ${r.load} | checked: ${r.checked} | ${r.result}${tail} (${r.details.seconds} s)`
}

/** Indented detail lines of one case: every check with its measurement (and the evidence of failures). */
export function detailLines(r) {
  const out = []
  for (const c of r.details.checks) out.push(`    ${c.status.padEnd(7)} ${c.name}${c.info ? `: ${c.info}` : ''}`)
  for (const n of r.details.notes) out.push(`    note    ${n}`)
  return out
}

/** A failure inside a case that was not one of its checks (a bug in the harness or a crash of the case). */
export function crashed(caseName, error, load = '-', checked = '-') {
  const c = new Checks(caseName)
  c.check('case ran to completion', false, String(error && error.stack ? error.stack.split('\n').slice(0, 4).join(' / ') : error))
  return c.result(load, checked)
}
