/**
 * The capture switch as people read it (status, doctor, off/on, snapshot): which layer turned capture off and
 * what turns it on again. Pure; the hooks only need captureOff (resolve.ts).
 */
import type { Source } from './keys.js'
import { type Resolved, captureOff } from './resolve.js'

export interface SwitchState {
  /** False when the hooks of this project do nothing (sessions switched off aside). */
  on: boolean
  /** The layer that switched it off: `project` (bookmark off), `global` (~/.bookmark/config.json), `env` (BOOKMARK_DISABLE). */
  offBy: Source | null
  /** Sessions switched off one by one, with when. */
  sessionsOff: { sessionId: string; since: string }[]
}

export function switchState(r: Resolved): SwitchState {
  const offBy = captureOff(r, undefined) ?? null
  return {
    on: offBy === null,
    offBy: offBy === 'session' ? null : offBy,
    sessionsOff: Object.entries(r.sessionsOff).map(([sessionId, since]) => ({ sessionId, since })),
  }
}

/** Where an off switch was set, and what turns it on again: for the lines of off, status, doctor and snapshot. */
export function offWhere(by: Source | 'session'): { where: string; fix: string } {
  switch (by) {
    case 'env':
      return { where: 'for this run (BOOKMARK_DISABLE in the environment)', fix: 'unset BOOKMARK_DISABLE' }
    case 'global':
      return { where: 'for every project (disable=1 in the global config.json)', fix: '`bookmark config --unset disable`' }
    case 'session':
      return { where: 'for this session', fix: '`bookmark on --session ID`' }
    default:
      return { where: 'for this project', fix: '`bookmark on`' }
  }
}

/** One line: where capture is off and how to turn it on. */
export function offLine(by: Source | 'session'): string {
  const w = offWhere(by)
  return `capture is off ${w.where}; ${w.fix} turns it on`
}
