/**
 * The benchmark (`npm run bench`, bench/run.mjs): its transcript generator on a small hand-made session,
 * then a BENCH_QUICK run against the built CLI with the real corpus. Facts only, never a time: every case
 * row is there with numbers, one verdict per goal, exit 0, and the generated transcripts are re-id'd and
 * relocated. The bench's sandboxes live in a temp folder; HOME of the harness points into it too.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { CORPUS_PRESENT, REPO_ROOT } from './helpers/corpus.js'
import { tempDir } from './helpers/tmp.js'

interface Source {
  name: string
  root: string
  bytes: number
  lines: number
}
interface Generated {
  bytes: number
  lines: number
  repetitions: { source: string; sessionId: string; firstLine: number; lines: number }[]
  lastUuid: string
  lastAssistantText: string
}
interface Turn {
  source: Source
  lines: unknown[]
}
interface CorpusModule {
  describeSource: (path: string) => Source
  buildTranscript: (
    path: string,
    o: { sources: Source[]; targetBytes: number; projectDir: string; sessionId?: string; whole?: boolean; now?: number },
  ) => Generated
  findTurn: (sources: Source[]) => Turn | undefined
  newTurn: (
    turn: Turn,
    o: { sessionId: string; projectDir: string; parentUuid: string | null; at?: number },
  ) => { text: string; lastUuid: string; lastAssistantText: string }
}

// The bench is plain Node ESM outside the TypeScript project: loaded by URL, typed by the interface above.
const corpus = (await import(pathToFileURL(join(REPO_ROOT, 'bench', 'lib', 'corpus.mjs')).href)) as CorpusModule

/** A parsed transcript line: any shape. */
type Line = Record<string, any>
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

function parseLines(text: string): Line[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Line)
}

const ROOT = '/Users/dev/acme'
const SID = '11111111-2222-4333-8444-555555555555'

/** A small session in the shapes Claude Code writes: a request, an Edit, its result, a reply, a subagent. */
function handMade(): string {
  const base = (uuid: string, parentUuid: string | null, ts: string) => ({
    parentUuid,
    isSidechain: false,
    userType: 'external',
    cwd: ROOT,
    sessionId: SID,
    version: '2.1.42',
    gitBranch: 'main',
    uuid,
    timestamp: ts,
  })
  const lines = [
    {
      ...base('aaaaaaaa-0000-4000-8000-000000000001', null, '2026-02-15T09:00:00.000Z'),
      type: 'user',
      promptId: 'bbbbbbbb-0000-4000-8000-000000000009',
      message: { role: 'user', content: 'Rename the helper in src/util.ts' },
    },
    {
      ...base('aaaaaaaa-0000-4000-8000-000000000002', 'aaaaaaaa-0000-4000-8000-000000000001', '2026-02-15T09:00:05.000Z'),
      type: 'assistant',
      requestId: 'req_011CY83F5TsFNd8vuLg3sWgC',
      message: {
        id: 'msg_01K1byR2WdnR2BTn1xF1k6PE',
        role: 'assistant',
        model: 'claude-opus-4-6',
        content: [
          {
            type: 'tool_use',
            id: 'toolu_01BMy92yKNbatrAJqF9zreXg',
            name: 'Edit',
            input: { file_path: `${ROOT}/src/util.ts`, old_string: 'a', new_string: 'b' },
          },
        ],
      },
    },
    {
      ...base('aaaaaaaa-0000-4000-8000-000000000003', 'aaaaaaaa-0000-4000-8000-000000000002', '2026-02-15T09:00:06.000Z'),
      type: 'user',
      sourceToolAssistantUUID: 'aaaaaaaa-0000-4000-8000-000000000002',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_01BMy92yKNbatrAJqF9zreXg', content: `The file ${ROOT}/src/util.ts has been updated.` }],
      },
      toolUseResult: { filePath: `${ROOT}/src/util.ts`, oldString: 'a', newString: 'b', structuredPatch: [] },
    },
    {
      ...base('aaaaaaaa-0000-4000-8000-000000000004', 'aaaaaaaa-0000-4000-8000-000000000003', '2026-02-15T09:00:09.000Z'),
      type: 'assistant',
      requestId: 'req_011CY83F5TsFNd8vuLg3sWgD',
      message: {
        id: 'msg_01K1byR2WdnR2BTn1xF1k6PF',
        role: 'assistant',
        model: 'claude-opus-4-6',
        content: [{ type: 'text', text: `Renamed; see ${ROOT}/src/util.ts (the copy in /Users/dev/acme-old stays).` }],
      },
    },
    {
      ...base('aaaaaaaa-0000-4000-8000-000000000005', 'aaaaaaaa-0000-4000-8000-000000000004', '2026-02-15T09:10:00.000Z'),
      cwd: `${ROOT}/web`,
      type: 'progress',
      data: { type: 'agent_progress', agentId: 'ad86772', prompt: 'look around' },
      toolUseID: 'cccccccc-0000-4000-8000-000000000001',
    },
    {
      ...base('aaaaaaaa-0000-4000-8000-000000000006', 'aaaaaaaa-0000-4000-8000-000000000005', '2026-02-15T09:20:00.000Z'),
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01Je27w49hu8demPWHTpnuzA', content: 'agent ad86772 done' }] },
      toolUseResult: { agentId: 'ad86772' },
    },
  ]
  return lines.map((l) => `${JSON.stringify(l)}\n`).join('')
}

describe('bench generator: re-id and relocation of a repeated session', () => {
  const project = '/work/bench project'
  const sessionId = '99999999-8888-4777-8666-555555555555'
  const now = Date.UTC(2026, 10, 1)
  const original = parseLines(handMade())
  let source: Source
  let gen: Generated
  let out: string
  let lines: Line[]
  let reps: Line[][]
  beforeAll(() => {
    const dir = tempDir('bm-bench-test-gen-')
    const sourcePath = join(dir, 'session.jsonl')
    writeFileSync(sourcePath, handMade())
    source = corpus.describeSource(sourcePath)
    out = join(dir, 'out.jsonl')
    gen = corpus.buildTranscript(out, { sources: [source], targetBytes: 3 * source.bytes, projectDir: project, sessionId, now })
    lines = parseLines(readFileSync(out, 'utf8'))
    reps = gen.repetitions.map((r) => lines.slice(r.firstLine, r.firstLine + r.lines))
  })

  it('repeats the session whole, three times', () => {
    expect(source.root).toBe(ROOT)
    expect(reps.map((r) => r.length)).toEqual([6, 6, 6])
    expect(gen.lines).toBe(18)
    expect(gen.bytes).toBe(readFileSync(out).length)
  })

  it('gives every line the bench session id and moves the project folder, not its siblings', () => {
    for (const l of lines) {
      expect(l.sessionId).toBe(sessionId)
      expect(l.cwd === project || l.cwd.startsWith(`${project}/`)).toBe(true)
    }
    const text = readFileSync(out, 'utf8')
    expect(text).not.toContain(`${ROOT}/`)
    expect(text).toContain('/Users/dev/acme-old')
    expect(reps[0]![1]!.message.content[0].input.file_path).toBe(`${project}/src/util.ts`)
    expect(reps[0]![4]!.cwd).toBe(`${project}/web`)
  })

  it('renews uuids, message, request, tool_use and agent ids per repetition, consistently within it', () => {
    const ids = (r: Line[]) => new Set(r.flatMap((l) => [l.uuid, l.promptId, l.toolUseID, l.requestId, l.message?.id, l.data?.agentId].filter(Boolean)))
    const sets = [ids(original), ...reps.map(ids)]
    for (let i = 0; i < sets.length; i++) for (let j = i + 1; j < sets.length; j++) expect([...sets[i]!].filter((x) => sets[j]!.has(x))).toEqual([])
    for (const r of reps) {
      const uuids = new Set(r.map((l) => l.uuid))
      for (const l of r) {
        expect(l.uuid).toMatch(UUID)
        if (l.parentUuid !== null) expect(uuids.has(l.parentUuid)).toBe(true)
      }
      const useId = r[1]!.message.content[0].id as string
      expect(useId).toMatch(/^toolu_[A-Za-z0-9]{24}$/)
      expect(useId).not.toBe('toolu_01BMy92yKNbatrAJqF9zreXg')
      expect(r[2]!.message.content[0].tool_use_id).toBe(useId)
      expect(r[2]!.sourceToolAssistantUUID).toBe(r[1]!.uuid)
      expect(r[1]!.message.id).toMatch(/^msg_[A-Za-z0-9]{24}$/)
      expect(r[1]!.requestId).toMatch(/^req_[A-Za-z0-9]{24}$/)
      expect(r[4]!.data.agentId).toMatch(/^[0-9a-f]{7}$/)
      expect(r[4]!.data.agentId).not.toBe('ad86772')
      expect(r[5]!.toolUseResult.agentId).toBe(r[4]!.data.agentId)
      expect(r[5]!.message.content[0].content).toBe(`agent ${r[4]!.data.agentId} done`)
    }
  })

  it('shifts time so the repetitions follow each other and end before now', () => {
    const times = lines.map((l) => Date.parse(l.timestamp))
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThan(times[i - 1]!)
    expect(times[times.length - 1]!).toBeLessThan(now)
    expect(times[6]! - times[0]!).toBe(20 * 60_000 + 60_000)
  })

  it('reports where the chain ends, for the new turns', () => {
    expect(gen.lastUuid).toBe(reps[2]![5]!.uuid)
    expect(gen.lastAssistantText).toBe(reps[2]![3]!.message.content[0].text)
  })

  it('makes one new turn: request, Edit, result, reply, chained and fresh every time', () => {
    const turn = corpus.findTurn([source])
    expect(turn).toBeDefined()
    const a = corpus.newTurn(turn!, { sessionId, projectDir: project, parentUuid: gen.lastUuid, at: now })
    const b = corpus.newTurn(turn!, { sessionId, projectDir: project, parentUuid: a.lastUuid, at: now + 5000 })
    const [p, t, r, x] = parseLines(a.text)
    expect([p!.type, t!.type, r!.type, x!.type]).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(p!.parentUuid).toBe(gen.lastUuid)
    expect(t!.parentUuid).toBe(p!.uuid)
    expect(r!.parentUuid).toBe(t!.uuid)
    expect(x!.parentUuid).toBe(r!.uuid)
    expect(r!.message.content[0].tool_use_id).toBe(t!.message.content[0].id)
    expect(t!.message.content[0].input.file_path).toBe(`${project}/src/util.ts`)
    expect(a.lastAssistantText).toContain(`${project}/src/util.ts`)
    const second = parseLines(b.text)
    expect(second[0]!.parentUuid).toBe(x!.uuid)
    expect(second.map((l) => l.uuid).filter((u) => [p, t, r, x].some((l) => l!.uuid === u))).toEqual([])
    expect(second[1]!.message.content[0].id).not.toBe(t!.message.content[0].id)
  })

  it('whole: sessions never cut, each repetition its own session id, a Windows session kept where it was', () => {
    const dir = tempDir('bm-bench-test-whole-')
    const win = join(dir, 'windows.jsonl')
    writeFileSync(win, handMade().replaceAll(JSON.stringify(ROOT).slice(1, -1), 'D:\\\\acme'))
    const windows = corpus.describeSource(win)
    const file = join(dir, 'whole.jsonl')
    const g = corpus.buildTranscript(file, { sources: [source, windows], targetBytes: Math.round(source.bytes * 1.5), projectDir: project, whole: true, now })
    const all = parseLines(readFileSync(file, 'utf8'))
    expect(g.repetitions.map((r) => [r.source, r.lines])).toEqual([
      ['session.jsonl', 6],
      ['windows.jsonl', 6],
    ])
    expect(all).toHaveLength(12)
    const [first, second] = g.repetitions.map((r) => all.slice(r.firstLine, r.firstLine + r.lines))
    expect(new Set(first!.map((l) => l.sessionId))).toEqual(new Set([g.repetitions[0]!.sessionId]))
    expect(new Set(second!.map((l) => l.sessionId))).toEqual(new Set([g.repetitions[1]!.sessionId]))
    expect(g.repetitions[0]!.sessionId).not.toBe(g.repetitions[1]!.sessionId)
    expect(g.repetitions[0]!.sessionId).not.toBe(SID)
    expect(first![0]!.cwd).toBe(project)
    expect(second![0]!.cwd).toBe('D:\\acme')
    expect(second![1]!.message.content[0].input.file_path).toBe('D:\\acme/src/util.ts')
    const uuids = all.map((l) => l.uuid)
    expect(new Set(uuids).size).toBe(uuids.length)
  })
})

interface Case {
  id: string
  label: string
  kind: 'hook' | 'capture' | 'search'
  n: number
  median: number
  p10: number
  p90: number
  bare: number
  ratio: number
  pairRatio: number
  rssMb: number
}
interface Results {
  cases: Case[]
  goals: { label: string; pass: boolean; measured: string }[]
  transcripts: {
    label: string
    path: string
    bytes: number
    lines: number
    whole: boolean
    sessionId: string
    projectDir: string
    repetitionRanges: { source: string; sessionId: string; firstLine: number; lines: number }[]
  }[]
  newTurnFile: string
}

const CASES = [
  'capture-small',
  'capture-big',
  'stop-idle',
  'check',
  'restore',
  'restore-computed',
  'stop-turn-small',
  'stop-turn-big',
  'codex-stop-idle',
  'codex-restore',
  'codex-stop-turn',
  'stop-memory',
  'restore-history',
  'restore-history-small',
  'restore-home',
]
/** The search cases (bench/lib/search.mjs), after the hook cases. */
const SEARCH_CASES = [
  'search-backfill',
  'search-build',
  'search-selective',
  'search-broad',
  'search-orient',
  'search-mcp',
  'search-add',
  'search-selective-all',
]

describe.skipIf(!CORPUS_PRESENT)('npm run bench, BENCH_QUICK, against the built CLI', () => {
  let run: SpawnSyncReturns<string>
  let json: string
  let md: string
  beforeAll(() => {
    const dir = tempDir('bm-bench-test-run-')
    json = join(dir, 'results.json')
    md = join(dir, 'results.md')
    const home = join(dir, 'harness-home')
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      BOOKMARK_HOME: join(home, '.bookmark'),
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      BENCH_QUICK: '1',
      BENCH_KEEP: '1',
      BENCH_TMP: dir,
    }
    run = spawnSync(process.execPath, [join(REPO_ROOT, 'bench', 'run.mjs'), '--json', json, '--markdown', md], {
      env: { ...env, ...(process.env.BOOKMARK_CORPUS ? { BOOKMARK_CORPUS: process.env.BOOKMARK_CORPUS } : {}) },
      encoding: 'utf8',
      timeout: 230_000,
    })
  }, 240_000)
  const results = (): Results => JSON.parse(readFileSync(json, 'utf8')) as Results

  it('exits 0 whatever the verdicts, with the machine on top', () => {
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^CPU: .+, \d+ cores; RAM [\d.]+ GiB$/m)
    expect(run.stdout).toMatch(/^OS: .+; Node v\d+/m)
  })

  it('has a row with numbers for every case', () => {
    const r = results()
    expect(r.cases.map((c) => c.id)).toEqual([...CASES, ...SEARCH_CASES])
    for (const c of r.cases) {
      expect(run.stdout).toContain(c.label)
      // A search case without a process of its own to measure has no peak RSS (JSON null).
      const rss = c.kind === 'search' && ['search-mcp', 'search-add'].includes(c.id) ? [] : [c.rssMb]
      for (const v of [c.median, c.p10, c.p90, ...rss]) expect(Number.isFinite(v) && v > 0, `${c.id}: ${v}`).toBe(true)
      expect(c.p10 <= c.median && c.median <= c.p90).toBe(true)
      if (c.kind === 'hook' || ['search-selective', 'search-broad', 'search-orient'].includes(c.id)) {
        expect(c.n).toBe(5)
        for (const v of [c.bare, c.ratio, c.pairRatio]) expect(Number.isFinite(v) && v > 0, `${c.id}: ${v}`).toBe(true)
      }
    }
    expect(readFileSync(md, 'utf8')).toContain('| case | runs | median ms |')
  })

  it('prints one verdict per goal', () => {
    const verdicts = run.stdout.split('\n').filter((l) => /^(PASS|FAIL) {2}/.test(l))
    const goals = results().goals
    expect(goals).toHaveLength(13 + 8) // the hooks', then the search's
    expect(verdicts).toHaveLength(goals.length)
    goals.forEach((g, i) => expect(verdicts[i]!.startsWith(`${g.pass ? 'PASS' : 'FAIL'}  ${g.label}: ${g.measured} (goal `), verdicts[i]).toBe(true))
  })

  it('first captures of whole real sessions, each run paired with a plain pass over the same file', () => {
    const r = results()
    for (const id of ['capture-small', 'capture-big']) {
      const c = r.cases.find((x) => x.id === id)!
      expect(c.label).toContain('whole sessions')
      expect(c.n).toBe(2)
      expect(c.ratio).toBeCloseTo(c.median / c.bare, 10)
      expect(c.pairRatio > 0 && c.bare > 0).toBe(true)
    }
    expect(r.goals.map((g) => g.label)).toContain(
      `first capture of ${(r.transcripts.find((t) => t.label === 'whole large')!.bytes / 2 ** 20).toFixed(1)} MB (whole real sessions), against a plain pass`,
    )
    expect(r.goals.some((g) => /^stop after one new turn, .+: not proportional to the transcript$/.test(g.label))).toBe(true)
    for (const t of r.transcripts.filter((x) => x.whole)) {
      const lines = parseLines(readFileSync(t.path, 'utf8'))
      expect(lines).toHaveLength(t.lines)
      const sessions = new Set(t.repetitionRanges.map((rep) => rep.sessionId))
      expect(sessions.size).toBe(t.repetitionRanges.length)
      const last = t.repetitionRanges.at(-1)!
      expect(last.firstLine + last.lines).toBe(t.lines)
    }
  })

  it('generated transcripts whose ids never repeat, with the bench session id and the project as cwd', () => {
    const r = results()
    expect(r.transcripts.map((t) => t.label)).toEqual(['whole small', 'whole large', 'small', 'large', 'history'])
    for (const t of r.transcripts.filter((x) => x.label === 'small' || x.label === 'large')) {
      const lines = parseLines(readFileSync(t.path, 'utf8'))
      expect(t.repetitionRanges.length).toBeGreaterThan(1)
      const seen = new Map<string, number>()
      t.repetitionRanges.forEach((rep, k) => {
        for (const l of lines.slice(rep.firstLine, rep.firstLine + rep.lines)) {
          if (typeof l.uuid !== 'string') continue
          expect(seen.get(l.uuid), `uuid ${l.uuid} in repetitions ${seen.get(l.uuid)} and ${k}`).toBeUndefined()
          seen.set(l.uuid, k)
        }
      })
      for (const l of lines) {
        if (l.sessionId !== undefined) expect(l.sessionId).toBe(t.sessionId)
        if (l.cwd !== undefined) expect(l.cwd === t.projectDir || String(l.cwd).startsWith(`${t.projectDir}/`), String(l.cwd)).toBe(true)
      }
    }
  })

  it('bench/floor.mjs times the capture as shipped, one that stores only its state, and a hand-off to a detached capture, checking each run', () => {
    const kept = /^bench: kept (.+) \(BENCH_KEEP=1\)$/m.exec(run.stderr)?.[1]
    expect(kept, run.stderr.slice(-500)).toBeDefined()
    const env = {
      PATH: process.env.PATH,
      HOME: kept!,
      FLOOR_ROUNDS: '2',
      FLOOR_WARMUP: '1',
      FLOOR_BLOCKS: '1',
      ...(process.env.BOOKMARK_CORPUS ? { BOOKMARK_CORPUS: process.env.BOOKMARK_CORPUS } : {}),
    }
    const floor = spawnSync(process.execPath, [join(REPO_ROOT, 'bench', 'floor.mjs'), join(kept!, 'big')], { env, encoding: 'utf8', timeout: 120_000 })
    expect(floor.status, floor.stderr).toBe(0)
    expect(floor.stdout).toMatch(/^shipped {4}block 1: [\d.]+x bare node/m)
    expect(floor.stdout).toMatch(/^state only block 1: [\d.]+x bare node/m)
    expect(floor.stdout).toMatch(/^hand-off {3}block 1: [\d.]+x bare node/m)
    const usage = spawnSync(process.execPath, [join(REPO_ROOT, 'bench', 'floor.mjs')], { env, encoding: 'utf8' })
    expect(usage.status).toBe(2)
    expect(usage.stderr).toContain('usage: node bench/floor.mjs WORLD')
  }, 120_000)

  it('wrote the one new turn as valid JSONL: request, tool_use, its result, reply', () => {
    const lines = parseLines(readFileSync(results().newTurnFile, 'utf8'))
    expect(lines.map((l) => l.type)).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(typeof lines[0]!.message.content).toBe('string')
    const use = lines[1]!.message.content.find((b: Line) => b.type === 'tool_use')
    expect(lines[2]!.message.content.find((b: Line) => b.type === 'tool_result').tool_use_id).toBe(use.id)
    expect(lines[3]!.message.content.some((b: Line) => b.type === 'text')).toBe(true)
    for (const l of lines) expect(l.sessionId).toMatch(UUID)
  })
})
