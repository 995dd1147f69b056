/**
 * The startup restore's conversation facts (issue 18): how the session ended, its goal next to the latest request,
 * the next step lifted from the last reply, the user's decisions, the reply's head and tail, and the budget order.
 */
import { describe, expect, it } from 'vitest'
import { BASE, RICH, files, prompts, requests, snap } from '../../test/helpers/restore.js'
import { RECORDED_NOTE, endingLine, renderStartup, sameText } from './render.js'

const lines = (t: string) => t.split('\n')
const section = (text: string, title: string): string | undefined => {
  const at = text.indexOf(`## ${title}\n\n`)
  if (at === -1) return undefined
  const body = text.slice(at).split('\n\n')[1]!
  return body.replace(/^```recorded\n/, '').replace(/\n```$/, '')
}

describe('the opening line: how the last session ended', () => {
  it.each([
    [{ state: 'waiting' }, "How the last session ended: waiting for the user's answer."],
    [{ state: 'interrupted' }, 'How the last session ended: interrupted by the user.'],
    [
      { state: 'api-error', detail: 'API Error: 401 OAuth token has expired' },
      'How the last session ended: on an API error: `API Error: 401 OAuth token has expired`.',
    ],
    [{ state: 'committed', detail: '1a2b3c4' }, 'How the last session ended: committed 1a2b3c4.'],
    [{ state: 'committed' }, 'How the last session ended: committed.'],
    [{ state: 'mid-work' }, 'How the last session ended: mid-work.'],
    [{ state: 'replied' }, 'How the last session ended: after a reply, with no work open.'],
  ] as const)('%j', (ending, line) => {
    const text = renderStartup({ ...BASE, snapshot: snap({ ending }), warnings: ['A warning.'] })
    const head = lines(text)
    expect(head[4]).toBe(line)
    expect(head[3]).toBe(RECORDED_NOTE)
    expect(head[5]).toBe('- A warning.')
  })

  it('takes facts after `; `, and keeps a recorded error on its line in a code span', () => {
    expect(endingLine({ state: 'mid-work' }, ['3 changed files not committed'])).toBe('How the last session ended: mid-work; 3 changed files not committed.')
    expect(endingLine({ state: 'api-error', detail: 'x\n<system-reminder>`y`' })).toBe("How the last session ended: on an API error: `x ‹system-reminder>'y'`.")
  })

  it('is absent for a snapshot written before it was kept', () => {
    expect(renderStartup({ ...BASE, snapshot: RICH })).not.toContain('How the last session ended')
  })
})

describe('the goal and the latest request', () => {
  it('both, goal first, each in its fence', () => {
    const s = snap({
      goal: { text: 'Add CSV export to the notes list', source: 'request' },
      task: 'address the new review comments',
      requests: requests('Add CSV export to the notes list', 'address the new review comments'),
    })
    const text = renderStartup({ ...BASE, snapshot: s })
    expect(text).toContain(
      "## The goal, in the user's words\n\n```recorded\nAdd CSV export to the notes list\n```\n\n## Latest request\n\n```recorded\naddress the new review comments\n```",
    )
  })

  it('a long paste that is both goal and latest request is shown once', () => {
    const trace = `TypeError: cannot read properties of undefined\n${'    at parse (src/parse.ts:10:5)\n'.repeat(200)}`
    // The goal is kept to 2,000 characters, the latest request to 8,000: a cut of the same text.
    const s = snap({ goal: { text: `${trace.slice(0, 1_999)}…`, source: 'request' }, task: trace.slice(0, 8_000), requests: requests(trace.slice(0, 8_000)) })
    const text = renderStartup({ ...BASE, snapshot: s })
    expect(text).not.toContain('The goal')
    expect(text.split('TypeError: cannot read').length).toBe(2)
    expect(sameText('Fix the parser', 'fix   the PARSER')).toBe(true)
    expect(sameText('fix the bug', 'fix the bug in the exporter too')).toBe(false)
  })

  it('the plan the user approved, and requests from the team lead, say so in their titles', () => {
    const plan = renderStartup({
      ...BASE,
      snapshot: snap({ goal: { text: '# Faster dashboard', source: 'plan' }, task: 'go on', requests: requests('go on') }),
    })
    expect(plan).toContain("## The goal, in the user's words (the plan they approved)\n\n```recorded\n# Faster dashboard\n```")
    const all = prompts('Claim task #5 and run the play-test').map((p) => ({ ...p, from: 'team-lead' as const }))
    const lead = renderStartup({
      ...BASE,
      snapshot: snap({ task: 'Claim task #5 and run the play-test', requests: { count: 1, dropped: 0, all, recent: all } }),
    })
    expect(lead).toContain('## Latest request (from the team lead)\n\n```recorded\nClaim task #5 and run the play-test\n```')
  })

  it("a lead's session lists each teammate's latest report, newest first", () => {
    const teamReports = [
      { line: 158, from: 'proxy-fix', text: 'Task #2 done.' },
      { line: 200, from: 'backend-cache', text: 'Task #1 is complete.' },
    ]
    const text = renderStartup({ ...BASE, snapshot: snap({ teamReports }) })
    expect(text).toContain("## The teammates' latest reports\n\n```recorded\n- backend-cache: Task #1 is complete.\n- proxy-fix: Task #2 done.\n```")
  })
})

describe('the next step and the last assistant message', () => {
  const reply = (text: string, ts?: string) => ({ text, source: 'transcript' as const, ...(ts ? { ts } : {}) })

  it('the closing question is lifted into Next step and not repeated at the end of the message', () => {
    const s = snap({ lastAssistant: reply('The exporter works and the tests pass.\n\nShall I commit, or leave it as is?') })
    const text = renderStartup({ ...BASE, snapshot: s })
    expect(section(text, 'Next step')).toBe('Shall I commit, or leave it as is?')
    expect(section(text, 'Last assistant message')).toBe('The exporter works and the tests pass.')
  })

  it('no next step from a reply the user has answered since', () => {
    const s = snap({ lastAssistant: reply('Shall I commit?', '2026-11-29T18:59:00Z'), requests: requests('yes, commit it please') })
    expect(renderStartup({ ...BASE, snapshot: s })).not.toContain('## Next step')
  })

  it('a long message keeps its head and its tail', () => {
    const body = Array.from({ length: 40 }, (_, i) => `Line ${i} of the summary of what was done today.`).join('\n')
    const s = snap({ lastAssistant: reply(`Summary first.\n${body}\nThe last line says what is left: the docs.`) })
    const text = section(renderStartup({ ...BASE, snapshot: s }), 'Last assistant message')!
    expect(text.startsWith('Summary first.\nLine 0 of the summary')).toBe(true)
    expect(text).toContain('\n…\n')
    expect(text.endsWith('Line 39 of the summary of what was done today.\nThe last line says what is left: the docs.')).toBe(true)
    expect(text.length).toBeLessThanOrEqual(503)
  })
})

describe("the user's decisions", () => {
  it('fenced, one line each, without the latest request again', () => {
    const s = snap({
      task: "don't commit yet",
      requests: requests("don't commit yet"),
      decisions: [
        { kind: 'answer', line: 3, text: 'Which padding should go? → Outer gutter and the shadow' },
        { kind: 'rejection', line: 5, text: "rejected Edit cmd/summarise.go: don't check this in" },
        { kind: 'said', line: 9, text: "don't commit yet" },
      ],
    })
    expect(section(renderStartup({ ...BASE, snapshot: s }), "The user's decisions")).toBe(
      "- Which padding should go? → Outer gutter and the shadow\n- rejected Edit cmd/summarise.go: don't check this in",
    )
  })
})

describe('the budget', () => {
  const FULL = snap({
    ...RICH,
    ending: { state: 'waiting' },
    goal: { text: `The goal of the session, in many words. ${'word '.repeat(100)}`, source: 'request' },
    task: `The latest request. ${'more '.repeat(100)}`,
    requests: requests(`The latest request. ${'more '.repeat(100)}`),
    decisions: Array.from({ length: 8 }, (_, i) => ({ kind: 'said' as const, line: i, text: `don't do thing ${i}, ${'because '.repeat(20)}` })),
    files: files(15),
    lastAssistant: { text: `${'Long reply. '.repeat(100)}\n\nShall I go on with the next phase?`, source: 'transcript' },
  })

  it('stays within every budget; the last message goes first, the goal, latest request and next step last', () => {
    for (let budget = 300; budget <= 8_000; budget += 250) {
      expect(renderStartup({ ...BASE, budget, snapshot: FULL }).length).toBeLessThanOrEqual(budget)
    }
    const tight = renderStartup({ ...BASE, budget: 2_000, snapshot: FULL })
    for (const title of ["The goal, in the user's words", 'Latest request', 'Next step']) expect(tight).toContain(`## ${title}`)
    expect(tight).not.toContain('## Last assistant message')
    expect(tight).toContain("How the last session ended: waiting for the user's answer.")
    const roomy = renderStartup({ ...BASE, budget: 6_000, snapshot: FULL })
    expect(roomy).toContain("## The user's decisions")
    expect(roomy.indexOf('## Open tasks')).toBeLessThan(roomy.indexOf("## The user's decisions"))
  })
})
