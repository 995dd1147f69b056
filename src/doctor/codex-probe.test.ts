import { describe, expect, it } from 'vitest'
import { codexHost } from '../hosts/codex/host.js'
import { codexAnswerProblem } from './codex-probe.js'

const j = (v: object): string => JSON.stringify(v)

describe("codexAnswerProblem: Codex 0.171's output schemas", () => {
  it('takes our own answers and an empty one', () => {
    expect(codexAnswerProblem('SessionStart', j(codexHost.inject('restore', 'text')))).toBeUndefined()
    expect(codexAnswerProblem('UserPromptSubmit', j(codexHost.inject('check', 'text')))).toBeUndefined()
    expect(codexAnswerProblem('Stop', j(codexHost.block('write the handoff')))).toBeUndefined()
    expect(codexAnswerProblem('PreCompact', '\n')).toBeUndefined()
  })

  it.each([
    [
      'Stop',
      { decision: 'block', reason: 'r', hookSpecificOutput: { hookEventName: 'Stop' } },
      "answered with hookSpecificOutput, which Codex's Stop schema does not allow",
    ],
    ['PreCompact', { decision: 'block', reason: 'r' }, "answered with decision, reason, which Codex's PreCompact schema does not allow"],
    ['Stop', { decision: 'approve', reason: 'r' }, 'answered decision "approve" without the "block" and reason Codex needs'],
    [
      'SessionStart',
      { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'x' } },
      "a hookSpecificOutput Codex's SessionStart schema does not take",
    ],
    ['SessionStart', { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'x'.repeat(10_001) } }, 'gave 10001 characters of context'],
  ] as const)('%s %j is refused', (event, answer, why) => {
    expect(codexAnswerProblem(event, j(answer))).toContain(why)
  })
})
