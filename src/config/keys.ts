/**
 * Every configuration key: its default, its environment variable, how it is validated and what uses it.
 * Precedence: defaults < ~/.bookmark/config.json < the project's config.json in the bookmark home < environment < flags.
 */
export interface KeySpec {
  default: number
  env: string
  min: number
  max: number
  integer: boolean
  unit: string
  help: string
}

export const KEYS = {
  interval: {
    default: 5,
    env: 'BOOKMARK_INTERVAL',
    min: 1,
    max: 1440,
    integer: true,
    unit: 'minutes',
    help: 'minutes between time-based snapshots taken on a prompt (check hook)',
  },
  contextThreshold: {
    default: 0.75,
    env: 'BOOKMARK_CONTEXT_THRESHOLD',
    min: 0.1,
    max: 0.99,
    integer: false,
    unit: 'fraction',
    help: 'share of the context window at which the check hook asks for a fresh narrative before compaction',
  },
  contextWindow: {
    default: 0,
    env: 'BOOKMARK_CONTEXT_WINDOW',
    min: 0,
    max: 10_000_000,
    integer: true,
    unit: 'tokens',
    help: "the model's context window; 0 = the one Codex records, else from the model name (1M for [1m] models, else 200k)",
  },
  narrativeRefreshMinutes: {
    default: 30,
    env: 'BOOKMARK_NARRATIVE_REFRESH_MINUTES',
    min: 1,
    max: 10_080,
    integer: true,
    unit: 'minutes',
    help: 'further work after which the Stop hook may ask for the narrative again',
  },
  maxNarrativeBlocks: {
    default: 1,
    env: 'BOOKMARK_MAX_NARRATIVE_BLOCKS',
    min: 0,
    max: 20,
    integer: true,
    unit: 'blocks',
    help: 'Stop blocks per session that ask for the narrative before the refresh window re-arms them (0 = never block)',
  },
  narrativeInHeadless: {
    default: 0,
    env: 'BOOKMARK_NARRATIVE_IN_HEADLESS',
    min: 0,
    max: 1,
    integer: true,
    unit: 'switch',
    help: "ask for the narrative in non-interactive runs too (claude -p, SDK); off, because there the request replaces the run's answer",
  },
  narrativeRequests: {
    default: 3,
    env: 'BOOKMARK_NARRATIVE_REQUESTS',
    min: 1,
    max: 100,
    integer: true,
    unit: 'requests',
    help: 'new requests that count as meaningful work even without changed files',
  },
  restoreBudget: {
    default: 6_000,
    env: 'BOOKMARK_RESTORE_BUDGET',
    min: 500,
    max: 10_000,
    integer: true,
    unit: 'characters',
    help: 'most characters restore injects at SessionStart (Claude Code caps hook output at 10,000)',
  },
  compactBudget: {
    default: 2_000,
    env: 'BOOKMARK_COMPACT_BUDGET',
    min: 500,
    max: 10_000,
    integer: true,
    unit: 'characters',
    help: "most characters of the compact resume injected after a compaction, beside Claude Code's own summary",
  },
  staleWarnHours: {
    default: 24,
    env: 'BOOKMARK_STALE_WARN_HOURS',
    min: 1,
    max: 8_760,
    integer: false,
    unit: 'hours',
    help: 'a handoff older than this is injected with a warning',
  },
  staleRefuseHours: {
    default: 72,
    env: 'BOOKMARK_STALE_REFUSE_HOURS',
    min: 1,
    max: 8_760,
    integer: false,
    unit: 'hours',
    help: 'a handoff older than this is not injected',
  },
  indexCap: {
    default: 50,
    env: 'BOOKMARK_INDEX_CAP',
    min: 1,
    max: 10_000,
    integer: true,
    unit: 'snapshots',
    help: 'snapshots kept per project (older snapshot files are deleted)',
  },
  registryCap: {
    default: 500,
    env: 'BOOKMARK_REGISTRY_CAP',
    min: 1,
    max: 100_000,
    integer: true,
    unit: 'entries',
    help: 'entries kept in ~/.bookmark/registry.json',
  },
  // A switch, so `subagents=false` reads as it is meant; on by default, as capture was before the key.
  subagents: {
    default: 1,
    env: 'BOOKMARK_SUBAGENTS',
    min: 0,
    max: 1,
    integer: true,
    unit: 'switch',
    help: "0 = leave subagent activity out of capture (a subagent's files, commands, tools and task updates; the main agent's Task/Agent call stays as one record); 1 = capture it, its files marked [subagent]",
  },
  // A key, not a file of its own: every hook already reads the config files, so the switch costs no read.
  disable: {
    default: 0,
    env: 'BOOKMARK_DISABLE',
    min: 0,
    max: 1,
    integer: true,
    unit: 'switch',
    help: '1 = capture off: every hook exits silently (`bookmark off` / `bookmark on` set it for the project)',
  },
} as const satisfies Record<string, KeySpec>

export type ConfigKey = keyof typeof KEYS
export type Config = { [K in ConfigKey]: number }
export type Source = 'default' | 'global' | 'project' | 'env' | 'flag'

export const CONFIG_KEYS = Object.keys(KEYS) as ConfigKey[]

export function isConfigKey(k: string): k is ConfigKey {
  return Object.prototype.hasOwnProperty.call(KEYS, k)
}

/**
 * A switch written as a word (`BOOKMARK_DISABLE=true`): a kill switch that a spelling turned into a warning
 * and a capture would do the opposite of what was asked. bin/bookmark.cjs spells the same words.
 */
const SWITCH_WORDS = new Map<string, number>([
  ['0', 0],
  ['false', 0],
  ['no', 0],
  ['off', 0],
  ['1', 1],
  ['true', 1],
  ['yes', 1],
  ['on', 1],
])

/** Validates one value; the error says what was expected. */
export function parseValue(key: ConfigKey, raw: unknown): { ok: true; value: number } | { ok: false; error: string } {
  const spec: KeySpec = KEYS[key]
  if (spec.unit === 'switch' && typeof raw === 'string') {
    const word = SWITCH_WORDS.get(raw.trim().toLowerCase())
    if (word !== undefined) return { ok: true, value: word }
  }
  if (spec.unit === 'switch' && typeof raw === 'boolean') return { ok: true, value: raw ? 1 : 0 }
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim()) : Number.NaN
  if (spec.unit === 'switch' && !(n === 0 || n === 1))
    return { ok: false, error: `${key} must be 0 or 1 (or on/off, yes/no, true/false), got ${JSON.stringify(raw)}` }
  const kind = spec.integer ? 'a whole number' : 'a number'
  if (!Number.isFinite(n) || (spec.integer && !Number.isInteger(n)))
    return { ok: false, error: `${key} must be ${kind} (${spec.unit}) from ${spec.min} to ${spec.max}, got ${JSON.stringify(raw)}` }
  const range = spec.unit === 'fraction' ? `from ${spec.min} to ${spec.max} (a fraction)` : `from ${spec.min} to ${spec.max} ${spec.unit}`
  if (n < spec.min || n > spec.max) return { ok: false, error: `${key} must be ${range}, got ${n}` }
  return { ok: true, value: n }
}
