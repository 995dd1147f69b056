import { describe, expect, it } from 'vitest'
import { DEFAULT_STALENESS, type Staleness, describeAge, parseTimestamp, staleness } from './staleness.js'

const NOW = Date.parse('2026-12-01T12:00:00Z')
const H = 3_600_000
const iso = (ms: number): string => new Date(ms).toISOString()
const hoursAgo = (h: number): string => iso(NOW - h * H)

describe('staleness with the default rules (24 h warn, 72 h refuse)', () => {
  const rows: Array<{ name: string; written?: string; mtime?: number; want: Staleness }> = [
    // the five ages the spec names
    { name: 'header 0 h', written: hoursAgo(0), want: { kind: 'fresh', ageHours: 0, basis: 'header' } },
    { name: 'header 23 h', written: hoursAgo(23), want: { kind: 'fresh', ageHours: 23, basis: 'header' } },
    { name: 'header 25 h', written: hoursAgo(25), want: { kind: 'warn', ageHours: 25, basis: 'header' } },
    { name: 'header 71 h', written: hoursAgo(71), want: { kind: 'warn', ageHours: 71, basis: 'header' } },
    { name: 'header 73 h', written: hoursAgo(73), want: { kind: 'refuse', ageHours: 73, basis: 'header' } },
    // boundaries
    { name: 'one ms under 24 h is fresh', written: iso(NOW - 24 * H + 1), want: { kind: 'fresh', ageHours: (24 * H - 1) / H, basis: 'header' } },
    { name: 'exactly 24 h warns', written: hoursAgo(24), want: { kind: 'warn', ageHours: 24, basis: 'header' } },
    { name: 'one ms under 72 h warns', written: iso(NOW - 72 * H + 1), want: { kind: 'warn', ageHours: (72 * H - 1) / H, basis: 'header' } },
    { name: 'exactly 72 h refuses', written: hoursAgo(72), want: { kind: 'refuse', ageHours: 72, basis: 'header' } },
    { name: 'a year old', written: hoursAgo(24 * 365), want: { kind: 'refuse', ageHours: 24 * 365, basis: 'header' } },
    // the header wins over the mtime
    { name: 'old header, fresh mtime (touched): refuse', written: hoursAgo(100), mtime: NOW, want: { kind: 'refuse', ageHours: 100, basis: 'header' } },
    { name: 'fresh header, old mtime: fresh', written: hoursAgo(1), mtime: NOW - 100 * H, want: { kind: 'fresh', ageHours: 1, basis: 'header' } },
    { name: 'header with offset and no seconds', written: '2026-12-01T13:00+01:00', want: { kind: 'fresh', ageHours: 0, basis: 'header' } },
    { name: 'header without zone is UTC', written: '2026-12-01 09:00', want: { kind: 'fresh', ageHours: 3, basis: 'header' } },
    // mtime fallback
    { name: 'no header: mtime 0 h', mtime: NOW, want: { kind: 'fresh', ageHours: 0, basis: 'mtime' } },
    { name: 'no header: mtime 23 h', mtime: NOW - 23 * H, want: { kind: 'fresh', ageHours: 23, basis: 'mtime' } },
    { name: 'no header: mtime 25 h', mtime: NOW - 25 * H, want: { kind: 'warn', ageHours: 25, basis: 'mtime' } },
    { name: 'no header: mtime 73 h', mtime: NOW - 73 * H, want: { kind: 'refuse', ageHours: 73, basis: 'mtime' } },
    { name: 'unparseable header falls back to mtime', written: 'last tuesday', mtime: NOW - 30 * H, want: { kind: 'warn', ageHours: 30, basis: 'mtime' } },
    // skew and unknown
    { name: '5 minutes in the future is skew: now', written: iso(NOW + 5 * 60_000), want: { kind: 'fresh', ageHours: 0, basis: 'header' } },
    {
      name: 'beyond 5 minutes in the future: unknown, warn',
      written: iso(NOW + 5 * 60_000 + 1),
      want: { kind: 'warn', ageHours: -(5 * 60_000 + 1) / H, basis: 'unknown' },
    },
    {
      name: 'header a day in the future: unknown even with an mtime',
      written: hoursAgo(-24),
      mtime: NOW - H,
      want: { kind: 'warn', ageHours: -24, basis: 'unknown' },
    },
    { name: 'mtime in the future: unknown', mtime: NOW + 2 * H, want: { kind: 'warn', ageHours: -2, basis: 'unknown' } },
    { name: 'neither: unknown, warn', want: { kind: 'warn', ageHours: Number.NaN, basis: 'unknown' } },
    { name: 'NaN mtime counts as none', mtime: Number.NaN, want: { kind: 'warn', ageHours: Number.NaN, basis: 'unknown' } },
  ]
  it.each(rows)('$name', (row) => {
    expect(staleness(row.written, row.mtime, NOW, DEFAULT_STALENESS)).toEqual(row.want)
  })

  it('uses the rules it is given', () => {
    expect(staleness(hoursAgo(2), undefined, NOW, { warnHours: 1, refuseHours: 3 }).kind).toBe('warn')
    expect(staleness(hoursAgo(3), undefined, NOW, { warnHours: 1, refuseHours: 3 }).kind).toBe('refuse')
  })
})

describe('parseTimestamp', () => {
  const rows: Array<[string, number | undefined]> = [
    ['2026-11-29T20:00:00Z', Date.UTC(2026, 10, 29, 20)],
    ['2026-11-29T20:00:00.250Z', Date.UTC(2026, 10, 29, 20, 0, 0, 250)],
    ['2026-11-29t20:00:00z', Date.UTC(2026, 10, 29, 20)],
    ['2026-11-29T20:00:00-0330', Date.UTC(2026, 10, 29, 23, 30)],
    ['2026-11-29T20:00:00+05', Date.UTC(2026, 10, 29, 15)],
    ['2026-11-29', Date.UTC(2026, 10, 29)],
    [' 2026-11-29 20:00 ', Date.UTC(2026, 10, 29, 20)],
    ['2028-02-29T00:00:00Z', Date.UTC(2028, 1, 29)],
    ['2026-02-29T00:00:00Z', undefined],
    ['2026-13-01T00:00:00Z', undefined],
    ['2026-11-29T24:00:00Z', undefined],
    ['2026-11-29T20:00:00+15:00', undefined],
    ['Sun, 29 Nov 2026 20:00:00 GMT', undefined],
    ['1', undefined],
    ['', undefined],
  ]
  it.each(rows)('%j', (text, want) => {
    expect(parseTimestamp(text)).toBe(want)
  })
})

describe('describeAge', () => {
  const rows: Array<[number, string]> = [
    [0, 'less than a minute'],
    [0.5 / 60, 'less than a minute'],
    [1 / 60, '1 minute'],
    [40 / 60, '40 minutes'],
    [59.9 / 60, '59 minutes'],
    [1, '1 hour'],
    [3, '3 hours'],
    [23.99, '23 hours'],
    [25, '25 hours'],
    [47.9, '47 hours'],
    [48, '2 days'],
    [73, '3 days'],
    [24 * 365, '365 days'],
    [-2, 'less than a minute'],
    [Number.NaN, 'an unknown time'],
    [Number.POSITIVE_INFINITY, 'an unknown time'],
  ]
  it.each(rows)('%d hours -> %s', (hours, want) => {
    expect(describeAge(hours)).toBe(want)
  })
})
