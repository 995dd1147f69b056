/**
 * Issue 18, items 7 to 9, through the built CLI: a short follow-up session does not hide the work of the one
 * before it; a handoff older than the work goes after the facts (and is stale for the Stop); the compact
 * resume takes a handoff only from its own session.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { type Sandbox, gitRepo, runCli, sandbox } from './helpers/cli.js'
import { assistantText, call, jsonl, prompt } from './helpers/jsonl.js'
import { sealedHeader, stateDir } from './helpers/narrative.js'

let sb: Sandbox
let project: string
const WORKER = 'aaaaaaaa-1111-4222-8333-444444444444'
const NEW = 'ffffffff-0000-4000-8000-000000000000'

const iso = (msAgo: number): string => new Date(Date.now() - msAgo).toISOString()
const MIN = 60_000

function payload(event: string, sid: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: sid,
    transcript_path: join(sb.dir, `${sid}.jsonl`),
    cwd: project,
    hook_event_name: event,
    permission_mode: 'default',
    ...extra,
  })
}

async function hook(cmd: string, input: string, env: NodeJS.ProcessEnv = {}) {
  const r = await runCli([cmd], { env: { ...sb.env, CLAUDE_PROJECT_DIR: project, ...env }, cwd: project, input })
  expect(r.code, r.stderr).toBe(0)
  return r.stdout.trim() === '' ? undefined : JSON.parse(r.stdout)
}

async function transcript(sid: string, records: Parameters<typeof jsonl>[0], append = false): Promise<void> {
  await writeFile(join(sb.dir, `${sid}.jsonl`), jsonl(records), append ? { flag: 'a' } : {})
}

/** The work: a file written, a commit, a task left in progress, at `msAgo`. */
function work(msAgo: number): Parameters<typeof jsonl>[0] {
  const o = { cwd: project, sessionId: WORKER }
  return [
    prompt('add a CSV export to the notes command', { ...o, ts: iso(msAgo) }),
    call(
      'w1',
      'Write',
      { file_path: join(project, 'src/export.ts'), content: 'export function exportCsv() {}\n' },
      { type: 'create' },
      { ...o, ts: iso(msAgo - 1_000) },
    ),
    call(
      't1',
      'TaskCreate',
      { subject: 'Quote fields with newlines' },
      { task: { id: '1', subject: 'Quote fields with newlines' } },
      { ...o, ts: iso(msAgo - 2_000) },
    ),
    call('t2', 'TaskUpdate', { taskId: '1', status: 'in_progress' }, 'Updated task #1 status', { ...o, ts: iso(msAgo - 3_000) }),
    commit(msAgo - 4_000),
    assistantText('Export written and committed; newlines next.', { ...o, ts: iso(msAgo - 5_000) }),
  ]
}

function commit(msAgo: number, sid = WORKER): Parameters<typeof jsonl>[0][number] {
  const result = { stdout: '[main 1a2b3c4] Add CSV export\n 1 file changed, 1 insertion(+)', stderr: '', interrupted: false, isImage: false }
  return call('c1', 'Bash', { command: 'git add src/export.ts && git commit -m "Add CSV export"' }, result, { cwd: project, sessionId: sid, ts: iso(msAgo) })
}

beforeEach(async () => {
  sb = await sandbox()
  project = await gitRepo(join(sb.dir, 'proj'))
})

describe('7: a short follow-up session does not hide the work before it', () => {
  it('three Q&A sessions after the work: the latest request as it is, plus the working session, labelled', async () => {
    await transcript(WORKER, work(60 * MIN))
    await hook('stop', payload('Stop', WORKER, { stop_hook_active: true }))
    const questions = ['What does the bookmark store say?', 'Which hooks are wired?', 'Where is the config file?']
    for (const [i, q] of questions.entries()) {
      const sid = `bbbbbbb${i}-0000-4000-8000-000000000000`
      await transcript(sid, [
        prompt(q, { cwd: project, sessionId: sid, ts: iso((30 - i) * MIN) }),
        assistantText('It says so.', { cwd: project, sessionId: sid, ts: iso((29 - i) * MIN) }),
      ])
      await hook('stop', payload('Stop', sid, { stop_hook_active: true }))
    }
    const out = await hook('restore', payload('SessionStart', NEW, { source: 'startup' }))
    const text: string = out.hookSpecificOutput.additionalContext
    expect(text).toContain('## Latest request\n\n```recorded\nWhere is the config file?\n```')
    expect(text).toMatch(
      /## Earlier work: session `aaaaaaaa` on branch `main`, last capture \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(the latest session left no changes\)/,
    )
    expect(text).toContain('- commit 1a2b3c4 on main: Add CSV export\n- [~] #1 Quote fields with newlines (in progress)\n- src/export.ts created')
    expect(text.length).toBeLessThanOrEqual(6_000)

    // The answer the last Stop prepared is the same text, and holds only while the earlier session is fresh.
    const prepared = JSON.parse(await readFile(join(await stateDir(sb.env.BOOKMARK_HOME!, project), 'restore.prepared.json'), 'utf8'))
    expect(prepared.value.text).toBe(text)
    const index = JSON.parse(await readFile(join(project, '.bookmark', 'index.json'), 'utf8'))
    const worked = index.snapshots.find((e: { sessionId: string }) => e.sessionId === WORKER)
    expect(Math.abs(prepared.value.validUntil - (Date.parse(worked.createdAt) + 24 * 3_600_000))).toBeLessThan(1_000)
  })

  it('a latest session that did work gets no earlier block', async () => {
    await transcript(WORKER, work(60 * MIN))
    await hook('stop', payload('Stop', WORKER, { stop_hook_active: true }))
    const out = await hook('restore', payload('SessionStart', NEW, { source: 'startup' }))
    expect(out.hookSpecificOutput.additionalContext).not.toContain('Earlier work')
  })
})

describe('8: a handoff older than the work', () => {
  async function handoff(sid: string, writtenMsAgo: number, head?: string): Promise<void> {
    const header = await sealedHeader(sb.env.BOOKMARK_HOME!, project, {
      scope: 'repo',
      project: 'proj',
      repo_path: project,
      branch: 'main',
      ...(head ? { head } : {}),
      session_id: sid,
      written: iso(writtenMsAgo),
    })
    const body =
      '## Task\nCSV export.\n\n## Progress\nNothing committed yet; the exporter is written but untested.\n\n## Next step\nRun the tests, then commit the exporter.\n'
    await writeFile(join(project, '.bookmark', 'bookmark.context.md'), `${header}\n${body}${'\n'.repeat(2)}${'More notes on the exporter. '.repeat(8)}\n`)
  }

  it('the commit and files first, the handoff after them, labelled with what came after it', async () => {
    await transcript(WORKER, work(20 * MIN))
    await hook('stop', payload('Stop', WORKER, { stop_hook_active: true }))
    await handoff(WORKER, 30 * MIN)
    const text: string = (await hook('restore', payload('SessionStart', NEW, { source: 'startup' }))).hookSpecificOutput.additionalContext
    const title = '## Handoff notes from the last session (written before 1 commit and 1 file change that came after it)'
    expect(text).toContain(`${title}\n\n\`\`\`recorded\n### Task`)
    expect(text.indexOf('## Last commit')).toBeGreaterThan(0)
    expect(text.indexOf('## Last commit')).toBeLessThan(text.indexOf('Nothing committed yet'))
    expect(text.indexOf('## Files changed')).toBeLessThan(text.indexOf(title))
  })

  it('a handoff written after the work stays on top, unlabelled', async () => {
    await transcript(WORKER, work(20 * MIN))
    await hook('stop', payload('Stop', WORKER, { stop_hook_active: true }))
    await handoff(WORKER, 5 * MIN)
    const text: string = (await hook('restore', payload('SessionStart', NEW, { source: 'startup' }))).hookSpecificOutput.additionalContext
    expect(text).toContain('## Handoff notes from the last session\n')
    expect(text.indexOf('Nothing committed yet')).toBeLessThan(text.indexOf('## Open tasks'))
  })

  it('the Stop: a commit after the handoff makes it stale even inside the refresh window; a request alone does not', async () => {
    const env = { BOOKMARK_MAX_NARRATIVE_BLOCKS: '2' }
    await transcript(WORKER, work(20 * MIN).slice(0, 2))
    const first = await hook('stop', payload('Stop', WORKER, { stop_hook_active: false }), env)
    expect(first.decision).toBe('block')
    const header = /<!-- BOOKMARK_IDENTITY[\s\S]*?-->/.exec(first.reason)![0]
    await writeFile(
      join(project, '.bookmark', 'bookmark.context.md'),
      `${header}\n## Task\nCSV export.\n\n## Progress\nNothing committed yet.\n\n## Next step\nCommit.\n${'Notes. '.repeat(30)}\n`,
    )
    const later = (ms: number): string => new Date(Date.now() + ms).toISOString()
    await transcript(WORKER, [prompt('looks good', { cwd: project, sessionId: WORKER, ts: later(1_000) })], true)
    expect(await hook('stop', payload('Stop', WORKER, { stop_hook_active: false }), env)).toBeUndefined()
    await transcript(WORKER, [prompt('commit it', { cwd: project, sessionId: WORKER, ts: later(2_000) }), commit(-3_000)], true)
    const again = await hook('stop', payload('Stop', WORKER, { stop_hook_active: false }), env)
    expect(again?.decision).toBe('block')
    expect(again.reason).toContain('(1 commit, 0 files changed and 2 requests since it was written)')
  })
})

describe('9 and 10: the compact resume', () => {
  async function compactWith(narrativeSession: string | undefined, env: NodeJS.ProcessEnv = {}): Promise<string> {
    const all = work(20 * MIN)
    await transcript(WORKER, all.slice(0, 2))
    await hook('stop', payload('Stop', WORKER, { stop_hook_active: true })) // the store is there: the handoff can be written
    const header = await sealedHeader(sb.env.BOOKMARK_HOME!, project, {
      scope: 'repo',
      project: 'proj',
      repo_path: project,
      branch: 'main',
      ...(narrativeSession ? { session_id: narrativeSession } : {}),
      written: iso(10 * MIN),
    })
    await writeFile(
      join(project, '.bookmark', 'bookmark.context.md'),
      `${header}\n## Task\nThe handoff body.\n\n## Next step\nQuote newlines.\n${'Notes. '.repeat(30)}\n`,
    )
    await transcript(WORKER, all.slice(2), true)
    expect(await hook('precompact', payload('PreCompact', WORKER, { trigger: 'auto', custom_instructions: null }), env)).toBeUndefined()
    const out = await hook('restore', payload('SessionStart', WORKER, { source: 'compact' }), env)
    return out.hookSpecificOutput.additionalContext
  }

  it("this session's handoff is in it, labelled as its own; request, task, commit hash, branch, HEAD and files too", async () => {
    const text = await compactWith(WORKER)
    expect(text).toContain('## Handoff notes (written by this session)\n')
    expect(text).toContain('The handoff body.')
    expect(text).toMatch(/^This session was just compacted; here is what a summary tends to lose \(branch `main`, HEAD `[0-9a-f]{7}`\)\.$/m)
    expect(text).toContain('## Latest request, exactly\n\n```recorded\nadd a CSV export to the notes command\n```')
    expect(text).toContain('- [~] #1 Quote fields with newlines (in progress)')
    expect(text).toContain('- 1a2b3c4 Add CSV export')
    expect(text).toContain('- src/export.ts (created +1 -0)')
    expect(text.length).toBeLessThanOrEqual(2_000)
  })

  it("another session's handoff is named and left out", async () => {
    const text = await compactWith('cccccccc-0000-4000-8000-000000000000')
    expect(text).toContain(`The handoff in \`${join(project, '.bookmark', 'bookmark.context.md')}\` is from session \`cccccccc\``)
    expect(text).not.toContain('The handoff body.')
  })

  it('without a session id, a handoff written after the session began counts as its own, and says how it was told', async () => {
    const text = await compactWith(undefined)
    expect(text).toContain('## Handoff notes (no session id; written after this session began)\n')
  })

  it('a session with no capture of its own gets the startup text, fitted to the compact budget', async () => {
    await transcript(WORKER, work(20 * MIN))
    await hook('stop', payload('Stop', WORKER, { stop_hook_active: true }))
    const env = { BOOKMARK_COMPACT_BUDGET: '700' }
    const text: string = (await hook('restore', payload('SessionStart', NEW, { source: 'compact' }), env)).hookSpecificOutput.additionalContext
    expect(text).toMatch(/^# Bookmark: continuing work in `proj`/)
    expect(text.length).toBeLessThanOrEqual(700)
    expect(text).toMatch(/\nFull record: `[^`]+LATEST\.md` \(`bookmark show`\)\.$/) // fitted: the foot is there
  })

  it('BOOKMARK_COMPACT_BUDGET bounds it', async () => {
    const text = await compactWith(WORKER, { BOOKMARK_COMPACT_BUDGET: '600' })
    expect(text.length).toBeLessThanOrEqual(600)
    expect(text).toContain('add a CSV export to the notes command')
  })
})
