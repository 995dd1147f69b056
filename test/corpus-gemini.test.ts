/**
 * Every Gemini CLI chat of the corpus (the real 0.61 JSONL files, the older one-object `.json` sessions, the
 * curated JSONL ones) through the Gemini host and the shared extraction, held to the facts an independent reader
 * (helpers/gemini-oracle.ts) finds, then to facts named by hand.
 */
import { existsSync, readdirSync } from 'node:fs'
import { isAbsolute, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { applyEntry, createDelta, createState } from '../src/extract/extract.js'
import type { ExtractState } from '../src/extract/model.js'
import { geminiHost } from '../src/hosts/gemini/host.js'
import { sniffHost } from '../src/hosts/codex/sniff.js'
import { readStart } from '../src/hosts/gemini/transcripts.js'
import { CORPUS } from './helpers/corpus.js'
import { geminiFacts } from './helpers/gemini-oracle.js'
import { tempDir } from './helpers/tmp.js'

function chats(): string[] {
  const dirs: [string, RegExp][] = [
    [join(CORPUS, 'gemini'), /\.jsonl?$/],
    [join(CORPUS, 'curated', 'gemini'), /\.jsonl?$/],
    [join(CORPUS, 'host-samples'), /^gemini-.*session-.*\.jsonl$/],
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

const FILES = chats()
if (FILES.length === 0) console.warn(`no Gemini chats under ${CORPUS}: the Gemini corpus tests are skipped (set BOOKMARK_CORPUS)`)

/** Where the older sessions' relative paths resolve: they name no folder. */
const SOMEWHERE = '/work/some-project'

async function extract(path: string, root: string): Promise<{ state: ExtractState; skipped: number }> {
  const state = createState()
  const delta = createDelta()
  const stats = await geminiHost.read!(path, undefined, undefined, (e) => applyEntry(state, e, { projectRoot: root }, delta))
  state.seen = stats.seen
  return { state, skipped: stats.skipped }
}

const name = (p: string) => p.slice(p.lastIndexOf('/') + 1)
const keyOf = (root: string, p: string) => (isAbsolute(p) ? relative(root, p) : p)

describe.skipIf(FILES.length === 0)('Gemini corpus: every chat against the oracle', () => {
  it.each(FILES.map((f) => [name(f), f]))('%s', async (_n, path) => {
    const facts = geminiFacts(path)
    const root = facts.cwd ?? SOMEWHERE
    const { state, skipped } = await extract(path, root)
    expect(sniffHost(await readStart(path))).toBe('gemini')
    expect(skipped).toBe(0)
    expect(state.recentPrompts.map((p) => p.text)).toEqual(facts.requests.slice(-5))
    expect(state.counts.prompts).toBe(facts.requests.length)
    if (facts.replies.length > 0) expect(state.lastAssistant?.text).toBe(facts.replies.at(-1))
    else expect(state.lastAssistant).toBeUndefined()
    const edited = Object.keys(state.files).filter((k) => state.files[k]!.tools.some((t) => t === 'Write' || t === 'Edit'))
    expect(edited.sort()).toEqual([...facts.files.keys()].map((p) => keyOf(root, p)).sort())
    for (const [p, op] of facts.files) {
      const rec = state.files[keyOf(root, p)]!
      // A file the shell removed afterwards is reported deleted.
      expect(rec.op === 'deleted' && rec.tools.includes('Bash') ? op : rec.op).toBe(op)
    }
    expect(state.tools.Bash ?? 0).toBe(facts.commands.length)
    expect(Object.keys(state.tools).filter((t) => t.startsWith('mcp__')).length).toBe(new Set(facts.mcpTools).size)
    expect(state.compactions).toHaveLength(facts.compressions)
    expect(new Set(Object.keys(state.models))).toEqual(facts.models)
    // How full the context was: the snapshot's usage, and what the check hook reads from the file's end.
    expect(state.usage ? { input: state.usage.contextTokens, model: state.usage.model } : undefined).toEqual(facts.lastReplyTokens)
    const tail = await geminiHost.usage!(path, root, { HOME: tempDir('bm-gem-home-') })
    expect(tail ? { input: tail.tokens, model: tail.model } : undefined).toEqual(facts.tailTokens)
  })
})

const at = (file: string) => FILES.find((f) => name(f) === file)
const sample = (id: string) => at(`gemini-0.61-session-${id}.jsonl`)

describe.skipIf(FILES.length === 0)('Gemini corpus: named facts', () => {
  const PROJ = '/home/dev/runs/w/proj'

  it.skipIf(!sample('2026-12-02T01-29-68de3b6c'))('0.61: write_file over a file and onto a new one, with their line diffs', async () => {
    const { state } = await extract(sample('2026-12-02T01-29-68de3b6c')!, PROJ)
    expect(state.recentPrompts.map((p) => p.text)).toEqual(['create hello.txt', 'write notes.md'])
    expect(state.files['hello.txt']).toMatchObject({ op: 'modified', added: 1, removed: 1, tools: ['Write'] })
    expect(state.files['notes.md']).toMatchObject({ op: 'created', added: 1, removed: 0, tools: ['Write'] })
    // Each reply was written twice (without, then with its calls): counted once.
    expect(state.tools).toEqual({ Write: 2 })
    expect(state.lastAssistant?.text).toBe('Done.')
    expect(state.cwd).toBe(PROJ)
  })

  it.skipIf(!sample('2026-12-02T01-28-f472ee27'))('0.61: replace is an edit with the diff Gemini recorded', async () => {
    const { state } = await extract(sample('2026-12-02T01-28-f472ee27')!, PROJ)
    expect(state.files['hello.txt']).toMatchObject({ op: 'modified', added: 1, removed: 1, tools: ['Edit'] })
    expect(state.recentPrompts.map((p) => p.text)).toEqual(['edit hello.txt'])
  })

  it.skipIf(!sample('2026-12-02T01-28-8d0b069e'))('0.61: run_shell_command is a shell call the file rules read', async () => {
    const { state } = await extract(sample('2026-12-02T01-28-8d0b069e')!, PROJ)
    expect(state.files['shell.txt']).toMatchObject({ op: 'created', tools: ['Bash'] })
    expect(state.errors).toEqual([])
  })

  it.skipIf(!sample('2026-12-02T01-29-3cfafae1'))('0.61: an MCP call is named by its server and tool', async () => {
    const { state } = await extract(sample('2026-12-02T01-29-3cfafae1')!, PROJ)
    expect(state.tools).toEqual({ mcp__bm__echo: 1 })
  })

  it.skipIf(!sample('2026-12-02T01-29-8c941e15'))('0.61: a compression is a compaction; hook context is never a request', async () => {
    const { state } = await extract(sample('2026-12-02T01-29-8c941e15')!, PROJ)
    expect(state.recentPrompts.map((p) => p.text)).toEqual(['fill context', 'say hi'])
    expect(state.compactions).toHaveLength(1)
    // The model's "Got it" to the summary is not the session's last reply.
    expect(state.lastAssistant?.text).toBe('ok')
    expect(JSON.stringify(state.prompts)).not.toMatch(/MARKER|session_context|state_snapshot/)
    // 900,000 tokens before the compression; the reply after it measured 100.
    expect(state.usage).toMatchObject({ contextTokens: 100, model: 'gemini-3.8-flash' })
  })

  it.skipIf(!at('gemini-legacy-json-shell-info-update-notice-f7633853.json'))(
    'older .json: a file written then removed by the shell, an append, git add',
    async () => {
      const { state } = await extract(at('gemini-legacy-json-shell-info-update-notice-f7633853.json')!, SOMEWHERE)
      expect(state.recentPrompts.map((p) => p.text)).toEqual(['run an agent that creates a color file inside docs, choose your color'])
      expect(state.files['docs/blue.md']).toMatchObject({ op: 'deleted', tools: ['Write', 'Bash'] })
      expect(state.files['docs/color.md']).toMatchObject({ op: 'modified', tools: ['Bash'] })
      expect(state.tools).toMatchObject({ Write: 1, Bash: 6, read_file: 2 })
    },
  )

  it.skipIf(!at('gemini-legacy-json-write-file-fa4593e0.json'))("older .json: the CLI's own 'Please continue.' is not a request", async () => {
    const { state } = await extract(at('gemini-legacy-json-write-file-fa4593e0.json')!, SOMEWHERE)
    expect(state.recentPrompts.map((p) => p.text)).toEqual(['write to test-gemini.txt "hello, gemini" only'])
    expect(state.files['test-gemini.txt']).toMatchObject({ op: 'modified', tools: ['Write'] })
  })

  it.skipIf(!at('gemini-legacy-json-read-write-file-faff42ab.json'))(
    'older .json: a read, then an overwrite, and the context size of the last reply',
    async () => {
      const path = at('gemini-legacy-json-read-write-file-faff42ab.json')!
      const { state } = await extract(path, SOMEWHERE)
      expect(state.recentPrompts.map((p) => p.text)).toEqual(['add new text to test-gemini.txt', '",how are you"'])
      // "Successfully overwrote file": the file was there before.
      expect(state.files['test-gemini.txt']).toMatchObject({ op: 'modified', tools: ['Write'] })
      expect(state.tools).toEqual({ read_file: 1, Write: 1 })
      expect(state.lastAssistant?.text).toBe('I have added the text ",how are you" to `test-gemini.txt`.')
      // Gemini counts cached tokens inside `input`: 12,075 is the whole prompt of the last call.
      expect(state.usage).toMatchObject({ contextTokens: 12_075, outputTokens: 19, model: 'gemini-2.5-flash' })
      expect(await geminiHost.usage!(path, SOMEWHERE, { HOME: tempDir('bm-gem-home-') })).toMatchObject({ tokens: 12_075, window: 524_288 })
    },
  )

  it.skipIf(!at('gemini-curated-jsonl-v040.jsonl'))('curated JSONL: a shell call inside the reply record, and a half-cached prompt', async () => {
    const path = at('gemini-curated-jsonl-v040.jsonl')!
    const { state } = await extract(path, SOMEWHERE)
    expect(state.recentPrompts.map((p) => p.text)).toEqual(['Say hello and list files.'])
    expect(state.tools).toEqual({ Bash: 1 })
    expect(state.lastAssistant?.text).toBe('Hello! I listed the files.')
    expect(state.usage).toMatchObject({ contextTokens: 12_069, model: 'gemini-3-flash-preview' })
    expect(await geminiHost.usage!(path, SOMEWHERE, { HOME: tempDir('bm-gem-home-') })).toMatchObject({ tokens: 12_069, model: 'gemini-3-flash-preview' })
  })

  it.skipIf(!at('gemini-curated-gitai-simple.jsonl'))(
    'curated JSONL without metadata: calls written with no result or status are not taken as run',
    async () => {
      const path = at('gemini-curated-gitai-simple.jsonl')!
      const { state } = await extract(path, SOMEWHERE)
      expect(state.recentPrompts.map((p) => p.text)).toEqual(['add another hello bob console log to @index.ts'])
      expect(state.tools).toEqual({})
      expect(Object.keys(state.files)).toEqual([])
      expect(state.lastAssistant?.text).toBe('Task complete.')
      expect(Object.keys(state.models)).toEqual(['gemini-2.5-flash'])
      // No reply recorded its tokens: nothing to say about the context.
      expect(state.usage).toBeUndefined()
      expect(await geminiHost.usage!(path, SOMEWHERE, { HOME: tempDir('bm-gem-home-') })).toBeUndefined()
    },
  )

  it.skipIf(!at('gemini-legacy-json-hook-failure-warning-only-29eb990e.json'))('older .json: a session of one warning holds nothing to record', async () => {
    const { state } = await extract(at('gemini-legacy-json-hook-failure-warning-only-29eb990e.json')!, SOMEWHERE)
    expect(state.counts).toMatchObject({ prompts: 0, entries: 1 })
    expect(state.lastAssistant).toBeUndefined()
  })
})
