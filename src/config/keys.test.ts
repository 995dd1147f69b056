import { describe, expect, it } from 'vitest'
import { CONFIG_KEYS, KEYS, isConfigKey, parseValue } from './keys.js'

describe('the key table', () => {
  it('lists every key once, in table order, with a BOOKMARK_ variable of its own', () => {
    expect(CONFIG_KEYS).toEqual([
      'interval',
      'contextThreshold',
      'contextWindow',
      'narrativeRefreshMinutes',
      'maxNarrativeBlocks',
      'narrativeInHeadless',
      'narrativeRequests',
      'restoreBudget',
      'compactBudget',
      'staleWarnHours',
      'staleRefuseHours',
      'indexCap',
      'registryCap',
      'subagents',
      'disable',
    ])
    const envs = CONFIG_KEYS.map((k) => KEYS[k].env)
    expect(new Set(envs).size).toBe(CONFIG_KEYS.length)
    for (const env of envs) expect(env).toMatch(/^BOOKMARK_[A-Z_]+$/)
  })

  it('has every default inside its own bounds, and valid by its own rule', () => {
    for (const k of CONFIG_KEYS) {
      const spec = KEYS[k]
      expect(spec.min, k).toBeLessThanOrEqual(spec.default)
      expect(spec.default, k).toBeLessThanOrEqual(spec.max)
      expect(parseValue(k, spec.default), k).toEqual({ ok: true, value: spec.default })
    }
  })

  it.each([
    ['interval', 5],
    ['contextThreshold', 0.75],
    ['contextWindow', 0],
    ['narrativeRefreshMinutes', 30],
    ['maxNarrativeBlocks', 1],
    ['narrativeInHeadless', 0],
    ['narrativeRequests', 3],
    ['restoreBudget', 6000],
    ['compactBudget', 2000],
    ['staleWarnHours', 24],
    ['staleRefuseHours', 72],
    ['indexCap', 50],
    ['registryCap', 500],
    ['subagents', 1],
    ['disable', 0],
  ] as const)('defaults %s to %d', (key, value) => {
    expect(KEYS[key].default).toBe(value)
  })
})

describe('isConfigKey', () => {
  it.each(['interval', 'disable', 'restoreBudget'])('knows %s', (k) => {
    expect(isConfigKey(k)).toBe(true)
  })

  // Names every object has through its prototype are not keys: a config file could carry them.
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'Interval', 'BOOKMARK_INTERVAL', ''])('refuses %j', (k) => {
    expect(isConfigKey(k)).toBe(false)
  })
})

describe('parseValue: whole numbers', () => {
  it.each([
    [1, 1],
    [1440, 1440],
    [5, 5],
    ['7', 7],
    [' 12 ', 12],
    ['1e2', 100],
    [60.0, 60],
  ] as const)('interval accepts %j as %d', (raw, value) => {
    expect(parseValue('interval', raw)).toEqual({ ok: true, value })
  })

  it.each([
    [0, 'interval must be from 1 to 1440 minutes, got 0'],
    [1441, 'interval must be from 1 to 1440 minutes, got 1441'],
    [-4, 'interval must be from 1 to 1440 minutes, got -4'],
    ['0', 'interval must be from 1 to 1440 minutes, got 0'],
  ] as const)('interval refuses %j out of bounds: %s', (raw, error) => {
    expect(parseValue('interval', raw)).toEqual({ ok: false, error })
  })

  it.each([
    ['abc', 'interval must be a whole number (minutes) from 1 to 1440, got "abc"'],
    ['', 'interval must be a whole number (minutes) from 1 to 1440, got ""'],
    ['   ', 'interval must be a whole number (minutes) from 1 to 1440, got "   "'],
    [2.5, 'interval must be a whole number (minutes) from 1 to 1440, got 2.5'],
    ['2.5', 'interval must be a whole number (minutes) from 1 to 1440, got "2.5"'],
    ['5 minutes', 'interval must be a whole number (minutes) from 1 to 1440, got "5 minutes"'],
    [null, 'interval must be a whole number (minutes) from 1 to 1440, got null'],
    [true, 'interval must be a whole number (minutes) from 1 to 1440, got true'],
    [[5], 'interval must be a whole number (minutes) from 1 to 1440, got [5]'],
    [{ n: 5 }, 'interval must be a whole number (minutes) from 1 to 1440, got {"n":5}'],
    ['Infinity', 'interval must be a whole number (minutes) from 1 to 1440, got "Infinity"'],
    ['NaN', 'interval must be a whole number (minutes) from 1 to 1440, got "NaN"'],
  ] as const)('interval refuses %j with the expected kind', (raw, error) => {
    expect(parseValue('interval', raw)).toEqual({ ok: false, error })
  })

  it('each error is one line', () => {
    for (const raw of ['x\ny', 0, 'abc', 99999]) {
      const r = parseValue('interval', raw)
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.error).not.toMatch(/\n/)
    }
  })

  it.each([
    ['contextWindow', 0, 10_000_000, 'tokens'],
    ['narrativeRefreshMinutes', 1, 10_080, 'minutes'],
    ['maxNarrativeBlocks', 0, 20, 'blocks'],
    ['narrativeRequests', 1, 100, 'requests'],
    ['restoreBudget', 500, 10_000, 'characters'],
    ['compactBudget', 500, 10_000, 'characters'],
    ['indexCap', 1, 10_000, 'snapshots'],
    ['registryCap', 1, 100_000, 'entries'],
  ] as const)('%s takes %d to %d %s, both ends included', (key, min, max, unit) => {
    expect(parseValue(key, min)).toEqual({ ok: true, value: min })
    expect(parseValue(key, max)).toEqual({ ok: true, value: max })
    expect(parseValue(key, String(max))).toEqual({ ok: true, value: max })
    expect(parseValue(key, min - 1)).toEqual({ ok: false, error: `${key} must be from ${min} to ${max} ${unit}, got ${min - 1}` })
    expect(parseValue(key, max + 1)).toEqual({ ok: false, error: `${key} must be from ${min} to ${max} ${unit}, got ${max + 1}` })
    expect(parseValue(key, min + 0.5)).toEqual({ ok: false, error: `${key} must be a whole number (${unit}) from ${min} to ${max}, got ${min + 0.5}` })
  })
})

describe('parseValue: fractions and hours (not whole numbers)', () => {
  it.each([
    [0.1, 0.1],
    [0.99, 0.99],
    ['0.5', 0.5],
    ['.8', 0.8],
  ] as const)('contextThreshold accepts %j as %d', (raw, value) => {
    expect(parseValue('contextThreshold', raw)).toEqual({ ok: true, value })
  })

  it.each([
    [0.09, 'contextThreshold must be from 0.1 to 0.99 (a fraction), got 0.09'],
    [1, 'contextThreshold must be from 0.1 to 0.99 (a fraction), got 1'],
    ['75%', 'contextThreshold must be a number (fraction) from 0.1 to 0.99, got "75%"'],
    ['0,5', 'contextThreshold must be a number (fraction) from 0.1 to 0.99, got "0,5"'],
  ] as const)('contextThreshold refuses %j: %s', (raw, error) => {
    expect(parseValue('contextThreshold', raw)).toEqual({ ok: false, error })
  })

  it.each(['staleWarnHours', 'staleRefuseHours'] as const)('%s takes fractional hours from 1 to 8760', (key) => {
    expect(parseValue(key, 1.5)).toEqual({ ok: true, value: 1.5 })
    expect(parseValue(key, '0.5')).toEqual({ ok: false, error: `${key} must be from 1 to 8760 hours, got 0.5` })
    expect(parseValue(key, 8760)).toEqual({ ok: true, value: 8760 })
    expect(parseValue(key, 8761)).toEqual({ ok: false, error: `${key} must be from 1 to 8760 hours, got 8761` })
    expect(parseValue(key, 'soon')).toEqual({ ok: false, error: `${key} must be a number (hours) from 1 to 8760, got "soon"` })
  })
})

describe('parseValue: switches', () => {
  it.each(['subagents', 'disable'] as const)('%s reads words, booleans and 0/1', (key) => {
    for (const [raw, value] of [
      ['no', 0],
      ['OFF', 0],
      [' False ', 0],
      ['0', 0],
      [0, 0],
      [false, 0],
      ['yes', 1],
      ['On', 1],
      ['TRUE', 1],
      ['1', 1],
      [1, 1],
      [true, 1],
    ] as const)
      expect(parseValue(key, raw), JSON.stringify(raw)).toEqual({ ok: true, value })
  })

  it.each([
    ['2', 'disable must be 0 or 1 (or on/off, yes/no, true/false), got "2"'],
    [-1, 'disable must be 0 or 1 (or on/off, yes/no, true/false), got -1'],
    ['enabled', 'disable must be 0 or 1 (or on/off, yes/no, true/false), got "enabled"'],
    ['y', 'disable must be 0 or 1 (or on/off, yes/no, true/false), got "y"'],
    [0.5, 'disable must be 0 or 1 (or on/off, yes/no, true/false), got 0.5'],
    [null, 'disable must be 0 or 1 (or on/off, yes/no, true/false), got null'],
  ] as const)('disable refuses %j: %s', (raw, error) => {
    expect(parseValue('disable', raw)).toEqual({ ok: false, error })
  })

  // A 0-or-1 key takes the switch words too: `BOOKMARK_NARRATIVE_IN_HEADLESS=true` must not turn into a warning.
  it('narrativeInHeadless takes 0 and 1 and the switch words', () => {
    expect(parseValue('narrativeInHeadless', '1')).toEqual({ ok: true, value: 1 })
    expect(parseValue('narrativeInHeadless', 0)).toEqual({ ok: true, value: 0 })
    expect(parseValue('narrativeInHeadless', 'true')).toEqual({ ok: true, value: 1 })
    expect(parseValue('narrativeInHeadless', ' Off ')).toEqual({ ok: true, value: 0 })
    expect(parseValue('narrativeInHeadless', true)).toEqual({ ok: true, value: 1 })
    expect(parseValue('narrativeInHeadless', 2)).toEqual({ ok: false, error: 'narrativeInHeadless must be 0 or 1 (or on/off, yes/no, true/false), got 2' })
  })
})
