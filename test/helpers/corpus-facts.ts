/**
 * Hand-checked facts about the real Claude Code transcripts of the shared corpus
 * (../shared/corpus/claude, see SOURCES.tsv and docs/host-contracts.md section 3), for the corpus tests
 * (corpus-transcripts.test.ts, corpus-windows.test.ts), and the path comparisons they use.
 *
 * Every expected value here, and in the task tables of corpus-transcripts.test.ts, was derived
 * INDEPENDENTLY of our code, with python3 scripts reading the raw
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
 *    no tool_result block or text blocks beside it (a message typed while a tool ran), whose `origin.kind` (when present) is "human", and whose text (string content or
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
import type { FileRecord } from '../../src/extract/model.js'

const FILE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit'])

export function isWindowsRoot(root: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(root)
}

/** Files changed by the file tools (the records may also carry shell changes; those are not compared here). */
export function byFileTools(table: Record<string, FileRecord>): FileRecord[] {
  return Object.values(table).filter((r) => r.tools.some((t) => FILE_TOOLS.has(t)))
}

/** Comparable form of a path: `/` separators, and lower case for Windows sessions. */
export function key(p: string, windows: boolean): string {
  const s = p.replace(/\\/g, '/')
  return windows ? s.toLowerCase() : s
}

export function keys(paths: Iterable<string>, windows: boolean): string[] {
  return [...paths].map((p) => key(p, windows)).sort()
}

/** Relative, `/`-separated, no drive, no `..`: what every inside key must look like. */
export function isProjectRelative(p: string): boolean {
  return p !== '' && !p.startsWith('/') && !/^[A-Za-z]:/.test(p) && !p.includes('\\') && !p.split('/').includes('..')
}

export interface Fact {
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

// One transcript per line: the table reads as a table (Prettier would spread it over 800 lines).
// prettier-ignore
export const FACTS: Fact[] = [
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
    // Line 566 is a tool_result line with a text block the user typed while the Edit ran. (Line 516 before it is
    // `<command-name>/github-pr-review</command-name>`: a custom slash command, which counts as a request too.)
    lastPrompt: { line: 566, text: "and let's think about how we consolidate the agent-specific hook types with these if possible" },
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
