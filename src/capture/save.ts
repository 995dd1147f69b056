/**
 * The capture proper, which saves (capture.ts decides it is needed): read the new part of the transcript, fold it
 * into the session's state, write a snapshot when something happened, then the cursor.
 */
import { basename, join } from 'node:path'
import type { Stats } from 'node:fs'
import { CAPS, type ExtractState, STATE_VERSION, reviveState } from '../extract/model.js'
import { SNAPSHOT_FIELDS, type Snapshot, toSnapshot } from '../snapshot/model.js'
import { LEDGER_CHECK_CAP, markFiles } from '../snapshot/ledger.js'
import type { Project } from '../repo/project.js'
import type { LedgerMemo } from '../repo/ledger-memo.js'
import { snapshotId, snapshotPath } from '../store/layout.js'
import { writeHomePointer } from '../narrative/pointer.js'
import { stampOf } from '../store/fs.js'
import { statOrNone } from '../shared/fsp.js'
import { addToRegistry } from '../store/registry.js'
import { SWEEP_EVERY, headFor } from '../store/store.js'
import { randomHex } from '../shared/random.js'
import { cutRedacted } from '../redact/secrets.js'
import { type CaptureResult, type CaptureTarget, FORCED } from './types.js'
import type { Deps } from '../shared/deps.js'
import { scan } from './scan.js'
import type { MemoryTap } from '../memory/capture.js'
import type { ReadStats, TranscriptCursor } from '../transcript/read.js'

export async function saveCapture(target: CaptureTarget, deps: Deps): Promise<CaptureResult> {
  const { req, transcript, sid, project, store, notes } = target
  await store.ensure()
  const root = store.layout.root

  return store.withSessionLock(sid, async () => {
    const loaded = await store.loadCursor(sid)
    if (loaded.problem) notes.push(`cursor for session ${sid} was unreadable (${loaded.problem}); reading the transcript from the start`)
    let previous = loaded.head
    let prevState: ExtractState | undefined
    let prior: unknown
    if (previous) {
      const s = await store.loadState(previous)
      if (s.problem) notes.push(`state for session ${sid} was unusable (${s.problem}); reading the transcript from the start`)
      prevState = s.state
      prior = s.prior
    }
    // A state made with the `subagents` key the other way holds (or lacks) the subagents' activity: read again.
    const sameSubagents = (prevState?.subagentsLeftOut === true) === !deps.subagents
    if (!previous || !prevState || previous.transcript !== transcript || prevState.version !== STATE_VERSION || !sameSubagents) {
      previous = undefined
      prevState = undefined
    }

    const tap = await openTap(deps, target.host.id, transcript, sid, previous?.cursor, notes)
    const scanned = await scan(
      {
        host: target.host.id,
        transcript,
        cursor: previous?.cursor,
        state: prevState ? reviveState(prevState) : undefined,
        ctx: { projectRoot: root, subagents: deps.subagents },
      },
      undefined,
      tap,
    )
    const { state, delta, stats } = scanned
    // The transcript's stamp right after the read, kept when the read reached its end (a file appended to since is
    // longer than the cursor: no stamp, and the next capture compares bytes as before).
    const after = await statOrNone(transcript).catch(() => undefined)
    if (stats.restarted) notes.push('the transcript shrank or was rewritten since the last capture: read again from the start')
    state.sessionId = sid
    if (!deps.subagents) state.subagentsLeftOut = true

    const happened = delta.touched.size > 0 || delta.prompts > 0 || delta.assistantTexts > 0
    // The Stop payload's message as it would be stored (redacted, then cut), compared with what is stored.
    const message =
      req.lastAssistantMessage !== undefined && req.lastAssistantMessage.trim() !== '' ? cutRedacted(req.lastAssistantMessage, CAPS.assistantText) : undefined
    const messageIsNew = message !== undefined && message !== state.lastAssistant?.text && message !== previous?.lastHookMessage
    let lastSnapshot = previous?.lastSnapshot
    let ledger = loaded.head?.ledger
    const result: CaptureResult = {
      projectRoot: root,
      sessionId: sid,
      transcript,
      written: false,
      reason: '',
      stats,
      notes,
      state,
      work: { files: [], prompts: [] },
    }

    const record = happened || messageIsNew || FORCED.has(req.trigger)
    if (!record) {
      result.reason = lastSnapshot ? 'no new activity since the last capture' : 'nothing to record yet: no request, reply or changed file in this session'
      // Nothing read, nothing to record (a long Stop message that only looked new to capture.ts): nothing to write.
      if (previous && stats.bytesRead === 0 && !stats.restarted && stats.cursor.offset === previous.cursor.offset) {
        result.work = previous.work
        if (tap) await closeTap(tap, stats, after, store, notes, deps)
        return result
      }
    }
    // Redacted once: the snapshot, the head and the state file are all built from this copy. What the stored state
    // held (`prior`, as read) was redacted when it was written: its strings are not redacted again.
    const stored = await store.redactState(state, prevState ? prior : undefined)
    if (record) {
      const now = deps.now()
      const id = snapshotId(now, deps.random4())
      const built = toSnapshot(stored, {
        id,
        createdAt: now.toISOString(),
        trigger: req.trigger,
        projectRoot: root,
        projectName: basename(root),
        sessionId: sid,
        host: target.host.id,
        capture: {
          transcript,
          bytesRead: stats.bytesRead,
          lines: stats.lines,
          skipped: stats.skipped,
          entries: stats.entries,
          restarted: stats.restarted,
          offset: stats.cursor.offset,
          ...(deps.subagents ? {} : { subagentsLeftOut: true as const }),
        },
        ...(req.lastAssistantMessage !== undefined ? { lastAssistantMessage: req.lastAssistantMessage } : {}),
      })
      const { snapshot, memo } = await withGitMarks(built, project, notes, loaded.head?.ledger)
      ledger = memo
      const tidy = !previous || FORCED.has(req.trigger) || ((previous.captures ?? 0) + 1) % SWEEP_EVERY === 0
      // A marked file is a state record plus one of the ledger's words: as redacted as the record it copies.
      const marked = snapshot.files.filter((f, i) => f !== built.files[i])
      const { pruned, snapshot: written } = await store.saveSnapshot(snapshot, [...delta.touched], {
        from: stored,
        fieldNames: SNAPSHOT_FIELDS,
        alsoClean: marked,
        tidy,
      })
      try {
        await addToRegistry(
          deps.bookmarkHome,
          {
            project: root,
            snapshotId: id,
            sessionId: sid,
            createdAt: snapshot.createdAt,
            task: snapshot.task ? snapshot.task.slice(0, 200) : null,
            ...(snapshot.session.branch ? { branch: snapshot.session.branch } : {}),
          },
          deps.registryCap,
          pruned,
          tidy,
          deps.lockDeadline,
        )
      } catch (e) {
        notes.push(`registry not updated: ${(e as Error).message}`)
        await store.logError(`${now.toISOString()} registry not updated: ${(e as Error).message}`).catch(() => undefined)
      }
      try {
        // The latest active project wins the home pointer.
        const git = await project.git()
        await writeHomePointer(deps.bookmarkHome, { projectRoot: root, project: basename(root), sessionId: sid, task: snapshot.task, ...git }, now)
      } catch (e) {
        notes.push(`home pointer not updated: ${(e as Error).message}`)
        await store.logError(`${now.toISOString()} home pointer not updated: ${(e as Error).message}`).catch(() => undefined)
      }
      lastSnapshot = id
      result.written = true
      result.snapshot = written // as stored: redacted
      result.snapshotFile = snapshotPath(store.layout, id)
      result.reason = `snapshot ${id} written`
    }

    const head = headFor(
      stored,
      {
        sessionId: sid,
        transcript,
        cursor: stats.cursor,
        ...(after && after.size === stats.cursor.offset ? { transcriptStamp: stampOf(after) } : {}),
        updatedAt: deps.now().toISOString(),
        bytesReadTotal: (stats.restarted ? 0 : (previous?.bytesReadTotal ?? 0)) + stats.bytesRead,
        captures: (previous?.captures ?? 0) + 1,
        ...(lastSnapshot ? { lastSnapshot } : {}),
        ...(ledger ? { ledger } : {}),
        ...(messageIsNew && message !== undefined
          ? { lastHookMessage: message }
          : previous?.lastHookMessage
            ? { lastHookMessage: previous.lastHookMessage }
            : {}),
      },
      `${Date.now().toString(36)}-${randomHex(4)}`,
    )
    result.work = head.work
    await store.saveCursor(head, stored)
    if (tap) await closeTap(tap, stats, after, store, notes, deps)
    return result
  })
}

/**
 * The search memory's tap on this capture's read (memory/capture.ts): only when the memory store exists (without
 * one, none of its code is loaded). A problem with it costs the memory its events, never the capture.
 */
async function openTap(
  deps: Deps,
  host: CaptureTarget['host']['id'],
  transcript: string,
  sid: string,
  from: TranscriptCursor | undefined,
  notes: string[],
): Promise<MemoryTap | undefined> {
  if ((await statOrNone(join(deps.bookmarkHome, 'memory', 'log.json')).catch(() => undefined)) === undefined) return undefined
  try {
    const { memoryTap } = await import('../memory/capture.js')
    return await memoryTap(deps.bookmarkHome, host, transcript, sid, from)
  } catch (e) {
    notes.push(`search memory not updated: ${(e as Error).message}`)
    return undefined
  }
}

async function closeTap(tap: MemoryTap, stats: ReadStats, after: Stats | undefined, store: CaptureTarget['store'], notes: string[], deps: Deps): Promise<void> {
  try {
    await tap.finish(stats, after)
  } catch (e) {
    notes.push(`search memory not updated: ${(e as Error).message}`)
    await store.logError(`${deps.now().toISOString()} search memory not updated: ${(e as Error).message}`).catch(() => undefined)
  }
}

/**
 * The snapshot with its most recent files marked with what git says of them now (snapshot/ledger.ts); as it was
 * when the project is no git repository or git's files cannot be read here.
 */
async function withGitMarks(s: Snapshot, project: Project, notes: string[], memo: unknown): Promise<{ snapshot: Snapshot; memo?: LedgerMemo }> {
  if (s.files.length === 0) return { snapshot: s }
  try {
    const checked = await project.ledger(
      s.files.slice(0, LEDGER_CHECK_CAP).map((f) => f.path),
      s.session.firstTs,
      memo,
    )
    return checked.facts === undefined
      ? { snapshot: s }
      : { snapshot: { ...s, files: markFiles(s.files, checked.facts, s.git) }, ...(checked.memo ? { memo: checked.memo } : {}) }
  } catch (e) {
    notes.push(`files not checked against git: ${(e as Error).message}`)
    return { snapshot: s }
  }
}
