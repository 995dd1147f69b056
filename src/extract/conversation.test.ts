/**
 * The conversation's facts, on transcript lines in the shapes Claude Code writes (the tool_result texts and
 * toolUseResult shapes are those of the corpus: AskUserQuestion in cc-2.1.17-long-compact2-askuser, rejections in
 * cc-2.1.20-taskcreate-local-command-mcp, the synthetic API error message in cc-2.1.5-api-error-compact2).
 */
import { describe, expect, it } from 'vitest'
import { extractText, snapshotOf } from '../../test/helpers/extract.js'
import { assistantText, call, jsonl, prompt, toolResult, toolUse } from '../../test/helpers/jsonl.js'
import { isGoal, isSubstantial } from './conversation.js'
import { CAPS } from './model.js'

const REJECTED =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file)."
const rejectedSaying = (reason: string) => `${REJECTED} To tell you how to proceed, the user said:\n${reason}`
const STOP = `${REJECTED} STOP what you are doing and wait for the user to tell you how to proceed.`
const INTERRUPT = '[Request interrupted by user]'

const facts = (...records: Parameters<typeof jsonl>[0]) => {
  const { state } = extractText(jsonl(records))
  return { state, snap: snapshotOf(state) }
}

describe('the goal', () => {
  it('is the first substantial request, not an acknowledgement or a bare command', () => {
    const { snap } = facts(prompt('/init'), prompt("yeah let's do it"), prompt('Add CSV export to the notes list'), prompt('now the tests'))
    expect(snap.goal).toEqual({ text: 'Add CSV export to the notes list', source: 'request', ts: expect.any(String) })
    expect(isGoal('ok, now add the flag too')).toBe(false)
    // cc-2.1.14-compact2-mcp-progress: after "yeah let's do it", the matter the session then debugged.
    expect(
      isGoal('ok, so I am noting some weirdness.\n\nIn one of _our commits_ 09ea3c1 (we did this just now), it is referencing checkpoint e6d2bbd73e25.'),
    ).toBe(true)
    expect(isSubstantial('ok, now add the flag too')).toBe(true)
  })

  it('survives the cap on kept prompts', () => {
    const many = Array.from({ length: CAPS.prompts + 10 }, (_, i) => prompt(`follow-up number ${i} with some words`))
    const { state, snap } = facts(prompt('Port the exporter to Rust, keeping the CLI flags'), ...many)
    expect(state.prompts[0]!.text).toBe('follow-up number 10 with some words')
    expect(snap.goal?.text).toBe('Port the exporter to Rust, keeping the CLI flags')
  })

  it('is the latest approved plan when there is one', () => {
    const { snap } = facts(
      prompt('Make the dashboard faster please'),
      ...call('p1', 'ExitPlanMode', { plan: '# Faster dashboard\n\n1. cache\n2. dedupe' }, { plan: '# Faster dashboard' }),
    )
    expect(snap.goal).toMatchObject({ text: '# Faster dashboard\n\n1. cache\n2. dedupe', source: 'plan' })
  })

  it('is redacted', () => {
    const { snap } = facts(prompt('Deploy with the token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB to staging'))
    expect(snap.goal?.text).not.toContain('ghp_0123456789')
    expect(snap.goal?.text).toMatch(/^Deploy with the token \[REDACTED:[^\]]+\] to staging$/)
  })

  it('from the team lead of an agent team, marked so', () => {
    const assign = '<teammate-message teammate_id="team-lead" summary="QA">You are the QA lead. Claim task #5 and run the play-test.</teammate-message>'
    const { snap } = facts(prompt(assign))
    expect(snap.goal).toMatchObject({ text: 'You are the QA lead. Claim task #5 and run the play-test.', from: 'team-lead' })
    expect(snap.requests.recent.at(-1)).toMatchObject({ text: 'You are the QA lead. Claim task #5 and run the play-test.', from: 'team-lead' })
  })
})

describe("teammates' reports (an agent team's lead session)", () => {
  const report = (from: string, text: string) => prompt(`<teammate-message teammate_id="${from}" color="green" summary="s">\n${text}\n</teammate-message>`)

  it('keeps the latest report of each teammate, newest last, redacted', () => {
    const { snap } = facts(
      prompt('Implement the plan with a team'),
      report('proxy-fix', 'Task #2 started.'),
      report('auth-fix', 'Task #5 done, token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB rotated.'),
      report('proxy-fix', 'Task #2 done.'),
    )
    expect(snap.teamReports?.map((r) => [r.from, r.text])).toEqual([
      ['auth-fix', expect.stringMatching(/^Task #5 done, token \[REDACTED:[^\]]+\] rotated\.$/)],
      ['proxy-fix', 'Task #2 done.'],
    ])
    // Reports are not the user's requests.
    expect(snap.requests.count).toBe(1)
  })

  it('is absent from a session without a team', () => {
    expect(facts(prompt('Add CSV export to the notes list')).snap).not.toHaveProperty('teamReports')
  })
})

describe("the user's decisions", () => {
  it('answers to AskUserQuestion, from toolUseResult.answers or from the text', () => {
    const q1 = 'Should the E2E tests be in a separate directory?'
    const text = `User has answered your questions: "${q1}"="Separate e2e_test/ (Recommended)". You can now continue with the user's answers in mind.`
    const { snap } = facts(
      toolUse('a1', 'AskUserQuestion', { questions: [{ question: q1 }] }),
      toolResult('a1', text, { result: { questions: [{ question: q1 }], answers: { [q1]: 'Separate e2e_test/ (Recommended)' } } }),
      toolUse('a2', 'AskUserQuestion', { questions: [] }),
      toolResult('a2', 'Your questions have been answered: "Which padding should go?"="Outer gutter and the shadow". You can now continue.', { result: {} }),
    )
    expect(snap.decisions?.map((d) => [d.kind, d.text])).toEqual([
      ['answer', `${q1} → Separate e2e_test/ (Recommended)`],
      ['answer', 'Which padding should go? → Outer gutter and the shadow'],
    ])
  })

  it('a rejection with a reason (not an error); without one, the next words', () => {
    const { snap } = facts(
      prompt('Add the summaries'),
      toolUse('e1', 'Edit', { file_path: '/proj/cmd/summarise.go', old_string: 'a', new_string: 'b' }),
      toolResult('e1', rejectedSaying("don't check this in"), { isError: true }),
      toolUse('b1', 'Bash', { command: 'gh pr ready 133' }),
      toolResult('b1', STOP, { isError: true }),
      prompt(INTERRUPT.replace(']', ' for tool use]')),
      prompt('actually maybe test this first, it is still a draft'),
    )
    expect(snap.decisions?.map((d) => [d.kind, d.text])).toEqual([
      ['rejection', "rejected Edit cmd/summarise.go: don't check this in"],
      ['reply', 'actually maybe test this first, it is still a draft'],
    ])
    expect(snap.errors).toEqual([])
  })

  it('the reply to a closing question (with the question when the reply alone says little), not a question back', () => {
    const { snap } = facts(
      prompt('Fix the flaky test in the parser'),
      assistantText('Fixed. Want me to post this to the PR now?'),
      prompt('yes'),
      assistantText('Posted. Should I also open an issue?'),
      prompt('does the issue tracker have a template?'),
      assistantText('It does. Shall I use it?'),
      prompt('go with the bug template'),
      assistantText('Done. Anything else?'),
      prompt('can you explain: why the template needs a label'),
      assistantText('It routes the issue. Should I add one?'),
      prompt('what labels exist'),
    )
    expect(snap.decisions?.map((d) => d.text)).toEqual(['Want me to post this to the PR now? → yes', 'go with the bug template'])
  })

  it('explicit turns: "don\'t", "instead", "stop …ing", "use X not Y"; the first request is the goal, not one', () => {
    const { snap } = facts(
      prompt('Never push to main, work on a branch and open a PR'),
      prompt("don't commit yet"),
      prompt('use pnpm not npm for this repo'),
      prompt('stop adding comments to every line'),
      prompt('regarding: CleanupItem.Reason Never Displayed - do we log the deleted items?'),
      prompt('that service runs on another host, so the port is fine'),
    )
    expect(snap.decisions?.map((d) => [d.kind, d.text])).toEqual([
      ['said', "don't commit yet"],
      ['said', 'use pnpm not npm for this repo'],
      ['said', 'stop adding comments to every line'],
    ])
  })

  it('at most 8, newest last', () => {
    const turns = Array.from({ length: 12 }, (_, i) => prompt(`don't touch module ${i}`))
    const { snap } = facts(prompt('Refactor the storage layer'), ...turns)
    expect(snap.decisions?.length).toBe(CAPS.decisions)
    expect(snap.decisions?.[0]!.text).toBe("don't touch module 4")
    expect(snap.decisions?.at(-1)!.text).toBe("don't touch module 11")
  })
})

describe('how the session ended', () => {
  const commitOut = '[main 1a2b3c4] Add CSV export\n 1 file changed, 3 insertions(+)'
  const write = (id: string) => call(id, 'Write', { file_path: '/proj/src/a.ts', content: 'x\n' }, { type: 'create', filePath: '/proj/src/a.ts' })

  it.each([
    ['interrupted by the user', [prompt('Add X to the list'), toolUse('r', 'Read', { file_path: '/proj/a' }), prompt(INTERRUPT)], { state: 'interrupted' }],
    ['a closing question', [prompt('Add X to the list'), ...write('w'), assistantText('Done. Shall I commit?')], { state: 'waiting' }],
    ['an AskUserQuestion not answered', [prompt('Add X to the list'), toolUse('q', 'AskUserQuestion', { questions: [] })], { state: 'waiting' }],
    [
      'an API error',
      [
        prompt('Add X to the list'),
        assistantText('API Error: 401 {"type":"error","error":{"type":"authentication_error","message":"OAuth token has expired"}}\nPlease run /login', {
          model: '<synthetic>',
        }),
      ],
      { state: 'api-error', detail: 'API Error: 401 {"type":"error","error":{"type":"authentication_error","message":"OAuth token has expired"}}' },
    ],
    [
      'a commit, nothing changed after',
      [
        prompt('Add X to the list'),
        ...write('w'),
        ...call('c', 'Bash', { command: 'git commit -am "Add CSV export"' }, { stdout: commitOut, stderr: '' }),
        assistantText('Committed.'),
      ],
      { state: 'committed', detail: '1a2b3c4' },
    ],
    [
      'a change after the commit',
      [
        prompt('Add X'),
        ...call('c', 'Bash', { command: 'git commit -am "Add"' }, { stdout: commitOut, stderr: '' }),
        ...write('w'),
        assistantText('Changed a.ts.'),
      ],
      { state: 'mid-work' },
    ],
    ['a turn cut off after a tool call', [prompt('Add X to the list'), toolUse('r', 'Read', { file_path: '/proj/a' })], { state: 'mid-work' }],
    ['a reply with no work open', [prompt('What does the store hold?'), assistantText('Snapshots and the index.')], { state: 'replied' }],
    [
      // cc-1.0.98-small-todowrite: the write was refused, the reply says "I've created a basic CLAUDE.md file".
      'a reply after a refused write',
      [
        prompt('Create a CLAUDE.md for this repository'),
        toolUse('w', 'Write', { file_path: '/proj/CLAUDE.md', content: '# CLAUDE.md' }),
        toolResult('w', "Claude requested permissions to write to /proj/CLAUDE.md, but you haven't granted it yet.", { isError: true }),
        assistantText("I've created a basic CLAUDE.md file."),
      ],
      { state: 'mid-work' },
    ],
    [
      'an API error the session got past',
      [prompt('Add X'), assistantText('API Error: 529 overloaded', { model: '<synthetic>' }), assistantText('Here it is.')],
      { state: 'replied' },
    ],
  ])('%s', (_name, records, ending) => {
    expect(facts(...records).snap.ending).toEqual(ending)
  })

  it('is unknown for a state saved before the end was kept', () => {
    const { state } = facts(prompt('Add X'), assistantText('Done.'))
    delete state.ending
    expect(snapshotOf(state).ending).toBeNull()
  })
})
