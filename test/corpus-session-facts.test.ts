/**
 * Issue 18 on real sessions: how each ended, its goal and latest request, a teammate's request, the user's
 * decisions, the next step and the last message's tail, in the snapshot and in the startup restore.
 *
 * Every expected value was read off the raw JSONL with python3 (json.loads line by line), not from our code:
 * - ending: the last main-thread records of the file (type user/assistant, isSidechain false): an
 *   `[Request interrupted by user…]` text, an assistant text whose last line ends with "?", a `git commit` Bash
 *   call whose result has no later Write/Edit, or an assistant message with isApiErrorMessage true.
 * - goal: the first user text record (not meta, no tool_result, not a slash command or a notification) of 20
 *   characters or more that is not an acknowledgement; latest request: the last such record of any length.
 * - decisions: tool_result texts "The user doesn't want to proceed … the user said:\n<reason>" and AskUserQuestion
 *   `toolUseResult.answers`.
 */
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { renderStartup } from '../src/restore/render.js'
import { extractText, snapshotOf } from './helpers/extract.js'
import { CORPUS_PRESENT, claudePath, loadCorpus } from './helpers/corpus.js'
import { BASE } from './helpers/restore.js'
import { jsonl, prompt } from './helpers/jsonl.js'

async function restoreOf(name: string) {
  const { state, root } = await loadCorpus(name)
  const snapshot = snapshotOf(state, root)
  return { snapshot, text: renderStartup({ ...BASE, snapshot, budget: 6_000 }) }
}

/** The fenced body of a section of the restore, or undefined. */
function section(text: string, title: string): string | undefined {
  const at = text.indexOf(`\n## ${title}\n\n`)
  if (at === -1) return undefined
  const m = /^```+recorded\n([\s\S]*?)\n```+$/m.exec(text.slice(at + title.length + 6))
  return m?.[1]
}

/** The first `n` lines of a corpus file: the session as a capture at that moment saw it. */
async function prefix(name: string, n: number) {
  const raw = await readFile(claudePath(name), 'utf8')
  const { state } = extractText(raw.split('\n').slice(0, n).join('\n'))
  return snapshotOf(state)
}

describe.skipIf(!CORPUS_PRESENT)('session facts on real transcripts', () => {
  it.each([
    ['cc-1.0.111-multiedit-todowrite-cb947e5b.jsonl', 'How the last session ended: interrupted by the user.'],
    ['cc-2.1.17-long-compact2-askuser-f4237e82.jsonl', 'How the last session ended: interrupted by the user.'],
    ['cc-2.1.12-microcompact-0cd9edf7.jsonl', "How the last session ended: waiting for the user's answer."],
    ['cc-2.1.20-taskcreate-local-command-mcp-b82405ba.jsonl', "How the last session ended: waiting for the user's answer."],
    ['cc-2.1.44-image-ffc44f28.jsonl', 'How the last session ended: committed 19780ba.'],
    ['cc-2.1.14-stop-hook-session-cb88ae13.jsonl', 'How the last session ended: committed 93bff95.'],
    // Its API errors are `system/api_error` retries at lines 13-15; the session went on and ended with a commit
    // whose output (the pre-commit hook's) names no hash.
    ['cc-2.1.50-api-error-303ebbc4.jsonl', 'How the last session ended: committed.'],
    // Files changed and never committed; its last reply asks nothing.
    ['cc-2.1.41-agent-teams-7e7f49b0.jsonl', 'How the last session ended: mid-work.'],
    // The user's last words (line 1717) got no reply.
    ['cc-2.1.219-windows-long-compact1-image-api-error-6b6f4218.jsonl', 'How the last session ended: mid-work.'],
  ])('%s: %s', async (name, line) => {
    const { text } = await restoreOf(name)
    expect(text.split('\n')[4]).toBe(line)
  })

  it('a session that stopped on an API error says so, with its first line (no file in the corpus ends there: cut at it)', async () => {
    // cc-2.1.215 line 907: the synthetic assistant message of a spending limit, before the user went on.
    const spend = await prefix('cc-2.1.215-windows-api-error-image-mcp-94fab1a1.jsonl', 907)
    expect(spend.ending).toEqual({
      state: 'api-error',
      detail: "You've hit your monthly spend limit · raise it at claude.ai/settings/usage?from=cc_cli_limit_message",
    })
    // cc-2.1.5 line 23: "API Error: 529 {…overloaded_error…}".
    const overloaded = await prefix('cc-2.1.5-api-error-compact2-b00b80af.jsonl', 23)
    expect(overloaded.ending?.state).toBe('api-error')
    expect(overloaded.ending?.detail).toMatch(/^API Error: 529 \{"type":"error","error":\{"type":"overloaded_error"/)
    const text = renderStartup({ ...BASE, snapshot: spend })
    expect(text).toContain(
      "How the last session ended: on an API error: `You've hit your monthly spend limit · raise it at claude.ai/settings/usage?from=cc_cli_limit_message`.",
    )
  })

  it('cc-2.1.20: goal and latest request apart, the closing question as the next step, the decisions', async () => {
    const { snapshot, text } = await restoreOf('cc-2.1.20-taskcreate-local-command-mcp-b82405ba.jsonl')
    expect(section(text, "The goal, in the user's words")).toBe('have a look at linear MCP-108, we will work on that here')
    expect(section(text, 'Latest request')).toBe(
      "let's leave this for a future exercise. I assume the summary call will just fail as claude will exit non-zero?",
    )
    expect(section(text, 'Next step')).toBe('Should I finish wiring up the `--model` flag with `sonnet` as default, or leave the code as-is for now?')
    // Line 734: a rejected Bash call with the user's reason; a rejection is not an error.
    expect(section(text, "The user's decisions")).toMatch(
      /^- rejected Bash claude --print --dangerously-skip-permissions "say hello" 2…: let's not do the nuclear thing$/m,
    )
    expect(snapshot.errors.some((e) => e.message.includes("doesn't want to proceed"))).toBe(false)
    expect(snapshot.decisions?.length).toBe(8)
  })

  it('cc-2.1.17: the AskUserQuestion answers (line 945) and the rejected plan (line 957) are decisions', async () => {
    const { snapshot } = await restoreOf('cc-2.1.17-long-compact2-askuser-f4237e82.jsonl')
    const texts = snapshot.decisions!.map((d) => d.text)
    expect(texts).toContain('Should the tests import and reuse integration.TestEnv, or create a standalone E2ETestEnv with copied helpers? → Standalone copy')
    expect(texts).toContain('What permission mode should Claude run with in tests? → --allowedTools with specific list')
    expect(texts.at(-1)).toMatch(/^rejected the plan: Can we check if there existing patterns \/ tooling \/ frameworks other CLI uses\?/)
    expect(snapshot.goal?.text).toBe('can you run a view agents reviewing different aspects of the code changes in this branch')
  })

  it('cc-2.1.12-microcompact: the last reply keeps its tail, where the question is', async () => {
    const { snapshot, text } = await restoreOf('cc-2.1.12-microcompact-0cd9edf7.jsonl')
    expect(snapshot.lastAssistant!.text.endsWith('Which approach would you prefer?')).toBe(true)
    expect(section(text, 'Next step')).toBe('Which approach would you prefer?')
  })

  it("cc-2.1.41 (the lead's session): teammates' reports and idle notices are not requests", async () => {
    const { snapshot, text } = await restoreOf('cc-2.1.41-agent-teams-7e7f49b0.jsonl')
    expect(snapshot.requests.count).toBe(1) // line 5 only; lines 158-509 are <teammate-message> from teammates
    expect(section(text, 'Latest request')).toMatch(/^Implement the following plan:\n\n# Performance Optimization Plan: CyberVPN Dashboard/)
    expect(text).not.toContain('The goal, in the user')
    // What the teammates reported last, newest first: line 200's backend-cache report on task #1 (line 158's proxy-fix last).
    expect(snapshot.teamReports?.map((r) => r.from)).toEqual(['proxy-fix', 'query-dedup', 'auth-fix', 'infra-tune', 'dashboard-perf', 'backend-cache'])
    const reports = section(text, "The teammates' latest reports")!.split('\n')
    expect(reports[0]).toMatch(/^- backend-cache: Task #1 \(Backend: Redis response cache \+ redirect_slashes fix\) is complete\./)
    expect(reports).toHaveLength(6)
  })

  it("a teammate's session: the lead's task assignment (cc-2.1.41 line 134, to proxy-fix) is its request and goal", async () => {
    const raw = (await readFile(claudePath('cc-2.1.41-agent-teams-7e7f49b0.jsonl'), 'utf8')).split('\n')
    const spawn = JSON.parse(raw[133]!).message.content.find((b: { type: string }) => b.type === 'tool_use').input
    expect(spawn.name).toBe('proxy-fix')
    // The shape Claude Code 2.1.x delivers a lead's message in, as the teammate session's user record.
    const assignment = `<teammate-message teammate_id="team-lead" summary="${spawn.description}">\n${spawn.prompt}\n</teammate-message>`
    const { state } = extractText(jsonl([prompt(assignment)]))
    const snapshot = snapshotOf(state)
    expect(snapshot.requests.count).toBe(1)
    expect(snapshot.task).toBe(spawn.prompt.trim())
    expect(snapshot.goal).toMatchObject({ source: 'request', from: 'team-lead' })
    const text = renderStartup({ ...BASE, snapshot })
    expect(section(text, 'Latest request (from the team lead)')).toMatch(/^You are the proxy-fix agent\. Your task is to fix the ~2000ms TTFB issue/)
  })
})
