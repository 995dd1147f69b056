/**
 * Issue 18, what a new session must be told after a real session: the goal and the latest request, the
 * teammate's messages, how the session ended, the user's decisions, which errors are still open (and that the
 * resolved ones are gone), and the end of the last reply, within 6,000 characters. Expected values come from
 * test/helpers/oracle-session.ts (plain JSON reading, no src/); each transcript is relocated into a temporary
 * project, captured by `stop` and read back by `restore` (test/helpers/restore-after.ts, as restore-heldout.test.ts and
 * bench/quality.mjs do).
 */
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { BIN, gitProject, sandbox } from './helpers/cli.js'
import { CORPUS_PRESENT, claudeFiles, claudePath } from './helpers/corpus.js'
import { END_STATE_WORDS, HANDOVER, type SessionOracle, sessionOracle } from './helpers/oracle-session.js'
import { restoreAfter } from './helpers/restore-after.js'

/** Section titles of issue 18's shared wording (and today's), to cut a restore into its sections. */
const TITLES = [
  "The goal, in the user's words",
  "The task, in the user's words",
  'Latest request',
  'Last request',
  'Next step',
  "The user's decisions",
  'Open tasks',
  "The teammates' latest reports",
  'Files changed',
  'Last commit',
  'Unresolved errors',
  'Last assistant message',
  'Handoff notes',
  'Earlier requests',
  'Latest plan',
]

const flat = (s: string) => s.replace(/^> ?/gm, '').replace(/\s+/g, ' ').trim()

/** What must be found of a recorded text: its first line without heading marks, up to a tag or backtick (those are rewritten). */
function needle(s: string, max = 40): string {
  const first = s.split('\n').find((l) => l.trim()) ?? ''
  return flat(first.replace(/^#+\s*/, ''))
    .split(/[<>`]/)[0]!
    .slice(0, max)
    .trim()
}

/** The body of the section whose title starts with `title` (fenced lines unwrapped), or '' when there is none. */
function section(text: string, title: string): string {
  const lines = text.split('\n')
  const start = lines.findIndex((l) => l.startsWith(`## ${title}`))
  if (start < 0) return ''
  let fence: string | undefined
  const out: string[] = []
  for (const l of lines.slice(start + 1)) {
    if (fence !== undefined) {
      if (l === fence) fence = undefined
      else out.push(l)
      continue
    }
    if (/^`{3,}/.test(l)) fence = /^`+/.exec(l)![0]
    else if (l.startsWith('## ') && TITLES.some((t) => l.startsWith(`## ${t}`))) break
    else out.push(l)
  }
  return out.join('\n')
}

/** The startup restore a new session gets after the session `name` (its oracle `o`) ended with a Stop. */
async function restoredAfter(name: string, o: SessionOracle): Promise<string> {
  const sb = await sandbox()
  const project = await gitProject(sb, 'p')
  const { stop, restore: r } = restoreAfter({ bin: BIN, env: sb.env, dir: sb.dir, project }, readFileSync(claudePath(name), 'utf8'), o.root)
  expect(stop.code, stop.stderr).toBe(0)
  expect(r.code, r.stderr).toBe(0)
  return JSON.parse(r.stdout).hookSpecificOutput.additionalContext
}

const NAMES = claudeFiles().filter((n) => !n.includes('windows'))

describe.skipIf(!CORPUS_PRESENT)('restore quality after a real session (issue 18)', () => {
  it('the hand-checked errors name transcripts of the corpus, and no resolved needle is also an open one', () => {
    for (const [name, h] of Object.entries(HANDOVER)) {
      expect(NAMES).toContain(name)
      for (const r of h.resolved) expect(h.open.some((x) => x.includes(r) || r.includes(x))).toBe(false)
    }
  })

  describe.each(NAMES)('%s', (name) => {
    const o = sessionOracle(readFileSync(claudePath(name), 'utf8'))
    let text = ''
    beforeAll(async () => {
      text = await restoredAfter(name, o)
    }, 60_000)

    it('stays within 6,000 characters', () => {
      expect(text.length).toBeGreaterThan(0)
      expect(text.length).toBeLessThanOrEqual(6_000)
    })

    it.runIf(o.goal !== undefined)(`states the goal (${o.goalSource})`, () => {
      const n = needle(o.goal!)
      const same = o.latestRequest !== undefined && flat(o.latestRequest) === flat(o.goal!)
      const where = flat(section(text, "The goal, in the user's words")) + (same ? ` ${flat(section(text, 'Latest request'))}` : '')
      expect(where, `goal ${n}`).toContain(n)
    })

    it.runIf(o.latestRequest !== undefined)('states the latest request, once', () => {
      const n = needle(o.latestRequest!)
      const goal = flat(section(text, "The goal, in the user's words"))
      const latest = flat(section(text, 'Latest request'))
      expect(`${latest} ${goal}`, `latest request ${n}`).toContain(n)
      // Never the same text twice (issue 18, defect 3).
      expect(goal.includes(n) && latest.includes(n)).toBe(false)
    })

    it.runIf(o.teammateMessages.length > 0)("states the team's latest message", () => {
      expect(flat(text)).toContain(needle(o.teammateMessages.at(-1)!))
    })

    it(`says how the session ended: ${END_STATE_WORDS[o.endState]}`, () => {
      const line = text.split('\n').find((l) => l.startsWith('How the last session ended: '))
      expect(line, 'the end-state line').toBeDefined()
      const state = line!.slice('How the last session ended: '.length)
      expect(state.startsWith(END_STATE_WORDS[o.endState])).toBe(true)
      if (o.endState === 'committed') expect(state).toContain(`committed ${o.commit}`)
    })

    it.runIf(o.decisions.length > 0)("lists the user's latest decision", () => {
      expect(flat(section(text, "The user's decisions"))).toContain(needle(o.decisions.at(-1)!, 30))
    })

    const h = HANDOVER[name]
    it.runIf(h !== undefined)('lists the errors still open and none of the resolved ones', () => {
      const errors = section(text, 'Unresolved errors')
      for (const n of h!.open) expect(errors, `open error ${n}`).toContain(n)
      for (const n of h!.resolved) expect(errors, `resolved error ${n}`).not.toContain(n)
    })

    it.runIf(o.lastAssistantTail !== undefined)('keeps the end of the last assistant message', () => {
      let end = flat(o.lastAssistantTail!)
      // A closing question may stand under "Next step" instead, cut from the message so that it is said once.
      const q = o.finalQuestion === undefined ? '' : flat(o.finalQuestion)
      if (q !== '' && end.endsWith(q)) end = end.slice(0, -q.length).trim()
      const tail = end.split(/[<>`]/).at(-1)!.slice(-50).trim()
      expect(flat(text)).toContain(tail)
      if (o.finalQuestion) expect(flat(text)).toContain(needle(o.finalQuestion.split(/[<>`]/).at(-1)!, 60))
    })
  })
})
