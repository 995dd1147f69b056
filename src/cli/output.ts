/** Text renderings of command results for people (stdout); `--json` prints the data instead. */
import type { CaptureResult } from '../capture/capture.js'
import type { Status } from '../commands/query.js'
import { offLine } from '../config/switch.js'
import type { DemoResult } from '../commands/demo.js'
import { openTasks } from '../snapshot/model.js'
import { oneLine } from '../snapshot/render.js'
import type { RegistryEntry } from '../store/registry.js'
import type { IndexEntry } from '../store/store.js'
import type { Restores } from '../store/stats.js'

/** `1 request`, `2 requests`: the demo and snapshot lines read as English. */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

export function captureText(r: CaptureResult): string {
  const lines: string[] = []
  if (r.snapshot && r.snapshotFile) {
    const s = r.snapshot
    lines.push(`Snapshot ${s.id} written for session ${s.session.id}`)
    lines.push(`  project:  ${r.projectRoot}`)
    lines.push(`  file:     ${r.snapshotFile}`)
    lines.push(`  latest:   ${r.projectRoot}/.bookmark/LATEST.md`)
    lines.push(`  read:     ${r.stats.bytesRead} bytes, ${r.stats.lines} lines (${r.stats.skipped} skipped)`)
    lines.push(
      `  captured: ${count(s.requests.count, 'request')}, ${count(s.files.length, 'file')} changed, ${count(openTasks(s).length, 'open task')}, ${count(s.git.length, 'git event')}, ${count(s.errors.filter((e) => !e.resolved).length, 'unresolved error')}`,
    )
  } else {
    lines.push(`No snapshot written: ${r.reason}`)
    lines.push(`  project:  ${r.projectRoot}`)
    lines.push(`  read:     ${r.stats.bytesRead} bytes, ${r.stats.lines} lines`)
  }
  return lines.join('\n')
}

export function statusText(s: Status): string {
  const lines = [
    `Project:   ${s.projectRoot}`,
    `Store:     ${s.storeDir}`,
    `State:     ${s.stateDir ?? '(none yet: made by the first capture)'}`,
    `Snapshots: ${s.snapshots} (sessions captured: ${s.sessions})`,
  ]
  if (s.latest) {
    lines.push(`Latest:    ${s.latest.id} (${s.latest.trigger}) ${s.latest.createdAt}, session ${s.latest.sessionId}`)
    if (s.latest.task) lines.push(`Task:      ${oneLine(s.latest.task, 100)}`)
    lines.push(`Files:     ${s.latest.files} changed`)
  } else {
    lines.push('Latest:    none yet (run `bookmark snapshot`, or let the hooks capture)')
  }
  lines.push(
    `Narrative: ${s.narrativeBlocks} Stop block${s.narrativeBlocks === 1 ? '' : 's'} asked the model for the handoff; ${s.handoffsWritten} handoff${s.handoffsWritten === 1 ? '' : 's'} written (${s.handoffsAnswered} after a block); ${s.compactions} compaction${s.compactions === 1 ? '' : 's'} seen`,
    `Restores:  ${restoresLine(s.restores)}`,
  )
  const c = s.capture
  lines.push(`Capture:   ${c.offBy ? offLine(c.offBy) : 'on'}`)
  if (c.sessionsOff.length)
    lines.push(
      `           off for session${c.sessionsOff.length === 1 ? '' : 's'} ${c.sessionsOff.map((o) => o.sessionId).join(', ')} (\`bookmark on --session ID\`)`,
    )
  lines.push(`Registry:  ${s.registryEntries} entries for this project in ${s.bookmarkHome}/registry.json`)
  for (const p of s.problems) lines.push(`Problem:   ${p}`)
  return lines.join('\n')
}

/** The restores given, as `bookmark status` and the explorer say it. */
export function restoresLine(r: Restores): string {
  if (r.count === 0 || r.last === null) return 'none given yet'
  return `${r.count} given, ${r.average} characters on average, the largest ${r.largest}, the last ${r.last.chars} (${r.last.source}, ${r.last.at})`
}

export function indexText(projectRoot: string, entries: IndexEntry[], total: number): string {
  if (entries.length === 0) return `No snapshots in ${projectRoot}/.bookmark yet.`
  const lines = entries.map(
    (e) => `${e.id}  ${e.trigger.padEnd(11)} ${String(e.files).padStart(3)} files  ${e.sessionId.slice(0, 8)}  ${e.task ? oneLine(e.task, 60) : ''}`,
  )
  if (total > entries.length) lines.push(`(${entries.length} of ${total}; --limit N for more)`)
  return lines.join('\n')
}

export function registryText(entries: RegistryEntry[], total: number): string {
  if (entries.length === 0) return 'No snapshots registered in any project yet.'
  const lines = entries.map((e) => `${e.snapshotId}  ${e.project}  ${e.task ? oneLine(e.task, 50) : ''}`)
  if (total > entries.length) lines.push(`(${entries.length} of ${total}; --limit N for more)`)
  return lines.join('\n')
}

export function demoText(d: DemoResult): string {
  const s = d.result.snapshot
  const lines: string[] = []
  lines.push('bookmark demo: captured the sample session that ships with the package.')
  lines.push(`It ran in a temporary folder and touched nothing of yours: ${d.folder}`)
  lines.push('')
  lines.push(`Transcript: ${d.transcript}`)
  lines.push(`Project:    ${d.projectRoot}`)
  if (s) {
    lines.push(`Snapshot:   ${d.result.snapshotFile}`)
    lines.push(
      `Captured:   ${count(s.requests.count, 'request')}, ${count(s.files.length, 'file')} changed, ${count(s.tasks.items.length, 'task')} (${openTasks(s).length} open), ${count(s.git.length, 'git event')}, ${count(s.errors.length, 'error')} (${s.errors.filter((e) => !e.resolved).length} unresolved)`,
    )
  }
  lines.push(`LATEST.md:  ${d.latestPath}`)
  lines.push('')
  lines.push('----- LATEST.md -----')
  lines.push(d.latest.trimEnd())
  lines.push('---------------------')
  lines.push('')
  lines.push('The handoff: in a real session the Stop hook now asks the running model, once, to write it:')
  lines.push(`  "${d.handoffAsked}"`)
  lines.push(`Here the sample answer was written for you: ${d.handoffPath}`)
  lines.push('')
  lines.push(`What the next session in this project receives at SessionStart (${d.nextSession?.length ?? 0} characters):`)
  lines.push('----- additionalContext -----')
  lines.push((d.nextSession ?? '(nothing)').trimEnd())
  lines.push('-----------------------------')
  lines.push('')
  lines.push(`The demo's folder stays for you to look at: ${d.folder} (delete it when done).`)
  lines.push(
    'To use bookmark in your own sessions: `npm pack && npm install -g ./session-bookmark-*.tgz`, then `bookmark setup` and `bookmark doctor` (README, Install).',
  )
  return lines.join('\n')
}
