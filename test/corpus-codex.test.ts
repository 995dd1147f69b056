/**
 * Every Codex rollout of the corpus (0.140 to 0.142, the 0.146 schema fixture, the real 0.171 ones) through the
 * Codex host and the shared extraction, held to the facts an independent reader (helpers/codex-oracle.ts) finds.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { applyEntry, createDelta, createState } from '../src/extract/extract.js'
import type { ExtractState } from '../src/extract/model.js'
import { codexHost } from '../src/hosts/codex/host.js'
import { sniffHost } from '../src/hosts/codex/sniff.js'
import { readTranscript } from '../src/transcript/read.js'
import { CORPUS } from './helpers/corpus.js'
import { codexFacts } from './helpers/codex-oracle.js'

function rollouts(): string[] {
  const dirs: [string, RegExp][] = [
    [join(CORPUS, 'codex'), /\.jsonl$/],
    [join(CORPUS, 'curated', 'codex'), /\.jsonl$/],
    [join(CORPUS, 'host-samples'), /^codex-.*rollout.*\.jsonl$/],
  ]
  return dirs.flatMap(([dir, pattern]) =>
    existsSync(dir)
      ? readdirSync(dir)
          .filter((n) => pattern.test(n))
          .sort()
          .map((n) => join(dir, n))
      : [],
  )
}

const FILES = rollouts()
if (FILES.length === 0) console.warn(`no Codex rollouts under ${CORPUS}: the Codex corpus tests are skipped (set BOOKMARK_CORPUS)`)

async function extract(path: string, root: string): Promise<{ state: ExtractState; skipped: number }> {
  const state = createState()
  const delta = createDelta()
  const stats = await readTranscript(path, undefined, codexHost.parseLine, (e) => applyEntry(state, e, { projectRoot: root }, delta))
  return { state, skipped: stats.skipped }
}

const name = (p: string) => p.slice(p.lastIndexOf('/') + 1)

describe.skipIf(FILES.length === 0)('Codex corpus: every rollout against the oracle', () => {
  it.each(FILES.map((f) => [name(f), f]))('%s', async (_n, path) => {
    const facts = codexFacts(path)
    const { state, skipped } = await extract(path, facts.cwd ?? '/')
    expect(sniffHost(readFileSync(path, 'utf8').slice(0, 4096))).toBe('codex')
    expect(skipped).toBe(0)
    expect(facts.requests.length).toBeGreaterThan(0)
    expect(state.counts.prompts).toBe(facts.requests.length)
    expect(state.recentPrompts.at(-1)?.text).toBe(facts.requests.at(-1))
    for (const words of facts.injected) expect(state.recentPrompts.map((p) => p.text)).not.toContain(words)
    const patched = (table: Record<string, { tools: string[] }>) =>
      Object.entries(table)
        .filter(([, r]) => r.tools.includes('apply_patch'))
        .map(([k]) => k)
        .sort()
    expect(patched(state.files)).toEqual([...facts.insideFiles].sort())
    expect(patched(state.outside)).toEqual([...facts.outsideFiles].sort())
    expect(state.tools.Bash ?? 0).toBe(facts.commands)
    expect(state.compactions).toHaveLength(facts.compactions)
    expect(new Set(Object.keys(state.models))).toEqual(facts.models)
    expect(state.counts.interrupts).toBe(facts.interrupts)
  })
})

const at = (file: string) => FILES.find((f) => name(f) === file)

describe.skipIf(FILES.length === 0)('Codex corpus: named facts', () => {
  it.skipIf(!at('codex-0.142.2-spark-model-compacted2-patch-019f03e0.jsonl'))('0.142.2: the patched docs, the model and both compactions', async () => {
    const path = at('codex-0.142.2-spark-model-compacted2-patch-019f03e0.jsonl')!
    const { state } = await extract(path, '/home/entity/projects/EntityProcess/agentv')
    expect(state.files['apps/web/src/content/docs/docs/graders/composite.mdx']).toMatchObject({ op: 'modified', tools: ['apply_patch'] })
    expect(state.files['examples/features/composite/scripts/or-aggregator.js']).toMatchObject({ op: 'created' })
    expect(state.files['examples/features/composite/scripts/or-aggregator.js']!.hints).toContain('+fn getScore')
    expect(Object.keys(state.models)).toEqual(['gpt-5.3-codex-spark'])
    expect(state.compactions).toHaveLength(2)
    expect(state.git.map((g) => g.event)).toContainEqual(
      expect.objectContaining({ kind: 'commit', message: 'docs(examples): update composite strict-or example to bun run' }),
    )
  })

  it.skipIf(!at('codex-0.140.0-small-gpt54-unanswered-calls-019ed836.jsonl'))(
    '0.140: the deleted plugin files with their removed lines, and the plan',
    async () => {
      const { state } = await extract(at('codex-0.140.0-small-gpt54-unanswered-calls-019ed836.jsonl')!, '/home/entity/projects/EntityProcess/agentv')
      expect(state.recentPrompts.map((p) => p.text)).toEqual(['remove agentv-claude-trace plugin no longer needed, can merge directly', 'please push'])
      expect(state.files['plugins/agentv-claude-trace/lib/otel.ts']).toMatchObject({ op: 'deleted', removed: 93 })
      expect(state.files['.github/plugin/marketplace.json']).toMatchObject({ op: 'modified', removed: 5 })
      expect(state.todos?.map((t) => t.status)).toEqual(['completed', 'completed', 'completed'])
    },
  )

  it.skipIf(!at('codex-0.142.4-tool-search-mcp-compacted2-019f17a5.jsonl'))('0.142.4: the MCP calls by their qualified names', async () => {
    const { state } = await extract(at('codex-0.142.4-tool-search-mcp-compacted2-019f17a5.jsonl')!, '/home/entity/projects/EntityProcess/agentv')
    expect(state.tools).toMatchObject({ mcp__deepwiki__read_wiki_structure: 2, mcp__deepwiki__ask_question: 2 })
  })

  it.skipIf(!at('codex-0.171-exec-rollout-4-create-hello-txt.jsonl'))(
    '0.171: the Stop reason is no request, and the file it asked for is recorded',
    async () => {
      const { state } = await extract(at('codex-0.171-exec-rollout-4-create-hello-txt.jsonl')!, '/home/dev/runs/w/proj')
      expect(state.recentPrompts.map((p) => p.text)).toEqual(['create hello.txt'])
      expect(Object.keys(state.files).sort()).toEqual(['hello.txt', 'notes.md'])
    },
  )

  it.skipIf(!at('codex-0.171-tui-rollout-compact-then-clear.jsonl'))('0.171 TUI: /compact is one compaction, not a request', async () => {
    const { state } = await extract(at('codex-0.171-tui-rollout-compact-then-clear.jsonl')!, '/home/dev/runs/w/proj')
    expect(state.recentPrompts.map((p) => p.text)).toEqual(['create hello.txt', 'say hi'])
    expect(state.compactions).toHaveLength(1)
    expect(state.lastAssistant?.text).toBe('ok')
  })

  const hookLog = join(CORPUS, 'host-samples', 'codex-0.171-hook-log.jsonl')
  it.skipIf(!existsSync(hookLog))('0.171 hook payloads: every one read into the shared event', () => {
    const lines = readFileSync(hookLog, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
    expect(lines.length).toBeGreaterThan(40)
    for (const line of lines) {
      const stdin = JSON.parse(line).stdin
      const { event, notes } = codexHost.readPayload(typeof stdin === 'string' ? stdin : JSON.stringify(stdin), false)
      const raw = typeof stdin === 'string' ? JSON.parse(stdin) : stdin
      expect(notes).toEqual([])
      expect(event).toMatchObject({ sessionId: raw.session_id, cwd: raw.cwd, eventName: raw.hook_event_name })
      if (raw.hook_event_name === 'Stop') expect(event.stopHookActive).toBe(raw.stop_hook_active)
      if (raw.hook_event_name === 'SessionStart') expect(['startup', 'resume', 'clear', 'compact']).toContain(event.source)
    }
  })
})
