/**
 * The extraction pipeline against the real Claude Code transcripts of the shared corpus
 * (../shared/corpus/claude, see SOURCES.tsv and docs/host-contracts.md section 3).
 *
 * Every expected value below was derived INDEPENDENTLY of our code, with python3 scripts reading the raw
 * JSONL (json.loads line by line), never by running our extractor:
 *  - root: the `cwd` of the first line that has one and is not `isSidechain` (for every file it is also the
 *    first `cwd` of the file).
 *  - lines: number of newline-separated lines (a last line without `\n` counts); every line of every file
 *    is a JSON object with a string `type`, and every user/assistant line has a `message` object, so no line
 *    should be skipped.
 *  - edited: `file_path` of every Write/Edit/MultiEdit/NotebookEdit `tool_use` block (main thread,
 *    sidechains, and subagent messages embedded in `progress` lines with `data.type:"agent_progress"`) whose `tool_result` (matched by `tool_use_id`) is not `is_error:true`; resolved against the
 *    line's `cwd` when relative, normalised, kept when under the root (Windows: compared case-insensitively,
 *    relative part with `/`). No such call in the corpus lacks a result, and no non-error result carries an
 *    error text. `outside` are the others, absolute, with `/` on Windows. `subagentOnly`: how many of
 *    the inside files only sidechain lines changed. One file is then renamed by a shell `mv` (2.1.17, `moved`).
 *  - compactions: `type:"system"`, `subtype:"compact_boundary"` lines, as [compactMetadata.trigger,
 *    compactMetadata.preTokens]; micro: `subtype:"microcompact_boundary"` lines.
 *  - lastPrompt: the last `type:"user"` line that is not isMeta, not isCompactSummary, not isSidechain, has
 *    no tool_result block, whose `origin.kind` (when present) is "human", and whose text (string content or
 *    text blocks joined) does not start with <local-command-stdout>, <local-command-caveat>,
 *    <task-notification>, <teammate-message or [Request interrupted, and is not a built-in housekeeping
 *    slash command (/compact, /clear, /model, ...; a custom command such as /github-pr-review is a request).
 *    `line` is its 1-based line number in the file.
 *  - todos: `input.todos` of the last TodoWrite tool_use (all answered without error, all main thread).
 *  - tasks: TaskCreate results (`toolUseResult.task.{id,subject}`), then TaskUpdate `input.status` in file
 *    order, INCLUDING the TaskUpdate calls that subagents made, which are embedded in `progress` lines
 *    (`data.type:"agent_progress"`, `data.message.message.content[].tool_use`) and whose results say
 *    "Updated task #N status": the task list is shared, and the TaskList results recorded in the same files
 *    confirm these updates (see the comments at each file).
 */
import { describe, expect, it } from 'vitest'
import type { FileRecord } from '../src/extract/model.js'
import { CORPUS_PRESENT, claudeFiles, claudePath, extractCorpus, firstCwd } from './helpers/corpus.js'
import { snapshotOf } from './helpers/extract.js'

const FILE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit'])

type Extracted = Awaited<ReturnType<typeof extractCorpus>>

const cache = new Map<string, Promise<Extracted>>()
function load(name: string): Promise<Extracted> {
  let p = cache.get(name)
  if (!p) {
    p = extractCorpus(name)
    cache.set(name, p)
  }
  return p
}

function isWindowsRoot(root: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(root)
}

/** Files changed by the file tools (the records may also carry shell changes; those are not compared here). */
function byFileTools(table: Record<string, FileRecord>): FileRecord[] {
  return Object.values(table).filter((r) => r.tools.some((t) => FILE_TOOLS.has(t)))
}

/** Comparable form of a path: `/` separators, and lower case for Windows sessions. */
function key(p: string, windows: boolean): string {
  const s = p.replace(/\\/g, '/')
  return windows ? s.toLowerCase() : s
}

function keys(paths: Iterable<string>, windows: boolean): string[] {
  return [...paths].map((p) => key(p, windows)).sort()
}

interface Fact {
  file: string
  root: string
  lines: number
  versions: string[]
  /** Exact set of project-relative files changed by Write/Edit/MultiEdit/NotebookEdit. */
  edited?: string[]
  /** For long lists: some paths that must be there, and the exact count. */
  editedIncludes?: string[]
  editedCount?: number
  /** How many inside files only subagent (sidechain) lines changed. */
  subagentOnly?: number
  outside: string[]
  /** [path, from]: files the session created or changed and then moved with a shell command. */
  moved?: [string, string][]
  compactions: [string, number][]
  micro: number
  lastPrompt?: { line: number; text?: string; contains?: string }
  todos?: [string, string][]
}

const FACTS: Fact[] = [
  {
    file: "cc-1.0.111-multiedit-todowrite-cb947e5b.jsonl",
    root: "/Users/aidancunniffe/Desktop/ghq",
    lines: 38,
    versions: ["1.0.111"],
    edited: ["src/app/globals.css", "src/game/HistoryLog.tsx"],
    outside: [],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 1, text: "Make the colors green and yellow" },
    todos: [["Update CSS variables to use green and yellow for player colors", "completed"], ["Update HistoryLog.tsx to use new player colors", "completed"], ["Update EvalBar.tsx to use new player colors", "in_progress"], ["Update Square.tsx to use new stripe class names", "pending"], ["Update board.tsx to use new stripe class names", "pending"], ["Update LearnBasics.tsx to use new stripe class names", "pending"]],
  },
  {
    file: "cc-1.0.98-inline-sidechains-multiedit-bashoutput-fe5e1c67.jsonl",
    root: "/path/to/Demo",
    lines: 438,
    versions: ["1.0.98"],
    editedIncludes: ["CLAUDE.md", "components/AddTodo.tsx", "components/Filter.tsx", "types/state.ts", "types/todo.ts", "types/utils.ts"],
    editedCount: 26,
    subagentOnly: 25,
    outside: [],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 434, text: "Thanks! Please update CLAUDE.md for current changes" },
    todos: [["Set up Next.js project structure and dependencies", "completed"], ["Create core TODO data models and types", "completed"], ["Build TODO components (TodoItem, TodoList, AddTodo)", "completed"], ["Implement state management and CRUD operations", "completed"], ["Create main page layout and integrate components", "completed"]],
  },
  {
    // The only Write (line 25, CLAUDE.md) failed (is_error, result line 26). The only typed line is line 1,
    // `<command-name>/init</command-name>` (line 2 is its isMeta expansion): no real request by the rule above.
    file: "cc-1.0.98-small-todowrite-1af7fc5e.jsonl",
    root: "/path/to/Demo",
    lines: 29,
    versions: ["1.0.98"],
    edited: [],
    outside: [],
    compactions: [],
    micro: 0,
    todos: [["Create CLAUDE.md with essential information", "completed"]],
  },
  {
    file: "cc-2.0.69-thinking-summary-dac34307.jsonl",
    root: "/Users/svarlamov/projects/testing-git-2",
    lines: 10,
    versions: ["2.0.69"],
    edited: ["index.ts"],
    outside: [],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 3, text: "add another hello world console log to @index.ts" },
  },
  {
    file: "cc-2.0.74-tiny-queue-op-1b3e6441.jsonl",
    root: "/Users/alex/workspace/cli",
    lines: 9,
    versions: ["2.0.74"],
    edited: [".github/CODEOWNERS"],
    outside: [],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 3, contains: "create me a .github/CODEOWNERS - attach the @entireio/cli-maintainers group as default for all" },
  },
  {
    file: "cc-2.0.76-compact1-task-todowrite-847ff7d2.jsonl",
    root: "/Users/soph/Work/entire/devenv/cli",
    lines: 424,
    versions: ["2.0.76"],
    edited: ["cmd/entire/cli/checkpoint/checkpoint_test.go", "cmd/entire/cli/checkpoint/committed.go", "cmd/entire/cli/checkpoint/temporary.go", "cmd/entire/cli/strategy/auto_commit.go", "cmd/entire/cli/strategy/clean_test.go", "cmd/entire/cli/strategy/cleanup.go", "cmd/entire/cli/strategy/manual_commit_session.go", "cmd/entire/cli/strategy/manual_commit_test.go"],
    outside: [],
    compactions: [["auto", 155377]],
    micro: 0,
    lastPrompt: { line: 377, text: "3" },
    todos: [["Fix P1 #1: Active session protection (grace period)", "completed"], ["Fix P1 #2: Hash length mismatch", "completed"], ["Run tests to verify fixes", "completed"]],
  },
  {
    file: "cc-2.0.76-summary-records-skill-9667a07f.jsonl",
    root: "/Users/soph/Work/entire/devenv/cli",
    lines: 79,
    versions: ["2.0.76"],
    edited: ["cmd/entire/cli/strategy/common.go"],
    outside: [],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 77, text: "can you explain   3. strings.Builder optional for 5 entries\n  Simple concatenation would suffice:\n  for _, entry := range toAdd {\n      content += entry + \"\\n\"\n  }" },
    todos: [["Determine review target and setup", "completed"], ["Launch parallel review agents", "completed"], ["Synthesize findings from all agents", "completed"], ["Create todo files for findings", "completed"], ["Present summary report", "completed"]],
  },
  {
    // The only Edit (line 164, session/state.go) failed (is_error, result line 165).
    file: "cc-2.1.12-microcompact-0cd9edf7.jsonl",
    root: "/Users/alex/workspace/cli",
    lines: 257,
    versions: ["2.1.12"],
    edited: [],
    outside: [],
    compactions: [],
    micro: 1,
    lastPrompt: { line: 226, text: "so, the good news: we have token info\nthe bad news: we are missing transcript markers for the first manual commit in a session it looks like? subsequent checkpoints have the info" },
    todos: [["Phase 1: Investigate root cause - found missing fields in session.State and conversion functions", "completed"], ["Checked out PR#68 branch for testing", "completed"], ["Run tests to verify PR#68 fix", "completed"]],
  },
  {
    file: "cc-2.1.12-progress-local-command-mcp-04cd0da1.jsonl",
    root: "/Users/alex/workspace/cli/.worktrees/ent-95-test",
    lines: 239,
    versions: ["2.1.12"],
    edited: ["cmd/entire/cli/checkpoint/checkpoint_test.go", "cmd/entire/cli/checkpoint/committed.go", "cmd/entire/cli/paths/paths.go", "cmd/entire/cli/paths/paths_test.go", "cmd/entire/cli/session/state.go", "cmd/entire/cli/session/state_test.go"],
    outside: [],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 218, text: "yes please" },
    todos: [["Create README content constants in a central location", "completed"], ["Add README creation to .git/entire-sessions/ in session/state.go", "completed"], ["Add README to entire/sessions branch in checkpoint/committed.go", "completed"], ["Add README creation to .entire/ in paths/paths.go", "completed"], ["Add tests for README creation", "completed"], ["Run tests and lint", "completed"]],
  },
  {
    file: "cc-2.1.14-compact2-mcp-progress-0cf3db51.jsonl",
    root: "/Users/alex/workspace/cli",
    lines: 701,
    versions: ["2.1.14"],
    edited: ["cmd/entire/cli/explain.go", "cmd/entire/cli/integration_test/last_checkpoint_id_test.go", "cmd/entire/cli/strategy/manual_commit_hooks.go"],
    outside: [],
    compactions: [["manual", 153697], ["manual", 148841]],
    micro: 0,
    lastPrompt: { line: 691, text: "Commit 2 is irrelevant in this scenario...?" },
    todos: [["Debug checkpoint ID reuse bug - identify root cause", "completed"], ["Fix PostCommit to update BaseCommit even without condensation", "completed"], ["Remove dangerous fallback to all sessions in PrepareCommitMsg", "completed"], ["Write test to prevent regression", "completed"], ["Verify fix works", "completed"]],
  },
  {
    file: "cc-2.1.14-stop-hook-session-cb88ae13.jsonl",
    root: "/tmp/tmpcy4oc572",
    lines: 14,
    versions: ["2.1.14"],
    edited: ["test.txt"],
    outside: [],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 2, text: "Read test.txt and change the content to \"modified content\". Commit the change, then stop." },
  },
  {
    file: "cc-2.1.14-tool-errors-c64cc478.jsonl",
    root: "/tmp/tmpw6sk2trg",
    lines: 38,
    versions: ["2.1.14"],
    edited: [".gitignore", "src/math_utils.py", "tests/test_math_utils.py"],
    outside: [],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 2, text: "Add a function called multiply_numbers(a: int, b: int) -> int that multiplies two numbers together. Add a test for it." },
  },
  {
    file: "cc-2.1.17-long-compact2-askuser-f4237e82.jsonl",
    root: "/Users/soph/Work/entire/devenv/cli",
    lines: 996,
    versions: ["2.1.17"],
    edited: ["cmd/entire/cli/checkpoint/committed.go", "cmd/entire/cli/integration_test/deferred_finalization_test.go", "cmd/entire/cli/integration_test/hooks.go", "cmd/entire/cli/integration_test/phase_transitions_test.go", "cmd/entire/cli/strategy/content_overlap.go", "cmd/entire/cli/strategy/content_overlap_test.go", "cmd/entire/cli/strategy/manual_commit_hooks.go", "cmd/entire/cli/strategy/phase_postcommit_test.go", "docs/architecture/checkpoint-scenarios.md"],
    // docs/checkpoint-scenarios.md: Write at line 134, then Bash `mv .../docs/checkpoint-scenarios.md
    // .../docs/architecture/checkpoint-scenarios.md` at line 171 (result 172: no error), then Edits on the new path.
    moved: [["docs/architecture/checkpoint-scenarios.md", "docs/checkpoint-scenarios.md"]],
    outside: ["/Users/soph/.claude/plans/glimmering-toasting-fern.md"],
    compactions: [["auto", 156611], ["auto", 155144]],
    micro: 0,
    lastPrompt: { line: 882, contains: "Now with all this context I want to have better integration tests based on the flows we have in the docs." },
  },
  {
    file: "cc-2.1.19-mixed-versions-lsp-long-53ea19c1.jsonl",
    root: "/Users/alex/workspace/cli/.worktrees/alex/code-dup-tooling",
    lines: 342,
    versions: ["2.1.15", "2.1.19"],
    edited: [".golangci.yaml", "CLAUDE.md", "mise.toml"],
    outside: ["/Users/alex/.claude/plans/lexical-toasting-orbit.md", "/Users/alex/.claude/skills/go-discover-related/skill.md"],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 317, text: "retry your skill test, I had to restart you" },
    todos: [["Create go:discover-related skill file", "completed"], ["Create mise dup task for duplication checking", "completed"], ["Update CLAUDE.md with duplication prevention section", "completed"], ["Test the skill and dup task", "in_progress"]],
  },
  {
    file: "cc-2.1.20-taskcreate-local-command-mcp-b82405ba.jsonl",
    root: "/Users/alex/workspace/cli/.worktrees/alex/ent-108-add-ai-summaries",
    lines: 1191,
    versions: ["2.1.20"],
    // 5 files changed by the main thread, 13 more only by subagents (tool calls embedded in agent_progress lines).
    subagentOnly: 13,
    edited: ["cmd/entire/cli/checkpoint/checkpoint.go", "cmd/entire/cli/checkpoint/checkpoint_test.go", "cmd/entire/cli/checkpoint/committed.go", "cmd/entire/cli/explain.go", "cmd/entire/cli/explain_test.go", "cmd/entire/cli/summarise/claude.go", "cmd/entire/cli/summarise/claude_test.go", "cmd/entire/cli/summarise/summarise.go", "cmd/entire/cli/summarise/summarise_test.go", "cmd/entire/cli/summarize.go", "cmd/entire/cli/summarize/summarize.go", "cmd/entire/cli/summarize_claude.go", "cmd/entire/cli/summarize_claude_test.go", "cmd/entire/cli/summarize_test.go", "cmd/entire/cli/transcript.go", "docs/plans/2026-01-29-ai-summaries-design.md", "docs/requirements/ent-108-add-ai-summaries/review-01.md", "docs/requirements/ent-108-add-ai-summaries/review-02.md"],
    outside: [],
    compactions: [["auto", 155207]],
    micro: 0,
    lastPrompt: { line: 1187, text: "let's leave this for a future exercise. I assume the summary call will just fail as claude will exit non-zero?" },
  },
  {
    file: "cc-2.1.205-windows-agent-websearch-223b2708.jsonl",
    root: "D:\\oh-my-posh",
    lines: 496,
    versions: ["2.1.205"],
    edited: [".agents/skills/project-knowledge/SKILL.md", ".agents/skills/project-knowledge/references/codebase.md", ".agents/skills/project-knowledge/references/testing.md", ".claude/skills/project-knowledge/SKILL.md", ".claude/skills/project-knowledge/references/bash.md", ".claude/skills/project-knowledge/references/cmd-clink.md", ".claude/skills/project-knowledge/references/codebase.md", ".claude/skills/project-knowledge/references/fish.md", ".claude/skills/project-knowledge/references/pwsh.md", ".claude/skills/project-knowledge/references/terminal.md", ".claude/skills/project-knowledge/references/testing.md", ".claude/skills/project-knowledge/references/zsh.md", ".github/copilot-instructions.md", ".gitignore", "AGENTS.md", "CONTRIBUTING.md"],
    outside: ["C:/Users/jande/.claude/projects/D--oh-my-posh/memory/MEMORY.md", "C:/Users/jande/.claude/projects/D--oh-my-posh/memory/project-knowledge-skill.md", "C:/Users/jande/.claude/projects/D--oh-my-posh/memory/zvm-transient-prompt-interplay.md", "C:/Users/jande/AppData/Local/Temp/claude/D--oh-my-posh/5a4b5aa4-b959-4920-a53c-7ae4ff8f0d73/scratchpad/driver.zsh", "C:/Users/jande/AppData/Local/Temp/claude/D--oh-my-posh/5a4b5aa4-b959-4920-a53c-7ae4ff8f0d73/scratchpad/driver2.zsh", "C:/Users/jande/AppData/Local/Temp/claude/D--oh-my-posh/5a4b5aa4-b959-4920-a53c-7ae4ff8f0d73/scratchpad/driver3.zsh", "C:/Users/jande/AppData/Local/Temp/claude/D--oh-my-posh/5a4b5aa4-b959-4920-a53c-7ae4ff8f0d73/scratchpad/driver4.zsh", "C:/Users/jande/AppData/Local/Temp/claude/D--oh-my-posh/5a4b5aa4-b959-4920-a53c-7ae4ff8f0d73/scratchpad/omp.json", "C:/Users/jande/AppData/Local/Temp/claude/D--oh-my-posh/5a4b5aa4-b959-4920-a53c-7ae4ff8f0d73/scratchpad/zshrc"],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 458, contains: "Ideally, we only point in the co-pilot-instructions.md to agent.md" },
  },
  {
    file: "cc-2.1.205-windows-powershell-mcp-b342582f.jsonl",
    root: "D:\\oh-my-posh",
    lines: 209,
    versions: ["2.1.205"],
    edited: [".github/workflows/release.yml", ".gitignore", "packages/msix/README.md", "packages/msix/build.ps1", "src/cli/upgrade/notice.go", "src/cli/upgrade/notice_test.go"],
    outside: [],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 186, text: "Did we adjust the WinGet package manifest file because we do construct it here and then create a pull request?" },
  },
  {
    file: "cc-2.1.205-windows-pr-link-small-e3c445a1.jsonl",
    root: "D:\\oh-my-posh",
    lines: 81,
    versions: ["2.1.205"],
    edited: [],
    outside: [],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 76, text: "yes" },
  },
  {
    file: "cc-2.1.215-windows-api-error-image-mcp-94fab1a1.jsonl",
    root: "D:\\oh-my-posh",
    lines: 1142,
    versions: ["2.1.215"],
    edited: ["src/color/colors.go", "src/color/gradient.go", "src/color/keywords.go", "src/config/segment.go", "src/prompt/engine.go", "src/terminal/writer.go", "src/terminal/writer_gradient_test.go", "themes/schema.json", "website/docs/configuration/colors.mdx"],
    outside: ["C:/Users/jande/.posh.omp.jsonc", "C:/Users/jande/AppData/Local/Temp/claude/D--oh-my-posh/dcce4143-4609-43c5-a0e3-ea883f6c959b/scratchpad/gradient-spec.md", "C:/Users/jande/AppData/Local/Temp/claude/D--oh-my-posh/dcce4143-4609-43c5-a0e3-ea883f6c959b/scratchpad/gradient-test.json", "C:/Users/jande/AppData/Local/Temp/claude/D--oh-my-posh/dcce4143-4609-43c5-a0e3-ea883f6c959b/scratchpad/truecolor-fix.patch"],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 962, text: "should we intervene in the subagent and point it in the right direction?" },
  },
  {
    file: "cc-2.1.217-windows-compact1-artifact-sendmessage-6c0a282a.jsonl",
    root: "D:\\oh-my-posh",
    lines: 1343,
    versions: ["2.1.217"],
    edited: ["src/cli/config_export_image.go", "website/docs/auth.mdx", "website/docusaurus.config.js", "website/export_themes.mjs", "website/plugins/segments/data.js", "website/plugins/segments/index.js", "website/src/components/SegmentCatalog/index.js", "website/src/css/custom.css", "website/src/pages/index.js", "website/static/skills/ohmyposh/SKILL.md"],
    outside: ["C:/Users/jande/.claude/projects/D--oh-my-posh/memory/MEMORY.md", "C:/Users/jande/.claude/projects/D--oh-my-posh/memory/omp-data-replay-not-hermetic.md", "C:/Users/jande/.claude/projects/D--oh-my-posh/memory/omp-golden-harness-ambient-inputs.md", "C:/Users/jande/.claude/projects/D--oh-my-posh/memory/website-redesign-direction.md", "C:/Users/jande/AppData/Local/Temp/claude/D--oh-my-posh/6c0a282a-886f-458d-a426-93d95104b4a6/scratchpad/cmpvis.py", "C:/Users/jande/AppData/Local/Temp/claude/D--oh-my-posh/6c0a282a-886f-458d-a426-93d95104b4a6/scratchpad/phase20-plan.md", "C:/Users/jande/AppData/Local/Temp/claude/D--oh-my-posh/6c0a282a-886f-458d-a426-93d95104b4a6/scratchpad/phase2a-plan.md", "C:/Users/jande/AppData/Local/Temp/claude/D--oh-my-posh/bf77db8f-a917-4fc4-be70-ca1927a57d56/scratchpad/omp-website-redesign.html", "C:/Users/jande/AppData/Local/Temp/claude/D--oh-my-posh/bf77db8f-a917-4fc4-be70-ca1927a57d56/scratchpad/phase0-plan.md", "C:/Users/jande/AppData/Local/Temp/claude/D--oh-my-posh/bf77db8f-a917-4fc4-be70-ca1927a57d56/scratchpad/phase1-plan.md"],
    compactions: [["manual", 297190]],
    micro: 0,
    lastPrompt: { line: 949, text: "Move to the next phase. For rewriting the renderer, you can always use configuration as well, which is located at my home folder, called .posh.omp.jsonc" },
  },
  {
    file: "cc-2.1.217-windows-model-refusal-fallback-df0a6e5d.jsonl",
    root: "D:\\oh-my-posh",
    lines: 28,
    versions: ["2.1.217"],
    edited: [],
    outside: [],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 6, contains: "Investigate this using fable as a subagent accoridng to /code-changes" },
  },
  {
    file: "cc-2.1.219-windows-hook-nonblocking-error-be2220da.jsonl",
    root: "D:\\oh-my-posh\\.claude\\worktrees\\heuristic-robinson-e44709",
    lines: 188,
    versions: ["2.1.219"],
    edited: [],
    outside: [],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 90, text: "go ahead, fix all four, bundle the DoS ones too and do the allowlist too afterwards" },
  },
  {
    file: "cc-2.1.219-windows-long-compact1-image-api-error-6b6f4218.jsonl",
    root: "D:\\oh-my-posh",
    lines: 1718,
    versions: ["2.1.219"],
    editedIncludes: ["src/cli/config_export_image.go", "src/prompt/engine.go", "src/prompt/primary.go", "website/src/components/Studio/styles.module.css", "website/src/pages/index.js", "website/src/pages/styles.module.css"],
    editedCount: 36,
    outside: ["C:/Users/jande/AppData/Local/Temp/claude/D--oh-my-posh/030df228-1b4b-482d-b343-0fc9c13a3d1a/scratchpad/cmp.js"],
    compactions: [["auto", 998659]],
    micro: 0,
    lastPrompt: { line: 1717, text: "it did find this angle:\n\nfold the changes into the right commits, do not run the test suite every time, only on the HEAD." },
  },
  {
    file: "cc-2.1.22-microcompact-summary-15f99783.jsonl",
    root: "/Users/soph/Work/entire/devenv/cli",
    lines: 636,
    versions: ["2.1.22"],
    edited: ["cmd/entire/cli/integration_test/mid_session_rebase_test.go", "cmd/entire/cli/strategy/manual_commit_git.go", "cmd/entire/cli/strategy/manual_commit_hooks.go", "cmd/entire/cli/strategy/manual_commit_migration.go", "cmd/entire/cli/strategy/manual_commit_migration_test.go"],
    outside: [],
    compactions: [],
    micro: 1,
    lastPrompt: { line: 616, contains: "Shadow branch migration can overwrite other sessions' checkpoints" },
  },
  {
    file: "cc-2.1.29-image-compact1-062a8bdd.jsonl",
    root: "/Users/alex/workspace/cli/.worktrees/1",
    lines: 747,
    versions: ["2.1.29"],
    edited: ["cmd/entire/cli/agent/claudecode/claude.go", "cmd/entire/cli/agent/claudecode/hooks.go", "cmd/entire/cli/agent/claudecode/types.go", "cmd/entire/cli/agent/geminicli/gemini.go", "cmd/entire/cli/agent/geminicli/gemini_test.go", "cmd/entire/cli/agent/geminicli/hooks.go", "cmd/entire/cli/agent/types.go", "cmd/entire/cli/hook_registry.go", "cmd/entire/cli/hooks_claudecode_handlers.go", "cmd/entire/cli/hooks_geminicli_handlers.go", "cmd/entire/cli/integration_test/agent_test.go", "cmd/entire/cli/session/state.go", "cmd/entire/cli/strategy/manual_commit.go", "cmd/entire/cli/strategy/manual_commit_types.go", "cmd/entire/cli/strategy/session_state_test.go", "docs/plans/2026-02-03-session-end-tracking.md"],
    outside: [],
    compactions: [["auto", 167174]],
    micro: 0,
    // Line 516 is `<command-name>/github-pr-review</command-name>`: a custom slash command the user typed, which
    // counts as a request (only built-in housekeeping commands such as /compact or /clear do not).
    lastPrompt: { line: 516, text: "/github-pr-review" },
  },
  {
    file: "cc-2.1.29-pr-link-compact2-mcp-1e0816ef.jsonl",
    root: "/Users/alex/workspace/cli/.worktrees/alex/test-explain-checkpoint-boundaries",
    lines: 1309,
    versions: ["2.1.29"],
    // 10 by the main thread; committed.go and explain.go only by subagents (agent_progress lines).
    subagentOnly: 2,
    edited: ["README.md", "cmd/entire/cli/checkpoint/checkpoint.go", "cmd/entire/cli/checkpoint/committed.go", "cmd/entire/cli/explain.go", "cmd/entire/cli/config.go", "cmd/entire/cli/config_test.go", "cmd/entire/cli/strategy/manual_commit_condensation.go", "cmd/entire/cli/summarise/summarise.go", "cmd/entire/cli/summarise/summarise_test.go", "cmd/entire/cli/transcript/types.go", "docs/plans/2026-02-01-auto-summarise-design.md", "docs/plans/2026-02-01-auto-summarise-impl.md"],
    outside: [],
    compactions: [["auto", 167979], ["manual", 149025]],
    micro: 0,
    lastPrompt: { line: 1183, text: "yeah let's fix the rest, even the nit picky ones" },
  },
  {
    file: "cc-2.1.34-tiny-9b76dc0f.jsonl",
    root: "/Users/paul/src/entireio/cli",
    lines: 12,
    versions: ["2.1.34"],
    edited: ["SECRETS.md"],
    outside: [],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 4, text: "I'm testing the new feature in Entire CLI that redacts secrets.  Please create a file SECRETS.md with the following contents:\n\nHere is some config:\napi_key = \"[REDACTED]\"\nsecret_key = \"[REDACTED]\"\nEnd of config." },
  },
  {
    file: "cc-2.1.36-pr-link-compact1-53ea1606.jsonl",
    root: "/Users/alex/workspace/cli/.worktrees/2",
    lines: 370,
    versions: ["2.1.36"],
    edited: ["cmd/entire/cli/integration_test/last_interaction_test.go", "cmd/entire/cli/session/state.go", "cmd/entire/cli/status.go", "cmd/entire/cli/status_test.go", "cmd/entire/cli/strategy/auto_commit.go", "cmd/entire/cli/strategy/manual_commit.go", "cmd/entire/cli/strategy/manual_commit_hooks.go", "cmd/entire/cli/strategy/manual_commit_session.go", "cmd/entire/cli/strategy/manual_commit_types.go", "cmd/entire/cli/strategy/session_state_test.go"],
    outside: [],
    compactions: [["auto", 174247]],
    micro: 0,
    lastPrompt: { line: 360, text: "push" },
  },
  {
    file: "cc-2.1.4-tiny-summary-5a3bb1c8.jsonl",
    root: "/Users/gtrrz-victor/wks/cli",
    lines: 6,
    versions: ["2.1.4"],
    edited: [],
    outside: [],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 3, contains: "it is not creating checkpoints neither shadow branches" },
  },
  {
    file: "cc-2.1.41-agent-teams-7e7f49b0.jsonl",
    root: "/home/beep/projects/VPNBussiness",
    lines: 515,
    versions: ["2.1.41"],
    edited: ["backend/src/infrastructure/cache/response_cache.py", "backend/src/presentation/api/v1/servers/routes.py", "frontend/src/app/[locale]/(dashboard)/dashboard/components/ServerGrid.tsx", "frontend/src/shared/ui/molecules/server-card.tsx"],
    outside: [],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 5, contains: "# Performance Optimization Plan: CyberVPN Dashboard" },
  },
  {
    file: "cc-2.1.42-pr-link-compact1-c010174c.jsonl",
    root: "/Users/alex/workspace/cli/.worktrees/3",
    lines: 539,
    versions: ["2.1.42"],
    edited: ["cmd/entire/cli/agent/geminicli/transcript.go", "cmd/entire/cli/agent/geminicli/transcript_test.go", "cmd/entire/cli/strategy/manual_commit_hooks.go", "cmd/entire/cli/strategy/manual_commit_test.go", "cmd/entire/cli/strategy/phase_postcommit_test.go"],
    outside: [],
    compactions: [["auto", 170485]],
    micro: 0,
    lastPrompt: { line: 406, text: "cool - okay, there's just one PR review comment from bugbot. Does it get addressed by Soph's changes or do we need to fix here? /github-pr-review" },
  },
  {
    file: "cc-2.1.44-image-ffc44f28.jsonl",
    root: "/Users/cedricteyton/Code/agents-md-evaluator",
    lines: 148,
    versions: ["2.1.44"],
    edited: ["frontend/src/App.tsx", "frontend/src/components/Tabs.tsx", "frontend/src/styles.css"],
    outside: [],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 129, text: "commit" },
  },
  {
    // Entire redacted some strings: Write file_path "REDACTED.ts" (relative, line 353) and
    // "/Users/michael/Code/cipher-box/.REDACTED.md" (line 143).
    file: "cc-2.1.49-malformed-toolname-compact1-f7594e2b.jsonl",
    root: "/Users/michael/Code/cipher-box",
    lines: 814,
    versions: ["2.1.49"],
    edited: [".REDACTED.md", ".learnings/2026-02-21-phase14-user-to-user-sharing.md", ".planning/todos/pending/2026-02-21-phase14-security-review-deferred.md", "REDACTED.ts", "apps/api/src/shares/dto/create-share.dto.ts", "apps/api/src/shares/dto/share-key.dto.ts", "apps/api/src/shares/dto/update-encrypted-key.dto.ts", "apps/api/src/shares/entities/share.entity.ts", "apps/api/src/shares/shares.controller.ts", "apps/api/src/shares/shares.service.ts", "apps/web/src/components/file-browser/ShareDialog.tsx", "apps/web/src/hooks/useSharedNavigation.ts", "apps/web/src/services/share.service.ts", "packages/crypto/src/__tests__/rewrap.test.ts"],
    outside: [],
    compactions: [["auto", 167457]],
    micro: 0,
    lastPrompt: { line: 721, text: "what @.learnings/README.md can you extract from the phase 14 work?" },
  },
  {
    file: "cc-2.1.5-api-error-compact2-b00b80af.jsonl",
    root: "/Users/soph/Work/entire/devenv/cli",
    lines: 593,
    versions: ["2.1.5"],
    edited: ["cmd/entire/cli/integration_test/resume_test.go", "cmd/entire/cli/resume.go", "cmd/entire/cli/rewind.go", "cmd/entire/cli/strategy/manual_commit_rewind.go", "cmd/entire/cli/strategy/strategy.go"],
    outside: [],
    compactions: [["auto", 155829], ["auto", 155203]],
    micro: 0,
    lastPrompt: { line: 588, text: "can you run simplifier and report any findings?" },
  },
  {
    file: "cc-2.1.5-long-compact2-44df7d08.jsonl",
    root: "/Users/soph/Work/entire/devenv/cli",
    lines: 950,
    versions: ["2.1.5"],
    edited: ["cmd/entire/cli/checkpoint/checkpoint.go", "cmd/entire/cli/checkpoint/committed.go", "cmd/entire/cli/hooks_claudecode_handlers.go", "cmd/entire/cli/integration_test/concurrent_session_warning_test.go", "cmd/entire/cli/rewind.go", "cmd/entire/cli/strategy/auto_commit.go", "cmd/entire/cli/strategy/common.go", "cmd/entire/cli/strategy/manual_commit_rewind.go", "cmd/entire/cli/strategy/strategy.go"],
    outside: [],
    compactions: [["auto", 155109], ["auto", 155237]],
    micro: 0,
    lastPrompt: { line: 848, text: "there are now merge conflicts against main, can you fix them? ideally just reabse onto main" },
    todos: [["Update CommittedMetadata struct with SessionCount and SessionIDs fields", "completed"], ["Update WriteCommitted to detect existing checkpoint and archive previous session", "completed"], ["Update reading logic (ReadCommitted/ListCommitted) if needed", "completed"], ["Run tests and fix any issues", "completed"]],
  },
  {
    file: "cc-2.1.50-api-error-303ebbc4.jsonl",
    root: "/Users/cedricteyton/Code/agents-md-evaluator",
    lines: 81,
    versions: ["2.1.50"],
    edited: ["frontend/src/components/EmptyState.tsx"],
    outside: [],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 57, text: "commit" },
  },
  {
    file: "cc-2.1.59-plain-eebd3a1f.jsonl",
    root: "/Users/cedricteyton/Code/agents-md-evaluator",
    lines: 111,
    versions: ["2.1.59"],
    edited: [".github/workflows/ci.yml", "CHANGELOG.md", "entitlements.plist", "package.json"],
    outside: [],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 36, text: "so test the taf release/0.4.1, but update package.json and changelog.md before" },
  },
  {
    file: "cc-2.1.63-small-540a8f92.jsonl",
    root: "/Users/cedricteyton/Code/agents-md-evaluator",
    lines: 57,
    versions: ["2.1.63"],
    edited: ["CHANGELOG.md", "src/cli/index.ts"],
    outside: [],
    compactions: [],
    micro: 0,
    lastPrompt: { line: 29, text: "then commit, and update changelog" },
  },
]

/**
 * Final task lists of the TaskCreate/TaskUpdate sessions, as [id, subject, status], ids ascending.
 * Hand-checked as described at the top; per-file evidence in the comments.
 */
const TASKS: Record<string, [string, string, string][]> = {
  // Main thread: 12 TaskCreate (#1..#12). Main-thread TaskUpdate completes 1, 2, 3, 4, 5, 7, 11, 12; subagents
  // (agent_progress lines 341, 486/492, 527, 528, 571, 572, 905, 906, 1049, 1093) complete 3, 5, 4, 6, 8, 9,
  // 11, 12 and 10 (in_progress at 1049, completed at 1093, result line 1094 "Updated task #10 status").
  // The main-thread TaskList at line 946 already shows #6, #8, #9 [completed] and #10 [pending].
  'cc-2.1.20-taskcreate-local-command-mcp-b82405ba.jsonl': [
    ['1', 'Add summary types to checkpoint/checkpoint.go', 'completed'],
    ['2', 'Create summarize.go with interface and types', 'completed'],
    ['3', 'Implement ClaudeCLIGenerator', 'completed'],
    ['4', 'Add --generate and --force flags to explain.go', 'completed'],
    ['5', 'Add persistence for updating summaries', 'completed'],
    ['6', 'Update display formatting for summaries', 'completed'],
    ['7', 'Add unit tests for condensed transcript builder', 'completed'],
    ['8', 'Add unit tests for summary display formatting', 'completed'],
    ['9', 'Run linting and full test suite', 'completed'],
    ['10', 'Refactor summarize code into separate package', 'completed'],
    ['11', 'Address review feedback from batch 1', 'completed'],
    ['12', 'Address review feedback from batch 2', 'completed'],
  ],
  // All main thread: TaskCreate lines 187-195, each task in_progress then completed (last TaskUpdate line 464).
  'cc-2.1.29-image-compact1-062a8bdd.jsonl': [
    ['1', 'Add EndedAt field to session State struct', 'completed'],
    ['2', 'Add Claude Code session-end hook constant and installation', 'completed'],
    ['3', 'Add markSessionEnded helper and Claude handler', 'completed'],
    ['4', 'Update Gemini handleGeminiSessionEnd and fix logging', 'completed'],
    ['5', 'Run verification (fmt, lint, tests)', 'completed'],
  ],
  // Main thread sets #1 in_progress (line 269) and never completes it; a subagent does (agent_progress line 303,
  // TaskUpdate {taskId:"1",status:"completed"}, result "Updated task #1 status" at 304), and the main-thread
  // TaskList at line 318/319 shows "#1 [completed]". #2..#7 are completed by the main thread (last at 617).
  'cc-2.1.29-pr-link-compact2-mcp-1e0816ef.jsonl': [
    ['1', 'Add SummariseOptions to config.go', 'completed'],
    ['2', 'Extract shared GenerateFromTranscript helper', 'completed'],
    ['3', 'Refactor explain.go to use shared helper', 'completed'],
    ['4', 'Add Summary field to WriteCommittedOptions', 'completed'],
    ['5', 'Add summary generation to CondenseSession', 'completed'],
    ['6', 'Update README documentation', 'completed'],
    ['7', 'Lint and final verification', 'completed'],
  ],
  // All main thread: TaskCreate lines 53-59, TaskUpdates 61-216, all completed.
  'cc-2.1.42-pr-link-compact1-c010174c.jsonl': [
    ['1', 'Add custom UnmarshalJSON for GeminiMessage content field', 'completed'],
    ['2', 'Add tests for real Gemini transcript format with array content', 'completed'],
    ['3', 'Add strategy-level regression test for sessionHasNewContent with Gemini', 'completed'],
    ['4', 'Run fmt, lint, and all tests', 'completed'],
  ],
  // All main thread: TaskCreate #1..#10 (lines 218-236), #11 (566); addBlockedBy updates on #9/#10 carry no
  // status; every task ends completed (last: #10 at line 686).
  'cc-2.1.49-malformed-toolname-compact1-f7594e2b.jsonl': [
    ['1', 'H1: Add file key re-wrapping to collectChildKeys', 'completed'],
    ['2', 'H2: Add DTO input validation for hex fields', 'completed'],
    ['3', 'H3: Remove userId from lookup endpoint response', 'completed'],
    ['4', 'H4: Fix unique constraint for soft-delete revocation', 'completed'],
    ['5', 'M2: Document zeroing contract in reWrapForRecipients', 'completed'],
    ['6', 'M3: Zero folder keys on navigation away', 'completed'],
    ['7', 'M4: Add TTL to share keys cache', 'completed'],
    ['8', 'L2/L3/L4: Fix low-priority items', 'completed'],
    ['9', 'Regenerate API client and verify build', 'completed'],
    ['10', 'Update security review with resolution status and commit', 'completed'],
    ['11', 'Implement suggested security test cases', 'completed'],
  ],
}

/**
 * The snapshot's inside files, most recent first: the first ones, ordered by the line of their last
 * Write/Edit/MultiEdit tool_use (hand-checked; none of these sessions changes files with shell commands).
 */
const MOST_RECENT: Record<string, string[]> = {
  'cc-1.0.111-multiedit-todowrite-cb947e5b.jsonl': ['src/game/HistoryLog.tsx', 'src/app/globals.css'], // 31, 17
  'cc-1.0.98-inline-sidechains-multiedit-bashoutput-fe5e1c67.jsonl': ['CLAUDE.md', 'todo-app/src/app/page.tsx', 'todo-app/src/hooks/useSimpleTodos.ts'], // 436, 386, 383
  'cc-2.0.76-compact1-task-todowrite-847ff7d2.jsonl': ['cmd/entire/cli/strategy/cleanup.go', 'cmd/entire/cli/checkpoint/checkpoint_test.go', 'cmd/entire/cli/checkpoint/committed.go'], // 411, 341, 322
  'cc-2.1.49-malformed-toolname-compact1-f7594e2b.jsonl': ['.learnings/2026-02-21-phase14-user-to-user-sharing.md', 'packages/crypto/src/__tests__/rewrap.test.ts', '.planning/todos/pending/2026-02-21-phase14-security-review-deferred.md'], // 746, 576, 415
  // 1164 (main thread), then line 1085, a subagent's `rm` of summarize.go, summarize_claude.go,
  // summarize_test.go and summarize_claude_test.go (ties in path order); shell deletes count as changes
  'cc-2.1.20-taskcreate-local-command-mcp-b82405ba.jsonl': ['cmd/entire/cli/summarise/claude.go', 'cmd/entire/cli/summarize.go', 'cmd/entire/cli/summarize_claude.go'],
  'cc-2.1.5-long-compact2-44df7d08.jsonl': ['cmd/entire/cli/integration_test/concurrent_session_warning_test.go', 'cmd/entire/cli/checkpoint/checkpoint.go', 'cmd/entire/cli/strategy/auto_commit.go'], // 933, 892, 880
}

/**
 * The current task of the snapshot (latest substantial request, see currentTask): the last request is a
 * bare reply, so the one before it must be chosen. Phrases from the hand-checked prompt lines.
 */
const CURRENT_TASK: Record<string, string> = {
  // last request L377 "3"; before it L358
  'cc-2.0.76-compact1-task-todowrite-847ff7d2.jsonl': 'regarding:  9. CleanupItem.Reason Never Displayed',
  // last request L218 "yes please"; before it L211
  'cc-2.1.12-progress-local-command-mcp-04cd0da1.jsonl': "I'm considering if we want to specify what's contained in the files",
  // last request L76 "yes"; before it L65
  'cc-2.1.205-windows-pr-link-small-e3c445a1.jsonl': 'there are em dahses here?',
}

/** Relative, `/`-separated, no drive, no `..`: what every inside key must look like. */
function isProjectRelative(p: string): boolean {
  return p !== '' && !p.startsWith('/') && !/^[A-Za-z]:/.test(p) && !p.includes('\\') && !p.split('/').includes('..')
}

describe.skipIf(!CORPUS_PRESENT)('corpus: every Claude Code transcript', () => {
  it('is read without an exception, with every line consumed and none skipped', async () => {
    const files = claudeFiles()
    expect(files.length).toBeGreaterThanOrEqual(38)
    const expectedLines = new Map(FACTS.map((f) => [f.file, f.lines]))
    const rows: string[] = []
    let totalLines = 0
    let totalSkipped = 0
    for (const name of files) {
      const { stats, state } = await load(name)
      rows.push(`${name}: lines=${stats.lines} skipped=${stats.skipped} oversized=${stats.oversized} entries=${stats.entries} partialTail=${stats.partialTail}`)
      totalLines += stats.lines
      totalSkipped += stats.skipped
      expect(stats.restarted, name).toBe(false)
      expect(stats.oversized, name).toBe(0)
      expect(stats.entries, name).toBeGreaterThan(0)
      expect(state.counts.entries, name).toBe(stats.entries)
      // Hand-checked: every line of the corpus is a JSON object with a string `type`.
      expect(stats.skipped, name).toBe(0)
      // Every file ends in a complete JSON line (16 of them without a final newline), so all lines count.
      expect(stats.partialTail, name).toBe(false)
      const want = expectedLines.get(name)
      if (want !== undefined) expect(stats.lines, name).toBe(want)
      for (const k of Object.keys(state.files)) expect(isProjectRelative(k), `${name}: inside key ${k}`).toBe(true)
    }
    console.log(`corpus: ${files.length} Claude Code transcripts, ${totalLines} lines, ${totalSkipped} skipped\n  ${rows.join('\n  ')}`)
    expect(totalSkipped).toBe(0)
  })

  it('has hand-checked facts about named corpus files (all 38 today)', () => {
    const files = new Set(claudeFiles())
    for (const f of FACTS) expect(files.has(f.file), f.file).toBe(true)
    expect(new Set(FACTS.map((f) => f.file)).size).toBe(FACTS.length)
    expect(FACTS.length).toBeGreaterThanOrEqual(12)
  })
})

describe.skipIf(!CORPUS_PRESENT)('corpus: hand-checked facts per transcript', () => {
  for (const fact of FACTS) {
    const win = isWindowsRoot(fact.root)
    describe(fact.file, () => {
      it('uses the first cwd as project root and reads the versions', async () => {
        const { root, state } = await load(fact.file)
        expect(root).toBe(fact.root)
        expect(await firstCwd(claudePath(fact.file))).toBe(fact.root)
        expect([...state.versions].sort()).toEqual(fact.versions)
      })

      it('finds the files changed by Write/Edit/MultiEdit/NotebookEdit, inside and outside the project', async () => {
        const { state } = await load(fact.file)
        const inside = byFileTools(state.files)
        const got = keys(
          inside.map((r) => r.path),
          win,
        )
        if (fact.edited) expect(got).toEqual(keys(fact.edited, win))
        if (fact.editedIncludes) for (const p of fact.editedIncludes) expect(got).toContain(key(p, win))
        if (fact.editedCount !== undefined) expect(got).toHaveLength(fact.editedCount)
        if (fact.subagentOnly !== undefined) expect(inside.filter((r) => r.subagent)).toHaveLength(fact.subagentOnly)
        else expect(inside.filter((r) => r.subagent).map((r) => r.path)).toEqual([])
        for (const r of inside) expect(isProjectRelative(r.path), r.path).toBe(true)
        expect(keys(byFileTools(state.outside).map((r) => r.path), win)).toEqual(keys(fact.outside, win))
        for (const [path, from] of fact.moved ?? []) expect(state.files[path]?.from).toBe(from)
      })

      it('counts the compactions', async () => {
        const { state } = await load(fact.file)
        expect(state.compactions.map((c) => [c.trigger, c.preTokens])).toEqual(fact.compactions)
        expect(state.microcompactions).toBe(fact.micro)
      })

      if (fact.lastPrompt) {
        const lp = fact.lastPrompt
        it(`takes line ${lp.line} as the last real request`, async () => {
          const { state } = await load(fact.file)
          const last = state.recentPrompts.at(-1)
          expect(last?.line).toBe(lp.line)
          if (lp.text !== undefined) expect(last?.text.trim()).toBe(lp.text)
          if (lp.contains !== undefined) expect(last?.text).toContain(lp.contains)
          expect(state.prompts.at(-1)?.line).toBe(lp.line)
          expect(state.prompts.at(-1)?.text.length).toBeLessThanOrEqual(500)
        })
      }

      if (fact.todos) {
        const todos = fact.todos
        it('keeps the last TodoWrite list', async () => {
          const { state, root } = await load(fact.file)
          expect(state.todos?.map((t) => [t.content, t.status])).toEqual(todos)
          const snap = snapshotOf(state, root)
          expect(snap.tasks.source).toBe('TodoWrite')
          expect(snap.tasks.items.map((t) => [t.text, t.status])).toEqual(todos)
        })
      }

      const tasks = TASKS[fact.file]
      if (tasks) {
        it('ends with the hand-checked TaskCreate/TaskUpdate list', async () => {
          const { state, root } = await load(fact.file)
          const snap = snapshotOf(state, root)
          expect(snap.tasks.source).toBe('TaskCreate')
          expect(snap.tasks.items.map((t) => [t.id, t.text, t.status])).toEqual(tasks)
        })
      }

      const recent = MOST_RECENT[fact.file]
      if (recent) {
        it('lists the snapshot files most recent first', async () => {
          const { state, root } = await load(fact.file)
          expect(snapshotOf(state, root).files.slice(0, recent.length).map((r) => r.path)).toEqual(recent)
        })
      }

      const current = CURRENT_TASK[fact.file]
      if (current) {
        it('picks the latest substantial request as the current task', async () => {
          const { state, root } = await load(fact.file)
          expect(snapshotOf(state, root).task).toContain(current)
        })
      }

      if (!fact.todos && !tasks && !fact.file.startsWith('cc-2.1.41-agent-teams')) {
        it('has no task list', async () => {
          const { state, root } = await load(fact.file)
          const snap = snapshotOf(state, root)
          expect(snap.tasks.items).toEqual([])
        })
      }
    })
  }
})

describe.skipIf(!CORPUS_PRESENT)('corpus: agent teams (cc-2.1.41)', () => {
  // Teammates are separate sessions: their TaskUpdates are not in this file. The only record of their
  // progress is the main thread's TaskList result; the last one (line 182, toolUseResult.tasks) says
  // #2, #3, #5, #6 completed, #1 and #4 in_progress. No later TaskUpdate/TaskCreate in the file.
  it('keeps the six TaskCreate subjects, and the statuses the last TaskList reported', async () => {
    const { state, root } = await load('cc-2.1.41-agent-teams-7e7f49b0.jsonl')
    const items = snapshotOf(state, root).tasks.items
    expect(items.map((t) => [t.id, t.text])).toEqual([
      ['1', 'Backend: Redis response cache + redirect_slashes fix'],
      ['2', 'Frontend: Fix Next.js proxy TTFB + trailing slash'],
      ['3', 'Frontend: Query deduplication + polling optimization'],
      ['4', 'Frontend: Dashboard rendering performance (3D, animations, RAF, Suspense)'],
      ['5', 'Frontend: Auth race condition fix'],
      ['6', 'Infrastructure: Redis LRU eviction policy'],
    ])
    const status = Object.fromEntries(items.map((t) => [t.id, t.status]))
    expect([status['2'], status['3'], status['5'], status['6']]).toEqual(['completed', 'completed', 'completed', 'completed'])
    expect(status['1']).not.toBe('pending')
    expect(status['4']).not.toBe('pending')
  })
})

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
      const { state } = await load(fact.file)
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
    const { state } = await load('cc-2.1.205-windows-powershell-mcp-b342582f.jsonl')
    expect(state.files['packages/msix/out/install-arm64.msi']?.op).toBe('deleted')
    expect(state.files['packages/msix/out/install-arm64.wixpdb']?.op).toBe('deleted')
  })

  it('cc-2.1.215-windows: `cd /d/oh-my-posh/src && cat >> color/gradient_test.go` (407) and `sed -i` (412) change src/color/gradient_test.go', async () => {
    const { state } = await load('cc-2.1.215-windows-api-error-image-mcp-94fab1a1.jsonl')
    expect(state.files['src/color/gradient_test.go']?.tools ?? []).toContain('Bash')
  })

  it('cc-2.1.215-windows: `cat >> /c/Users/jande/.../gradient-spec.md` (736) is the C:/ file the Write at line 70 created', async () => {
    const { state } = await load('cc-2.1.215-windows-api-error-image-mcp-94fab1a1.jsonl')
    const spec = Object.values(state.outside).filter((r) => r.path.toLowerCase().endsWith('/scratchpad/gradient-spec.md'))
    expect(spec.map((r) => r.path)).toEqual(['C:/Users/jande/AppData/Local/Temp/claude/D--oh-my-posh/dcce4143-4609-43c5-a0e3-ea883f6c959b/scratchpad/gradient-spec.md'])
    expect(spec[0]?.tools).toEqual(expect.arrayContaining(['Write', 'Bash']))
  })

  it('cc-2.1.219-windows-long: `cd /d/oh-my-posh && rm -f omp-local.exe` (774) and `cd /d/oh-my-posh/src && rm -f bin/oh-my-posh` (1040) delete project files', async () => {
    const { state } = await load('cc-2.1.219-windows-long-compact1-image-api-error-6b6f4218.jsonl')
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
    const { state } = await load('cc-2.1.215-windows-api-error-image-mcp-94fab1a1.jsonl')
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
        expect(keys(byFileTools(state.files).map((r) => r.path), true)).toEqual(keys(fact.edited ?? [], true))
        expect(keys(byFileTools(state.outside).map((r) => r.path), true)).toEqual(keys(fact.outside, true))
      })
    }
  }

  it('cc-2.1.205-windows-powershell: paths keep their case and use / (hand-checked literal keys)', async () => {
    const { state } = await load('cc-2.1.205-windows-powershell-mcp-b342582f.jsonl')
    // Raw: file_path "D:\\oh-my-posh\\packages\\msix\\README.md" (Write, line 126) and "...\\src\\cli\\upgrade\\notice_test.go".
    expect(Object.keys(state.files)).toEqual(expect.arrayContaining(['packages/msix/README.md', 'src/cli/upgrade/notice_test.go', '.github/workflows/release.yml']))
  })
})

