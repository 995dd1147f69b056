import { describe, expect, it } from 'vitest'
import { gitEvents, type GitEvent } from './git.js'

interface Row {
  name: string
  cmd: string
  out?: string
  error?: boolean
  events: GitEvent[]
}

const HEREDOC_COMMIT = `git add src/math_utils.py tests/test_math_utils.py && git commit -m "$(cat <<'EOF'
Add multiply_numbers function with test

Co-Authored-By: Claude Opus 4.5 <noreply@anthropic.com>
EOF
)"`

const commits: Row[] = [
  { name: '-m message', cmd: 'git commit -m "fix: typo"', events: [{ kind: 'commit', message: 'fix: typo' }] },
  { name: 'single-quoted -m', cmd: "git commit -m 'feat: x'", events: [{ kind: 'commit', message: 'feat: x' }] },
  {
    name: 'several -m joined by a blank line',
    cmd: 'git commit -m "subject" -m "body line"',
    events: [{ kind: 'commit', message: 'subject\n\nbody line' }],
  },
  { name: '--message=', cmd: 'git commit --message="chore: bump"', events: [{ kind: 'commit', message: 'chore: bump' }] },
  { name: '--message value', cmd: 'git commit --message "chore: x"', events: [{ kind: 'commit', message: 'chore: x' }] },
  { name: '-am cluster', cmd: 'git commit -am "wip"', events: [{ kind: 'commit', message: 'wip' }] },
  { name: '-mMSG attached', cmd: 'git commit -mquick', events: [{ kind: 'commit', message: 'quick' }] },
  {
    name: 'heredoc $(cat <<EOF) message, output confirms',
    cmd: HEREDOC_COMMIT,
    out: '[master 6322cf4] Add multiply_numbers function with test\n 2 files changed, 13 insertions(+), 1 deletion(-)',
    events: [
      {
        kind: 'commit',
        message: 'Add multiply_numbers function with test\n\nCo-Authored-By: Claude Opus 4.5 <noreply@anthropic.com>',
        hash: '6322cf4',
        branch: 'master',
      },
    ],
  },
  {
    name: 'heredoc message without output (-q)',
    cmd: 'git commit -q -m "$(cat <<\'EOF\'\n  Trim me  \nEOF\n)"',
    events: [{ kind: 'commit', message: 'Trim me' }],
  },
  {
    name: 'root-commit output',
    cmd: 'git commit -m "init"',
    out: '[main (root-commit) 1a2b3c4] init\n 1 file changed',
    events: [{ kind: 'commit', message: 'init', hash: '1a2b3c4', branch: 'main' }],
  },
  {
    name: 'output subject replaces the first paragraph',
    cmd: 'git commit -m "subject as typed\n\nbody"',
    out: '[dev 0123abcd] subject as git saw it',
    events: [{ kind: 'commit', message: 'subject as git saw it\n\nbody', hash: '0123abcd', branch: 'dev' }],
  },
  {
    name: 'detached HEAD: no branch',
    cmd: 'git commit -m x',
    out: '[detached HEAD 9f8e7d6] x',
    events: [{ kind: 'commit', message: 'x', hash: '9f8e7d6' }],
  },
  {
    name: '-F file: message from the output',
    cmd: 'git commit -F /tmp/msg.txt',
    out: '[main abcdef1] from a file\n 1 file changed',
    events: [{ kind: 'commit', message: 'from a file', hash: 'abcdef1', branch: 'main' }],
  },
  {
    name: '-F file without output: empty message',
    cmd: 'git commit -q -F msg.txt',
    events: [{ kind: 'commit', message: '' }],
  },
  {
    name: '-F - with a heredoc on stdin',
    cmd: "git commit -q -F - <<'EOF'\nfeat(x): add y\n\nbecause z\nEOF",
    events: [{ kind: 'commit', message: 'feat(x): add y\n\nbecause z' }],
  },
  {
    name: '--amend --no-edit takes the output subject',
    cmd: 'git reset --soft HEAD~1 && git commit --amend --no-edit && git log --oneline -4',
    out: '[feat/gradient-colors 1926682b] feat: add linear-gradient segment colors\n Date: Wed Jul 22 10:15:16 2026 +0200\n1926682b feat: add linear-gradient segment colors',
    events: [
      { kind: 'reset', detail: '--soft HEAD~1' },
      { kind: 'commit', message: 'feat: add linear-gradient segment colors', hash: '1926682b', branch: 'feat/gradient-colors' },
    ],
  },
  {
    name: '$VAR message: unknown, output subject used',
    cmd: 'git commit -m "$MSG"',
    out: '[main 1111111] expanded message',
    events: [{ kind: 'commit', message: 'expanded message', hash: '1111111', branch: 'main' }],
  },
  { name: 'failed commit (isError)', cmd: 'git commit -m x', out: 'Exit code 1\nhook failed', error: true, events: [] },
  {
    name: 'nothing to commit',
    cmd: 'git commit -m x',
    out: 'On branch main\nnothing to commit, working tree clean',
    events: [],
  },
  {
    name: 'no changes added to commit',
    cmd: 'git commit -m x',
    out: 'no changes added to commit (use "git add" and/or "git commit -a")',
    events: [],
  },
  { name: '--dry-run', cmd: 'git commit --dry-run -m x', events: [] },
  { name: '--help', cmd: 'git commit --help', events: [] },
  {
    name: 'output proves the commit even when a later step failed',
    cmd: 'git commit -m "ok" && npm test',
    out: '[main 2222222] ok\nnpm ERR! Test failed',
    error: true,
    events: [{ kind: 'commit', message: 'ok', hash: '2222222', branch: 'main' }],
  },
  {
    name: 'two commits pair with two output lines',
    cmd: 'git commit -m one a.ts && git commit -m two b.ts',
    out: '[main 3333333] one\n 1 file changed\n[main 4444444] two\n 1 file changed',
    events: [
      { kind: 'commit', message: 'one', hash: '3333333', branch: 'main' },
      { kind: 'commit', message: 'two', hash: '4444444', branch: 'main' },
    ],
  },
  {
    name: 'git -C dir commit',
    cmd: 'git -C packages/core commit -m "core: x"',
    events: [{ kind: 'commit', message: 'core: x' }],
  },
  {
    name: 'cd && git add && git commit',
    cmd: 'cd /repo && git add -A && git commit -m "all"',
    events: [{ kind: 'commit', message: 'all' }],
  },
  { name: 'git log / status / diff are not events', cmd: 'git log --oneline -5 && git status && git diff --stat', events: [] },
  { name: 'gh pr create is ignored', cmd: 'gh pr create --title "x" --body "y"', events: [] },
  { name: 'echo of a git command is not a git command', cmd: 'echo "git commit -m x"', events: [] },
  {
    name: 'bash -c nested commit',
    cmd: "bash -c 'git commit -m inner'",
    events: [{ kind: 'commit', message: 'inner' }],
  },
  {
    name: 'user rejected the tool use',
    cmd: HEREDOC_COMMIT,
    out: "The user doesn't want to proceed with this tool use. The tool use was rejected",
    error: true,
    events: [],
  },
]

const branches: Row[] = [
  { name: 'checkout -b', cmd: 'git checkout -b feat/x', events: [{ kind: 'branch', to: 'feat/x', created: true }] },
  { name: 'checkout -b with start point', cmd: 'git checkout -b fix origin/main', events: [{ kind: 'branch', to: 'fix', created: true }] },
  { name: 'checkout -B', cmd: 'git checkout -q -B rewrite main', events: [{ kind: 'branch', to: 'rewrite', created: true }] },
  { name: 'switch -c', cmd: 'git switch -c topic', events: [{ kind: 'branch', to: 'topic', created: true }] },
  { name: 'switch --create', cmd: 'git switch --create topic2', events: [{ kind: 'branch', to: 'topic2', created: true }] },
  { name: 'switch existing', cmd: 'git switch main', events: [{ kind: 'branch', to: 'main', created: false }] },
  { name: 'checkout existing', cmd: 'git checkout develop', events: [{ kind: 'branch', to: 'develop', created: false }] },
  {
    name: 'checkout confirmed by output',
    cmd: 'git checkout release-1.2',
    out: "Switched to branch 'release-1.2'",
    events: [{ kind: 'branch', to: 'release-1.2', created: false }],
  },
  {
    name: 'checkout of a remote branch creates it (output says so)',
    cmd: 'git checkout feature',
    out: "branch 'feature' set up to track 'origin/feature'.\nSwitched to a new branch 'feature'",
    events: [{ kind: 'branch', to: 'feature', created: true }],
  },
  {
    name: 'checkout - uses the output',
    cmd: 'git checkout -',
    out: "Switched to branch 'main'",
    events: [{ kind: 'branch', to: 'main', created: false }],
  },
  { name: 'checkout - without output', cmd: 'git switch -', events: [] },
  { name: 'checkout -- file', cmd: 'git checkout -- src/a.ts', events: [] },
  { name: 'checkout .', cmd: 'git checkout .', events: [] },
  { name: 'checkout a file by name', cmd: 'git checkout package.json', events: [] },
  { name: 'checkout branch -- file', cmd: 'git checkout main -- a.ts', events: [] },
  { name: 'checkout branch file', cmd: 'git checkout main a.ts', events: [] },
  { name: 'checkout a file the output reveals', cmd: 'git checkout Makefile', out: 'Updated 1 path from the index', events: [] },
  { name: 'checkout a commit (detached)', cmd: 'git checkout 1a2b3c4', out: 'HEAD is now at 1a2b3c4 msg', events: [] },
  { name: 'switch --detach', cmd: 'git switch --detach v1.0', events: [] },
  { name: 'failed checkout', cmd: 'git checkout nope', out: "error: pathspec 'nope' did not match", error: true, events: [] },
  { name: '$VAR branch', cmd: 'git checkout "$BRANCH"', events: [] },
  {
    name: 'corpus: branch, reset --hard, checkout',
    cmd: 'git log --oneline -4 && git status --short && git branch feat/gradient-colors && git reset --hard HEAD~2 && git checkout feat/gradient-colors && git log --oneline -3',
    out: "d2a968c4 feat: add linear-gradient segment colors\nHEAD is now at 7271d249 chore(deps): bump\nSwitched to branch 'feat/gradient-colors'\nd2a968c4 feat: add linear-gradient segment colors",
    events: [
      { kind: 'reset', detail: '--hard HEAD~2' },
      { kind: 'branch', to: 'feat/gradient-colors', created: false },
    ],
  },
]

const pushes: Row[] = [
  {
    name: 'push -u origin branch',
    cmd: 'git push -u origin alex/ent-108-add-ai-summaries 2>&1',
    out: "To github.com:entireio/cli.git\n * [new branch]      alex/ent-108-add-ai-summaries -> alex/ent-108-add-ai-summaries\nbranch 'alex/ent-108-add-ai-summaries' set up to track 'origin/alex/ent-108-add-ai-summaries'.",
    events: [{ kind: 'push', remote: 'origin', branch: 'alex/ent-108-add-ai-summaries', ok: true }],
  },
  {
    name: 'bare push: branch from output',
    cmd: 'git push 2>&1',
    out: '[entire] Pushing session logs to origin...\nTo github.com:entireio/cli.git\n   ee894ec..fe89275  alex/ent-108-add-ai-summaries -> alex/ent-108-add-ai-summaries',
    events: [{ kind: 'push', branch: 'alex/ent-108-add-ai-summaries', ok: true }],
  },
  {
    name: 'push remote refspec src:dst',
    cmd: 'git push origin HEAD:refs/heads/release',
    events: [{ kind: 'push', remote: 'origin', branch: 'release', ok: true }],
  },
  {
    name: 'push --force-with-lease +branch',
    cmd: 'git push --force-with-lease origin +main',
    events: [{ kind: 'push', remote: 'origin', branch: 'main', ok: true }],
  },
  {
    name: 'push HEAD: branch from output',
    cmd: 'git push origin HEAD',
    out: 'To x\n + 1234abc...5678def topic -> topic (forced update)',
    events: [{ kind: 'push', remote: 'origin', branch: 'topic', ok: true }],
  },
  {
    name: 'rejected push',
    cmd: 'git push origin main',
    out: "To x\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to 'x'",
    error: true,
    events: [{ kind: 'push', remote: 'origin', branch: 'main', ok: false }],
  },
  {
    name: 'push -u origin $(git branch --show-current)',
    cmd: 'git push -u origin $(git branch --show-current)',
    out: " * [new branch]      wip -> wip\nbranch 'wip' set up to track 'origin/wip'.",
    events: [{ kind: 'push', remote: 'origin', branch: 'wip', ok: true }],
  },
  { name: 'push --dry-run', cmd: 'git push --dry-run origin main', events: [] },
  {
    name: 'commit then push',
    cmd: 'git commit -m "x" && git push',
    out: '[main 5555555] x\nTo y\n   1111111..5555555  main -> main',
    events: [
      { kind: 'commit', message: 'x', hash: '5555555', branch: 'main' },
      { kind: 'push', branch: 'main', ok: true },
    ],
  },
]

const others: Row[] = [
  { name: 'merge', cmd: 'git merge feature', events: [{ kind: 'merge', detail: 'feature' }] },
  { name: 'merge --no-ff -m', cmd: 'git merge --no-ff -m "Merge x" x', events: [{ kind: 'merge', detail: '--no-ff -m "Merge x" x' }] },
  {
    name: 'corpus: merge with conflict (failed)',
    cmd: 'git merge origin/alex/ent-109-text-output-checkpoint-flag -m "Merge alex/ent-109-text-output-checkpoint-flag into alex/ent-108-add-ai-summaries" 2>&1',
    out: 'Exit code 1\nAuto-merging cmd/entire/cli/checkpoint/checkpoint.go\nCONFLICT (content): Merge conflict in cmd/entire/cli/checkpoint/checkpoint.go\nAutomatic merge failed; fix conflicts and then commit the result.',
    error: true,
    events: [
      {
        kind: 'merge',
        detail:
          'origin/alex/ent-109-text-output-checkpoint-flag -m "Merge alex/ent-109-text-output-checkpoint-flag into alex/ent-108-add-ai-summaries" (conflict)',
      },
    ],
  },
  { name: 'merge failed without conflict', cmd: 'git merge nope', out: 'merge: nope - not something we can merge', error: true, events: [] },
  { name: 'merge-base is not a merge', cmd: 'git merge-base --is-ancestor a HEAD && echo yes', events: [] },
  { name: 'rebase', cmd: 'git rebase -i HEAD~3', events: [{ kind: 'rebase', detail: '-i HEAD~3' }] },
  { name: 'rebase --continue', cmd: 'GIT_EDITOR=true git rebase --continue', events: [{ kind: 'rebase', detail: '--continue' }] },
  { name: 'reset --hard', cmd: 'git reset --hard origin/main', events: [{ kind: 'reset', detail: '--hard origin/main' }] },
  { name: 'bare reset', cmd: 'git reset', events: [{ kind: 'reset', detail: '' }] },
  { name: 'pull --rebase', cmd: 'git pull --rebase origin main', events: [{ kind: 'pull', detail: '--rebase origin main' }] },
  { name: 'stash', cmd: 'git stash', events: [{ kind: 'stash', detail: 'push' }] },
  { name: 'stash pop', cmd: 'git stash pop', events: [{ kind: 'stash', detail: 'pop' }] },
  {
    name: 'corpus: stash push -m with pathspecs',
    cmd: 'git stash push -m "harness removal + comment fixes" -- website/export_themes.mjs website/font-metrics.mjs && git status --short | head',
    events: [{ kind: 'stash', detail: 'push -m "harness removal + comment fixes" -- website/export_themes.mjs website/font-metrics.mjs' }],
  },
  { name: 'stash list is read-only', cmd: 'git stash list', events: [] },
  {
    name: 'corpus: stash list then drop',
    cmd: 'cd /d/oh-my-posh && git stash list && git stash drop 2>/dev/null; echo "--- tree ---"; git status --short',
    events: [{ kind: 'stash', detail: 'drop' }],
  },
  { name: 'tag create', cmd: 'git tag -a v1.2.0 -m "release 1.2.0"', events: [{ kind: 'tag', detail: '-a v1.2.0 -m "release 1.2.0"' }] },
  { name: 'tag delete', cmd: 'git tag -d v0.1', events: [{ kind: 'tag', detail: '-d v0.1' }] },
  { name: 'tag list', cmd: 'git tag', events: [] },
  { name: 'tag -l pattern', cmd: "git tag -l 'v1.*'", events: [] },
  { name: 'tag --contains', cmd: 'git tag --contains abc123', events: [] },
  { name: 'failed reset', cmd: 'git reset --hard nope', out: 'fatal: ambiguous argument', error: true, events: [] },
  {
    name: 'heredoc merge message is shown by its first line',
    cmd: 'git merge x -m "$(cat <<\'EOF\'\nMerge x into y\n\nbody\nEOF\n)"',
    events: [{ kind: 'merge', detail: 'x -m "Merge x into y"' }],
  },
]

describe('gitEvents', () => {
  for (const [group, rows] of [
    ['commit', commits],
    ['branch', branches],
    ['push', pushes],
    ['merge/rebase/reset/pull/stash/tag', others],
  ] as const) {
    describe(group, () => {
      it.each(rows)('$name', ({ cmd, out, error, events }) => {
        expect(gitEvents(cmd, out ?? '', error ?? false)).toEqual(events)
      })
    })
  }

  it('never throws on odd input', () => {
    expect(gitEvents(undefined as unknown as string, undefined as unknown as string, false)).toEqual([])
    expect(gitEvents('git commit -m "unterminated', '', false)).toEqual([{ kind: 'commit', message: '' }])
    expect(gitEvents('git', 'x', true)).toEqual([])
    expect(gitEvents('git commit -m', '', false)).toEqual([{ kind: 'commit', message: '' }])
  })
})

describe('an amend that keeps its message', () => {
  const before = 'feat: add gradients\n\nWhy it is done this way.'
  it('takes the message of the commit it replaced when git printed nothing (output sent to /dev/null)', () => {
    // cc-2.1.219-windows-long-compact1-image-api-error-6b6f4218: the amend's output went to /dev/null.
    expect(gitEvents('git commit --amend -F /tmp/msg.txt --no-edit >/dev/null', '', false, undefined, before)).toEqual([{ kind: 'commit', message: before }])
    expect(gitEvents('git commit -q --amend --no-edit', '', false, undefined, before)).toEqual([{ kind: 'commit', message: before }])
  })

  it('keeps the body of the replaced message under the subject git printed', () => {
    const out = '[main 1a2b3c4] feat: add gradients\n Date: Wed Jul 22 10:15:16 2026 +0200'
    expect(gitEvents('git commit --amend --no-edit', out, false, undefined, before)).toEqual([
      { kind: 'commit', message: before, hash: '1a2b3c4', branch: 'main' },
    ])
    // Another subject: the message changed (-F), so only what git printed is known.
    expect(gitEvents('git commit --amend --no-edit -F m.txt', '[main 1a2b3c4] other', false, undefined, before)).toEqual([
      { kind: 'commit', message: 'other', hash: '1a2b3c4', branch: 'main' },
    ])
  })

  it('is not applied to an amend with a message of its own, nor without a commit before it', () => {
    expect(gitEvents('git commit --amend -m "new words"', '', false, undefined, before)).toEqual([{ kind: 'commit', message: 'new words' }])
    expect(gitEvents('git commit --amend --no-edit', '', false, undefined, undefined)).toEqual([{ kind: 'commit', message: '' }])
    expect(gitEvents('git commit -q -F msg.txt', '', false, undefined, before)).toEqual([{ kind: 'commit', message: '' }])
  })

  it('takes the message of a commit made earlier in the same command', () => {
    expect(gitEvents('git commit -qm "first" && git commit -q --amend --no-edit', '', false, undefined, before)).toEqual([
      { kind: 'commit', message: 'first' },
      { kind: 'commit', message: 'first' },
    ])
  })
})
