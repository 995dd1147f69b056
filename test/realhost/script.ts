/**
 * What every real-host scenario asks of the scripted model: a reply that first checks the previous tool calls
 * succeeded, and, after a run, that the script was used up with no failed or unscripted request.
 */
import { expect } from 'vitest'
import { type FakeAnthropic, type RecordedRequest, type Reply, lastToolResults } from './fake-anthropic.js'

/** `next`, once the tool calls of the previous reply all succeeded (else the fake answers 500 and the run fails). */
export function afterOk(next: Reply | ((req: RecordedRequest) => Reply)): (req: RecordedRequest) => Reply {
  return (req) => {
    const failed = lastToolResults(req.body!).filter((r) => r.isError)
    if (failed.length > 0) throw new Error(`a tool call failed: ${failed.map((f) => f.text).join(' | ')}`)
    return typeof next === 'function' ? next(req) : next
  }
}

/** No request since `since` failed or went unscripted, and every scripted reply was used. */
export function expectScriptDone(fake: FakeAnthropic, since: number): void {
  expect(
    fake
      .problems()
      .filter((p) => p.seq > since)
      .map((p) => `${p.seq} ${p.kind} ${p.failure ?? (p.unscripted ? 'unscripted request' : `status ${p.status}`)}`),
  ).toEqual([])
  expect(fake.pending()).toBe(0)
}
