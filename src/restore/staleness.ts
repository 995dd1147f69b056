/**
 * How old a handoff is, and whether restore should use it, warn about it or refuse it. Pure: the
 * current time and the file's mtime come in as arguments.
 *
 * The `written` time of the identity header wins; the file's mtime is only a fallback, because
 * `touch`, `git checkout` and copies make old content look fresh.
 */

export interface StalenessRules {
  warnHours: number
  refuseHours: number
}

export const DEFAULT_STALENESS: Readonly<StalenessRules> = { warnHours: 24, refuseHours: 72 }

/**
 * `ageHours` is fractional. With basis `unknown` it is negative when the time lies in the future
 * (clock skew) and NaN when there was no time at all.
 */
export type Staleness = { kind: 'fresh' | 'warn' | 'refuse'; ageHours: number; basis: 'header' | 'mtime' | 'unknown' }

/** A time up to this far in the future counts as now (clocks of two machines, a rounding writer). */
export const SKEW_MS = 5 * 60_000

const HOUR_MS = 3_600_000

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i

/**
 * Milliseconds since the epoch of an ISO 8601 date or date-time (`2026-11-29T20:00:00Z`,
 * `2026-11-29 20:00`, `...+01:00`, `2026-11-29`), or undefined. A time without a zone is read as UTC
 * (never as the local zone, so the answer does not depend on the machine). Impossible dates such as
 * February 31 are rejected rather than rolled over.
 */
export function parseTimestamp(text: string): number | undefined {
  const m = ISO.exec(text.trim())
  if (!m) return undefined
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((v) => (v === undefined ? 0 : Number(v))) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined
  const ms = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000)
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms)
  if (new Date(utc).getUTCDate() !== day) return undefined // February 31 and the like
  const zone = m[8]
  if (zone === undefined || zone.toUpperCase() === 'Z') return utc
  const z = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)
  if (!z) return undefined
  const offsetMin = Number(z[2]) * 60 + Number(z[3] ?? 0)
  if (offsetMin > 14 * 60) return undefined
  return utc - (z[1] === '-' ? -1 : 1) * offsetMin * 60_000
}

function classify(ageHours: number, basis: 'header' | 'mtime', rules: StalenessRules): Staleness {
  const kind = ageHours >= rules.refuseHours ? 'refuse' : ageHours >= rules.warnHours ? 'warn' : 'fresh'
  return { kind, ageHours, basis }
}

export function staleness(written: string | undefined, mtimeMs: number | undefined, nowMs: number, rules: StalenessRules): Staleness {
  const header = written === undefined ? undefined : parseTimestamp(written)
  let at: number
  let basis: 'header' | 'mtime'
  if (header !== undefined) {
    at = header
    basis = 'header'
  } else if (mtimeMs !== undefined && Number.isFinite(mtimeMs)) {
    at = mtimeMs
    basis = 'mtime'
  } else {
    return { kind: 'warn', ageHours: Number.NaN, basis: 'unknown' }
  }
  const ageMs = nowMs - at
  if (ageMs < -SKEW_MS) return { kind: 'warn', ageHours: ageMs / HOUR_MS, basis: 'unknown' }
  return classify(Math.max(0, ageMs) / HOUR_MS, basis, rules)
}

function count(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`
}

/**
 * A duration in words, rounded down: "less than a minute", "40 minutes", "1 hour", "47 hours",
 * "2 days". Hours are kept up to 48 so that the 24-hour warning reads "25 hours", not "1 day".
 * Negative durations count as zero; NaN and infinities give "an unknown time".
 */
export function describeAge(hours: number): string {
  if (!Number.isFinite(hours)) return 'an unknown time'
  const minutes = Math.floor(Math.max(0, hours) * 60 + 1e-9)
  if (minutes < 1) return 'less than a minute'
  if (minutes < 60) return count(minutes, 'minute')
  const h = Math.floor(minutes / 60)
  if (h < 48) return count(h, 'hour')
  return count(Math.floor(h / 24), 'day')
}
