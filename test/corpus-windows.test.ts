/**
 * The Windows transcripts of the shared corpus: project-relative keys with '/', nothing of the project filed
 * outside, Git Bash /d/... paths, the Bash tool's lasting directory, and the project root in any spelling.
 */
import { describe, expect, it } from 'vitest'
import { CORPUS_PRESENT, extractCorpus, loadCorpus } from './helpers/corpus.js'
import { FACTS, byFileTools, isProjectRelative, isWindowsRoot, key, keys } from './helpers/corpus-facts.js'

describe.skipIf(!CORPUS_PRESENT)('corpus: Windows transcripts', () => {
  const windows = FACTS.filter((f) => isWindowsRoot(f.root))

  it('are in the table', () => {
    expect(windows.map((f) => f.file)).toEqual(
      expect.arrayContaining([
        'cc-2.1.205-windows-agent-websearch-223b2708.jsonl',
        'cc-2.1.205-windows-powershell-mcp-b342582f.jsonl',
        'cc-2.1.219-windows-hook-nonblocking-error-be2220da.jsonl',
        'cc-2.1.219-windows-long-compact1-image-api-error-6b6f4218.jsonl',
      ]),
    )
  })

  for (const fact of windows) {
    it(`${fact.file}: inside files are project-relative with '/', nothing of the project is filed outside`, async () => {
      const { state } = await loadCorpus(fact.file)
      for (const r of Object.values(state.files)) {
        expect(isProjectRelative(r.path), r.path).toBe(true)
        if (r.from !== undefined && !/^[A-Za-z]:/.test(r.from)) expect(r.from.includes('\\'), r.from).toBe(false)
      }
      // Nothing under the project root may be filed as outside, whether spelled D:\\x, D:/x or, from Git Bash,
      // /d/x (MSYS drive mount). Nor may a Git Bash /c/... path stay in MSYS form: it is C:/...
      const rootKey = key(fact.root, true) + '/'
      const msysRoot = '/' + rootKey[0] + rootKey.slice(2)
      for (const r of Object.values(state.outside)) {
        expect(key(r.path, true).startsWith(rootKey), r.path).toBe(false)
        expect(key(r.path, true).startsWith(msysRoot), r.path).toBe(false)
        expect(/^\/[a-z]\//i.test(r.path), r.path).toBe(false)
      }
    })
  }

  // Git Bash in Windows sessions: `/d/oh-my-posh/...` is D:\oh-my-posh\... (hand-checked commands, results not errors).
  it('cc-2.1.205-windows-powershell: `rm -f /d/oh-my-posh/packages/msix/out/install-arm64.msi ...` (line 179) deletes a project file', async () => {
    const { state } = await loadCorpus('cc-2.1.205-windows-powershell-mcp-b342582f.jsonl')
    expect(state.files['packages/msix/out/install-arm64.msi']?.op).toBe('deleted')
    expect(state.files['packages/msix/out/install-arm64.wixpdb']?.op).toBe('deleted')
  })

  it('cc-2.1.215-windows: `cd /d/oh-my-posh/src && cat >> color/gradient_test.go` (407) and `sed -i` (412) change src/color/gradient_test.go', async () => {
    const { state } = await loadCorpus('cc-2.1.215-windows-api-error-image-mcp-94fab1a1.jsonl')
    expect(state.files['src/color/gradient_test.go']?.tools ?? []).toContain('Bash')
  })

  it('cc-2.1.215-windows: `cat >> /c/Users/jande/.../gradient-spec.md` (736) is the C:/ file the Write at line 70 created', async () => {
    const { state } = await loadCorpus('cc-2.1.215-windows-api-error-image-mcp-94fab1a1.jsonl')
    const spec = Object.values(state.outside).filter((r) => r.path.toLowerCase().endsWith('/scratchpad/gradient-spec.md'))
    expect(spec.map((r) => r.path)).toEqual([
      'C:/Users/jande/AppData/Local/Temp/claude/D--oh-my-posh/dcce4143-4609-43c5-a0e3-ea883f6c959b/scratchpad/gradient-spec.md',
    ])
    expect(spec[0]?.tools).toEqual(expect.arrayContaining(['Write', 'Bash']))
  })

  it('cc-2.1.219-windows-long: `cd /d/oh-my-posh && rm -f omp-local.exe` (774) and `cd /d/oh-my-posh/src && rm -f bin/oh-my-posh` (1040) delete project files', async () => {
    const { state } = await loadCorpus('cc-2.1.219-windows-long-compact1-image-api-error-6b6f4218.jsonl')
    expect(state.files['omp-local.exe']?.op).toBe('deleted')
    expect(state.files['src/bin/oh-my-posh']?.op).toBe('deleted')
  })

  // The Bash tool keeps its working directory between calls, and in this session the lines' `cwd` field stayed
  // D:\oh-my-posh after `cd /d/oh-my-posh/src` (it only changes at line 1008). Relative paths of later commands
  // are under src/: line 648 `cd /d/oh-my-posh/src && grep -n ... terminal/writer.go`, then 651
  // `sed -i '896s/...' terminal/writer.go && go test ./terminal/...` whose output is
  // "ok github.com/jandedobbeleer/oh-my-posh/src/terminal" (the Go module is src/), then 656
  // `cat >> terminal/writer_gradient_test.go`; line 353 `cd /d/oh-my-posh/src && grep ...`, then 366
  // `sed -i ... color/gradient_test.go`. The Edit tool paths (D:\oh-my-posh\src\terminal\writer.go ...) show
  // these files exist only under src/: files at the project root with these names are phantoms.
  it('cc-2.1.215-windows: no phantom root-level files from commands that ran in src/', async () => {
    const { state } = await loadCorpus('cc-2.1.215-windows-api-error-image-mcp-94fab1a1.jsonl')
    const phantoms = ['terminal/writer.go', 'terminal/writer_gradient_test.go', 'color/gradient_test.go']
    expect(Object.keys(state.files).filter((k) => phantoms.includes(k))).toEqual([])
  })

  // The same session read with the root spelled in another case or with '/' separators gives the same files.
  const variants = ['d:\\OH-MY-POSH', 'D:/oh-my-posh/', 'd:/Oh-My-Posh']
  for (const name of ['cc-2.1.205-windows-powershell-mcp-b342582f.jsonl', 'cc-2.1.215-windows-api-error-image-mcp-94fab1a1.jsonl']) {
    for (const variant of variants) {
      it(`${name}: root spelled ${JSON.stringify(variant)} gives the same inside files`, async () => {
        const fact = FACTS.find((f) => f.file === name)!
        const { state } = await extractCorpus(name, variant)
        expect(
          keys(
            byFileTools(state.files).map((r) => r.path),
            true,
          ),
        ).toEqual(keys(fact.edited ?? [], true))
        expect(
          keys(
            byFileTools(state.outside).map((r) => r.path),
            true,
          ),
        ).toEqual(keys(fact.outside, true))
      })
    }
  }

  it('cc-2.1.205-windows-powershell: paths keep their case and use / (hand-checked literal keys)', async () => {
    const { state } = await loadCorpus('cc-2.1.205-windows-powershell-mcp-b342582f.jsonl')
    // Raw: file_path "D:\\oh-my-posh\\packages\\msix\\README.md" (Write, line 126) and "...\\src\\cli\\upgrade\\notice_test.go".
    expect(Object.keys(state.files)).toEqual(
      expect.arrayContaining(['packages/msix/README.md', 'src/cli/upgrade/notice_test.go', '.github/workflows/release.yml']),
    )
  })
})
