/**
 * The compact resume: what restore gives the host model after a compaction, in the same session. Pure:
 * every value comes in as an argument; never longer than the budget (see fitSections).
 */
import type { Section } from './budget.js'
import { fitSections } from './budget.js'
import { codeValue as code, contentLines, oneLineValue as oneLine } from './fence.js'
import {
  type NarrativeInput,
  PLAN_CHARS,
  RECORDED_NOTE,
  REQUEST_CHARS,
  commitSection,
  coverage,
  errorsSection,
  filesSection,
  narrativeSection,
  recorded,
  requestSections,
  tasksSection,
} from './render.js'
import type { Snapshot } from '../snapshot/model.js'

export interface CompactInput {
  project: string
  snapshot: Snapshot
  narrative?: NarrativeInput
  budget: number
  latestPath: string
}

/**
 * After a compaction, in the same session: the latest request (and the task when it is older), the
 * earlier of the last three requests, open tasks, files, unresolved errors, last commit, the latest plan
 * and the narrative body when given.
 */
export function renderCompactResume(i: CompactInput): string {
  const s = i.snapshot
  const n = i.narrative
  const head = [`# Bookmark: ${code(i.project, 120)}`, 'This session was just compacted; here is where it stood.', RECORDED_NOTE]
  const none = coverage(undefined)
  const recent = s.requests.recent.slice(-3)
  const earlier = recent.slice(0, -1).map((p) => `- ${oneLine(p.text, REQUEST_CHARS)}`)
  const plan = s.plans.at(-1)
  const planSection = plan ? recorded('plan', `Latest plan${plan.approved === false ? ' (not approved)' : ''}`, contentLines(plan.text, PLAN_CHARS), 6) : []
  const sections: Section[] = [
    ...recorded('earlier', 'Earlier requests (oldest first)', earlier, 7),
    ...requestSections(
      s,
      none,
      'Latest request',
      1,
      recent.map((p) => p.text),
    ),
    ...tasksSection(s, none, 2),
    ...filesSection(s, none, 3),
    ...errorsSection(s, none, 4),
    ...commitSection(s, none, 5.5),
    ...planSection,
    ...narrativeSection(n, 5, Number.POSITIVE_INFINITY, 'Handoff notes (bookmark.context.md)'),
  ]
  const foot = [`Full record: ${code(i.latestPath, 300)}${n ? ` and ${code(n.path, 300)}` : ''} (\`bookmark show\`).`]
  return fitSections(head, sections, foot, i.budget).text
}
