import { describe, expect, it } from 'vitest'
import { makeWrapup, parseWrapupInput, wrapupEvent, wrapupSummary } from './wrapup.js'

const at = { id: 'WRAP_20261202_100000_000_abcd', createdAt: '2026-12-02T10:00:00.000Z', project: '/w/gearworks', session: 'cafe0001' }

describe('wrapupSummary', () => {
  it("is the event's summary, and for an event logged without one the start of its text", () => {
    const w = makeWrapup(
      parseWrapupInput({
        summary: 'Flywheel damping tuned. Files: none moved yet',
        decisions: [{ decision: 'damp at 0.3', why: 'the bench oscillated at 0.2' }],
        files: ['src/flywheel.ts'],
      }),
      at,
    )
    const e = wrapupEvent(w, '/w/gearworks/.bookmark/wrapups/WRAP_20261202_100000_000_abcd.json')
    expect(e.summary).toBe('Flywheel damping tuned. Files: none moved yet')
    expect(wrapupSummary(e)).toBe('Flywheel damping tuned. Files: none moved yet')
    // An older event has only its text, whose parts follow the summary: the summary is what comes before them
    // (a summary that itself holds ". Files: " is cut there; the field above has it whole).
    const { summary: _s, ...older } = e
    expect(older.text).toBe(
      'Wrap-up: Flywheel damping tuned. Files: none moved yet. Decisions: damp at 0.3 (why: the bench oscillated at 0.2). Files: src/flywheel.ts',
    )
    expect(wrapupSummary(older)).toBe('Flywheel damping tuned')
    expect(wrapupSummary({ text: 'Wrap-up: Sprockets checked. Open threads: the chain. Commits: abc1234' })).toBe('Sprockets checked')
    expect(wrapupSummary({ text: 'Wrap-up: Only a summary' })).toBe('Only a summary')
  })
})
