/**
 * Tasks and plans: the final TodoWrite list, TaskCreate/TaskUpdate matched by the ids in their results,
 * ExitPlanMode plans, and the subagents a session launched. Pure rules.
 */
import { cutRedacted } from '../redact/secrets.js'
import { isObject, idString } from '../shared/json.js'
import { CAPS, type ExtractState, type PendingTool, dict } from './model.js'

export const TASK_TOOLS = new Set(['TodoWrite', 'TaskCreate', 'TaskUpdate', 'TaskList', 'ExitPlanMode', 'Task', 'Agent'])

/**
 * Applies a task-related tool call once its result is known. The TaskCreate list is shared by the main
 * thread and its subagents (and teammates), so their updates count; a subagent's TodoWrite list is its own.
 * `subagents` is the key of that name: off, a Task/Agent call is recorded by its description alone, never by
 * the prompt it gave the subagent (the subagent's request).
 */
export function applyTaskTool(state: ExtractState, tool: PendingTool, result: unknown, resultText: string, isError: boolean, subagents = true): void {
  const input = tool.input
  switch (tool.name) {
    case 'TodoWrite': {
      if (isError || tool.sidechain || !Array.isArray(input.todos)) return
      state.todos = input.todos
        .filter(isObject)
        .map((t) => ({ content: idString(t.content) ?? idString(t.subject) ?? '', status: idString(t.status) ?? 'pending' }))
        .filter((t) => t.content !== '')
      return
    }
    case 'TaskCreate': {
      if (isError) return
      const res = isObject(result) ? result : {}
      const task = isObject(res.task) ? res.task : {}
      // The id comes from the result, never from the call's position: `{task:{id}}` or "Task #N created".
      const id = idString(task.id) ?? /Task #(\w+) created/.exec(resultText)?.[1]
      if (!id) return
      const subject = idString(input.subject) ?? idString(task.subject) ?? idString(input.description) ?? ''
      state.tasks[id] = { id, subject, status: 'pending' }
      return
    }
    case 'TaskUpdate': {
      if (isError) return
      const res = isObject(result) ? result : {}
      if (res.success === false) return
      const id = idString(input.taskId) ?? idString(res.taskId)
      if (!id) return
      const task = state.tasks[id] ?? { id, subject: '', status: 'pending' }
      const change = isObject(res.statusChange) ? idString(res.statusChange.to) : undefined
      const status = change ?? idString(input.status)
      if (status === 'deleted') {
        delete state.tasks[id]
        return
      }
      if (status) task.status = status
      const subject = idString(input.subject)
      if (subject) task.subject = subject
      state.tasks[id] = task
      return
    }
    case 'TaskList': {
      // The list as the host sees it, updates by teammates included: it replaces what we inferred.
      const res = isObject(result) ? result : {}
      if (isError || !Array.isArray(res.tasks)) return
      const next: ExtractState['tasks'] = dict()
      for (const t of res.tasks) {
        if (!isObject(t)) continue
        const id = idString(t.id)
        if (!id) continue
        next[id] = { id, subject: idString(t.subject) ?? state.tasks[id]?.subject ?? '', status: idString(t.status) ?? 'pending' }
      }
      state.tasks = next
      return
    }
    case 'ExitPlanMode': {
      const plan = idString(input.plan)
      if (!plan || tool.sidechain) return
      const rec: { ts?: string; text: string; approved: boolean } = { text: cutRedacted(plan, CAPS.planText), approved: !isError }
      if (tool.ts !== undefined) rec.ts = tool.ts
      state.plans.push(rec)
      if (state.plans.length > CAPS.plans) state.plans.splice(0, state.plans.length - CAPS.plans)
      return
    }
    case 'Task':
    case 'Agent': {
      const description = cutRedacted(idString(input.description) ?? (subagents ? idString(input.prompt) : undefined) ?? '', 300)
      const rec: { description: string; type?: string; ts?: string; status?: string } = { description }
      const type = idString(input.subagent_type)
      if (type) rec.type = type
      if (tool.ts !== undefined) rec.ts = tool.ts
      const status = isObject(result) ? idString(result.status) : undefined
      rec.status = isError ? 'failed' : (status ?? 'completed')
      state.subagents.push(rec)
      if (state.subagents.length > CAPS.subagents) state.subagents.splice(0, state.subagents.length - CAPS.subagents)
      return
    }
  }
}
