import { describe, expect, it } from 'vitest'
import { shellFileOps, type ShellFileOp } from './rules.js'

interface Row {
  name: string
  cmd: string
  ops: ShellFileOp[]
}

const w = (path: string, append = false, content?: string): ShellFileOp =>
  content === undefined ? { op: 'write', path, append } : { op: 'write', path, append, content }
const edit = (path: string): ShellFileOp => ({ op: 'edit', path })
const del = (path: string, recursive = false): ShellFileOp => ({ op: 'delete', path, recursive })
const mv = (from: string, path: string): ShellFileOp => ({ op: 'move', from, path })
const cp = (from: string, path: string, recursive = false): ShellFileOp => ({ op: 'copy', from, path, recursive })
const mkdir = (path: string): ShellFileOp => ({ op: 'mkdir', path })
const touch = (path: string): ShellFileOp => ({ op: 'touch', path })

const bash: Row[] = [
  // redirections
  { name: 'echo > file', cmd: 'echo hi > a.txt', ops: [w('a.txt')] },
  { name: 'append >>', cmd: 'echo hi >> log/a.log', ops: [w('log/a.log', true)] },
  { name: 'no space after >', cmd: 'echo hi >out.txt', ops: [w('out.txt')] },
  { name: 'clobber >|', cmd: 'date >| stamp.txt', ops: [w('stamp.txt')] },
  { name: 'stderr to file 2>', cmd: 'npm test 2>err.log', ops: [w('err.log')] },
  { name: 'stderr append 2>>', cmd: 'npm test 2>> err.log', ops: [w('err.log', true)] },
  { name: '&> writes both streams', cmd: 'make &> build.log', ops: [w('build.log')] },
  { name: '&>> appends both streams', cmd: 'make &>> build.log', ops: [w('build.log', true)] },
  { name: '>& file (bash form)', cmd: 'make >& build.log', ops: [w('build.log')] },
  { name: '2>&1 is not a file', cmd: 'go test ./... 2>&1 | tail -5', ops: [] },
  { name: '>&2 is not a file', cmd: 'echo oops >&2', ops: [] },
  { name: '1>&2 and 2>&-', cmd: 'cmd 1>&2 2>&-', ops: [] },
  { name: '/dev/null', cmd: 'ls foo 2>/dev/null > /dev/null', ops: [] },
  { name: '&>/dev/null', cmd: 'which claude &>/dev/null', ops: [] },
  { name: '/dev/stderr and /dev/tty', cmd: 'echo a > /dev/stderr; echo b > /dev/tty', ops: [] },
  { name: 'redirect plus 2>&1', cmd: 'npm run build > build.log 2>&1', ops: [w('build.log')] },
  { name: 'redirect before the command', cmd: '> empty.txt', ops: [w('empty.txt')] },
  { name: 'quoted target with space', cmd: 'echo x > "my notes.md"', ops: [w('my notes.md')] },
  { name: 'single-quoted target', cmd: "echo x > 'a b.txt'", ops: [w('a b.txt')] },
  { name: 'escaped space in target', cmd: 'echo x > my\\ file.txt', ops: [w('my file.txt')] },
  { name: 'absolute target', cmd: 'printf "%s" x > /tmp/out.json', ops: [w('/tmp/out.json')] },
  { name: 'read redirect < is not a write', cmd: 'wc -l < input.txt', ops: [] },
  { name: 'here-string is not a write', cmd: 'grep x <<< "a > b.txt"', ops: [] },
  { name: 'redirect in [[ ]] is a comparison', cmd: '[[ "$a" > b ]] && echo y', ops: [] },
  { name: 'arithmetic (( )) is a comparison', cmd: '(( n > 5 )) && echo big', ops: [] },
  { name: 'done > file applies to the loop', cmd: 'for f in a b; do echo $f; done > list.txt', ops: [w('list.txt')] },

  // heredocs
  {
    name: "cat > f <<'EOF' gives the body",
    cmd: "cat > src/a.ts <<'EOF'\nexport const a = 1\necho x > nope.txt\nEOF",
    ops: [w('src/a.ts', false, 'export const a = 1\necho x > nope.txt\n')],
  },
  {
    name: 'cat <<EOF > f (redirect after heredoc)',
    cmd: 'cat <<EOF > notes.md\nplain text\nEOF\ntouch after.txt',
    ops: [w('notes.md', false, 'plain text\n'), touch('after.txt')],
  },
  {
    name: 'cat >> f <<"EOF" appends',
    cmd: 'cat >> CHANGELOG.md <<"EOF"\n- entry\nEOF',
    ops: [w('CHANGELOG.md', true, '- entry\n')],
  },
  {
    name: '<<-EOF strips leading tabs',
    cmd: 'cat <<-EOF > t.txt\n\tindented\n\tEOF\necho done',
    ops: [w('t.txt', false, 'indented\n')],
  },
  {
    name: 'unquoted heredoc with $VAR: content unknown',
    cmd: 'cat > env.sh <<EOF\nexport HOME=$HOME\nEOF',
    ops: [w('env.sh')],
  },
  {
    name: 'heredoc body never parsed as commands',
    cmd: "python3 - <<'PY'\nimport os\nos.system('rm -rf /')\nopen('x') > 3\nPY\nrm -f done.flag",
    ops: [del('done.flag')],
  },
  {
    name: 'two heredocs on one line',
    cmd: "cat > a <<'A'; cat > b <<'B'\nalpha\nA\nbeta\nB",
    ops: [w('a', false, 'alpha\n'), w('b', false, 'beta\n')],
  },
  {
    name: 'heredoc with CRLF line endings',
    cmd: "cat > w.txt <<'EOF'\r\nline\r\nEOF\r\n",
    ops: [w('w.txt', false, 'line\r\n')],
  },
  { name: 'heredoc without its body (input ended)', cmd: "cat > x.txt <<'EOF'", ops: [w('x.txt')] },
  {
    name: 'tee with heredoc content',
    cmd: "tee config.yml > /dev/null <<'EOF'\nkey: 1\nEOF",
    ops: [w('config.yml', false, 'key: 1\n')],
  },

  // tee
  { name: 'tee', cmd: 'echo x | tee out.txt', ops: [w('out.txt')] },
  { name: 'tee -a several files', cmd: 'echo x | tee -a a.log b.log', ops: [w('a.log', true), w('b.log', true)] },
  { name: 'sudo tee', cmd: 'echo 1 | sudo tee /etc/sysctl.d/x.conf > /dev/null', ops: [w('/etc/sysctl.d/x.conf')] },

  // in-place editors
  { name: 'sed -i', cmd: "sed -i 's/a/b/' src/x.ts", ops: [edit('src/x.ts')] },
  { name: 'sed -i.bak', cmd: "sed -i.bak 's/a/b/g' a.txt b.txt", ops: [edit('a.txt'), edit('b.txt')] },
  { name: "sed -i '' (BSD)", cmd: "sed -i '' 's/a/b/' mac.txt", ops: [edit('mac.txt')] },
  { name: 'sed -i -e script', cmd: "sed -i -e 's/a/b/' -e 's/c/d/' f.txt", ops: [edit('f.txt')] },
  { name: 'sed -E -i', cmd: "sed -E -i 's/(a)/\\1/' f.txt", ops: [edit('f.txt')] },
  { name: 'sed --in-place=.orig', cmd: "sed --in-place=.orig 's/x/y/' g.txt", ops: [edit('g.txt')] },
  { name: 'sed without -i only reads', cmd: "sed -n '1,20p' f.txt", ops: [] },
  { name: 'sed -i with a glob operand skips the glob', cmd: "sed -i 's/x/y/' README.md docs/*.md", ops: [edit('README.md')] },
  { name: 'perl -pi -e', cmd: "perl -pi -e 's/foo/bar/g' lib/a.pm lib/b.pm", ops: [edit('lib/a.pm'), edit('lib/b.pm')] },
  { name: 'perl -i.bak -pe', cmd: "perl -i.bak -pe 's/x/y/' conf.ini", ops: [edit('conf.ini')] },
  { name: 'perl -ne only reads', cmd: "perl -ne 'print if /x/' f.txt", ops: [] },

  // delete
  { name: 'rm', cmd: 'rm a.txt', ops: [del('a.txt')] },
  { name: 'rm -rf dir', cmd: 'rm -rf node_modules dist/', ops: [del('node_modules', true), del('dist/', true)] },
  { name: 'rm -r -f separate flags', cmd: 'rm -r -f build', ops: [del('build', true)] },
  { name: 'rm -- -weird', cmd: 'rm -- -weird.txt ok.txt', ops: [del('ok.txt')] },
  { name: 'rm with a glob skipped', cmd: 'rm -f *.log tmp/a?.txt keep.txt', ops: [del('keep.txt')] },
  { name: 'unlink', cmd: 'unlink old.lock', ops: [del('old.lock')] },
  { name: 'git rm', cmd: 'git rm -q src/old.ts', ops: [del('src/old.ts')] },
  { name: 'git rm -r', cmd: 'git rm -r --ignore-unmatch legacy/', ops: [del('legacy/', true)] },
  { name: 'git rm --cached keeps the file', cmd: 'git rm --cached secrets.env', ops: [] },
  { name: 'git rm -n is a dry run', cmd: 'git rm -n a.ts', ops: [] },
  { name: 'rmdir is not recorded', cmd: 'rmdir empty', ops: [] },

  // move / copy
  { name: 'mv a b', cmd: 'mv a.ts b.ts', ops: [mv('a.ts', 'b.ts')] },
  { name: 'mv into dir/', cmd: 'mv a.ts lib/', ops: [mv('a.ts', 'lib/a.ts')] },
  { name: 'mv into .', cmd: 'mv ../x/a.ts .', ops: [mv('../x/a.ts', 'a.ts')] },
  { name: 'mv several sources into dir', cmd: 'mv a.ts b.ts src/c.ts lib', ops: [mv('a.ts', 'lib/a.ts'), mv('b.ts', 'lib/b.ts'), mv('src/c.ts', 'lib/c.ts')] },
  { name: 'mv -t DIR', cmd: 'mv -t archive/ a.log b.log', ops: [mv('a.log', 'archive/a.log'), mv('b.log', 'archive/b.log')] },
  { name: 'mv --target-directory=DIR', cmd: 'mv --target-directory=out x.bin', ops: [mv('x.bin', 'out/x.bin')] },
  { name: 'mv -f -v', cmd: 'mv -f -v old.md new.md', ops: [mv('old.md', 'new.md')] },
  { name: 'mv -- end of options', cmd: 'mv -- -a.txt b.txt', ops: [] },
  { name: 'mv with a glob source', cmd: 'mv src/*.js dist/', ops: [] },
  { name: 'mv with a $VAR destination', cmd: 'mv a.txt "$DEST"', ops: [] },
  { name: 'git mv', cmd: 'git mv src/a.ts src/b.ts', ops: [mv('src/a.ts', 'src/b.ts')] },
  { name: 'git mv several into dir', cmd: 'git mv a.ts b.ts lib', ops: [mv('a.ts', 'lib/a.ts'), mv('b.ts', 'lib/b.ts')] },
  { name: 'git -C dir mv', cmd: 'git -C packages/core mv a.ts b.ts', ops: [mv('packages/core/a.ts', 'packages/core/b.ts')] },
  { name: 'git -C /abs rm', cmd: 'git -C /repo rm old.txt', ops: [del('/repo/old.txt')] },
  { name: 'cp', cmd: 'cp a.txt b.txt', ops: [cp('a.txt', 'b.txt')] },
  { name: 'cp -r into dir/', cmd: 'cp -r templates/base out/', ops: [cp('templates/base', 'out/base', true)] },
  { name: 'cp -a', cmd: 'cp -a src dst', ops: [cp('src', 'dst', true)] },
  { name: 'cp -R several', cmd: 'cp -R a b target', ops: [cp('a', 'target/a', true), cp('b', 'target/b', true)] },
  { name: 'cp -t', cmd: 'cp -t /tmp x.txt', ops: [cp('x.txt', '/tmp/x.txt')] },
  { name: 'cp with one operand does nothing', cmd: 'cp a.txt', ops: [] },

  // mkdir / touch
  { name: 'mkdir -p several', cmd: 'mkdir -p src/a src/b', ops: [mkdir('src/a'), mkdir('src/b')] },
  { name: 'mkdir -m mode', cmd: 'mkdir -m 700 secret', ops: [mkdir('secret')] },
  { name: 'mkdir brace expansion skipped', cmd: 'mkdir -p src/{a,b}', ops: [] },
  { name: 'touch', cmd: 'touch a.ts b.ts', ops: [touch('a.ts'), touch('b.ts')] },
  { name: 'touch -d DATE', cmd: 'touch -d "2 days ago" old.txt', ops: [touch('old.txt')] },
  { name: 'touch -t STAMP', cmd: 'touch -t 202401010000 stamp', ops: [touch('stamp')] },

  // downloads
  { name: 'curl -o', cmd: 'curl -sL https://example.com/a.sh -o a.sh', ops: [w('a.sh')] },
  { name: 'curl -sLo cluster', cmd: 'curl -sLo b.zip https://example.com/b.zip', ops: [w('b.zip')] },
  { name: 'curl -H value is not a file', cmd: 'curl -H "Accept: x" https://e.com', ops: [] },
  { name: 'wget -O', cmd: 'wget -q -O data.json https://e.com/d', ops: [w('data.json')] },
  { name: 'wget -O - is stdout', cmd: 'wget -qO - https://e.com | sh', ops: [] },

  // cd tracking
  { name: 'cd rel && touch', cmd: 'cd src && touch a.ts', ops: [touch('src/a.ts')] },
  { name: 'cd /abs && rm', cmd: 'cd /abs && rm x', ops: [del('/abs/x')] },
  { name: 'cd twice', cmd: 'cd packages; cd core && echo x > y.txt', ops: [w('packages/core/y.txt')] },
  { name: 'cd .. normalizes', cmd: 'cd src/lib && rm ../a.ts', ops: [del('src/a.ts')] },
  { name: 'absolute paths ignore cd', cmd: 'cd src && rm /tmp/x', ops: [del('/tmp/x')] },
  { name: 'cd "$X": relative paths dropped', cmd: 'cd "$WORK" && rm a.txt && rm /tmp/b.txt', ops: [del('/tmp/b.txt')] },
  { name: 'cd - is unknown', cmd: 'cd - && touch a', ops: [] },
  { name: 'cd alone goes home (~)', cmd: 'cd && touch .bashrc', ops: [touch('~/.bashrc')] },
  { name: 'cd ~/x', cmd: 'cd ~/proj && rm a', ops: [del('~/proj/a')] },
  { name: 'cd in a subshell does not leak', cmd: '(cd build && rm a.o) && rm b.o', ops: [del('build/a.o'), del('b.o')] },
  { name: 'cd in a pipeline does not leak', cmd: 'cd sub | cat; touch t', ops: [touch('t')] },
  { name: 'pushd / popd', cmd: 'pushd lib && touch a && popd && touch b', ops: [touch('lib/a'), touch('b')] },
  { name: 'cd then failed cd then cd', cmd: 'cd "$SCRATCH" 2>/dev/null || cd /tmp/s; touch x', ops: [touch('/tmp/s/x')] },
  { name: 'cd -P dir', cmd: 'cd -P real && touch f', ops: [touch('real/f')] },
  { name: 'cd with Windows-style bash path', cmd: 'cd "C:/Users/me/proj" && rm a.txt', ops: [del('C:/Users/me/proj/a.txt')] },
  { name: 'env -C dir', cmd: 'env -C web touch x', ops: [touch('web/x')] },

  // sibling directories
  { name: 'sibling path as written', cmd: 'touch ../web/x.ts', ops: [touch('../web/x.ts')] },
  { name: 'cd into a sibling', cmd: 'cd ../api && rm old.ts', ops: [del('../api/old.ts')] },
  { name: 'cd then copy to a sibling dir/', cmd: 'cd packages/a && cp index.ts ../b/', ops: [cp('packages/a/index.ts', 'packages/b/index.ts')] },
  { name: 'git -C sibling rm', cmd: 'git -C ../other rm x.txt', ops: [del('../other/x.txt')] },
  { name: 'mv a b c dir/', cmd: 'mv a b c dir/', ops: [mv('a', 'dir/a'), mv('b', 'dir/b'), mv('c', 'dir/c')] },

  // prefixes
  { name: 'VAR=value prefix', cmd: 'NODE_ENV=test FOO="a b" touch x', ops: [touch('x')] },
  { name: 'sudo -u user', cmd: 'sudo -u www rm -rf /var/www/cache', ops: [del('/var/www/cache', true)] },
  { name: 'env with assignments', cmd: 'env -i PATH=/bin A=1 mkdir out', ops: [mkdir('out')] },
  { name: 'time', cmd: 'time -p touch t', ops: [touch('t')] },
  { name: 'command', cmd: 'command rm -f a', ops: [del('a')] },
  { name: 'command -v only looks up', cmd: 'command -v rm > /dev/null', ops: [] },
  { name: 'nohup and nice', cmd: 'nohup nice -n 10 touch n > nohup.out', ops: [w('nohup.out'), touch('n')] },
  { name: 'timeout DURATION', cmd: 'timeout 5 touch t', ops: [touch('t')] },
  { name: 'backslash-escaped command name', cmd: '\\rm -f a', ops: [del('a')] },
  { name: 'path-qualified command', cmd: '/bin/rm -f a', ops: [del('a')] },
  { name: 'if/then/fi', cmd: 'if [ -f a ]; then rm a; fi', ops: [del('a')] },
  { name: 'while/do/done', cmd: 'while read l; do touch "$l"; done < list.txt', ops: [] },
  { name: '! negation', cmd: '! rm a', ops: [del('a')] },
  { name: '{ group; }', cmd: '{ touch a; touch b; } > log.txt', ops: [touch('a'), touch('b'), w('log.txt')] },
  { name: 'xargs arguments are unknown', cmd: 'find . -name "*.tmp" | xargs rm -f', ops: [] },
  { name: 'function definition', cmd: 'clean() { rm -f a.o; }; clean', ops: [del('a.o')] },
  { name: 'case patterns are not commands', cmd: 'case "$x" in *.go) touch g;; *) touch o;; esac', ops: [touch('g'), touch('o')] },

  // separators and quoting
  { name: '&& || ; | & newline', cmd: 'touch a && touch b || touch c; touch d | cat & touch e\ntouch f', ops: ['a', 'b', 'c', 'd', 'e', 'f'].map(touch) },
  { name: 'quoted operators are text', cmd: 'echo "a && rm b; rm c | x" > out', ops: [w('out')] },
  { name: "$'..' quoting", cmd: "touch $'tab\\there'", ops: [] },
  { name: "$'..' plain name", cmd: "touch $'plain.txt'", ops: [touch('plain.txt')] },
  { name: 'single quotes keep $ literal but we still refuse it', cmd: "touch '$HOME/x'", ops: [] },
  { name: 'adjacent quoting joins one word', cmd: 'touch "a"\'b\'c.txt', ops: [touch('abc.txt')] },
  { name: 'line continuation', cmd: 'cp a.txt \\\n  b.txt && \\\nrm a.txt', ops: [cp('a.txt', 'b.txt'), del('a.txt')] },
  { name: 'comment', cmd: 'touch a # rm b', ops: [touch('a')] },
  { name: 'hash inside a word is not a comment', cmd: 'touch a#b', ops: [touch('a#b')] },

  // junk that must never come out
  { name: '$VAR path', cmd: 'rm -rf $TMPDIR/x && touch ${OUT}/y', ops: [] },
  { name: '$(...) path', cmd: 'touch "$(date +%s).txt"', ops: [] },
  { name: 'backtick path', cmd: 'rm `cat list`', ops: [] },
  { name: 'process substitution', cmd: 'diff <(cat a) <(cat b) > diff.txt', ops: [w('diff.txt')] },
  { name: 'process substitution runs its command', cmd: 'make 2>&1 > >(tee log)', ops: [w('log')] },
  { name: 'glob bracket', cmd: 'rm file[0-9].txt', ops: [] },
  { name: 'quoted brackets are literal', cmd: "rm 'app/[id]/page.tsx'", ops: [del('app/[id]/page.tsx')] },
  { name: '~user is dropped', cmd: 'touch ~bob/x', ops: [] },
  { name: 'URL is not a path', cmd: 'cp https://e.com/x y', ops: [] },
  { name: 'unterminated quote', cmd: 'echo "docs > x.md', ops: [] },
  { name: 'stray quote in word', cmd: 'touch docs\\"', ops: [] },
  { name: 'stray paren', cmd: 'touch foo\\)', ops: [] },
  { name: 'empty string path', cmd: 'touch ""', ops: [] },
  { name: 'rm -rf . is not a file', cmd: 'rm -rf .', ops: [] },
  { name: 'substitution commands still run', cmd: 'echo "$(touch inner.txt)"', ops: [touch('inner.txt')] },
  { name: 'escaped $( is literal', cmd: 'echo "\\$(touch no.txt)"', ops: [] },
  { name: 'array assignment is not a command', cmd: 'files=(rm a b) && touch c', ops: [touch('c')] },

  // read-only commands
  { name: 'reads produce nothing', cmd: 'cat a.txt | grep x && ls -la && git status && git diff --stat && head -5 f', ops: [] },
  { name: 'git checkout -- file is not reported', cmd: 'git checkout -- src/a.ts', ops: [] },

  // nested shells
  { name: 'bash -c', cmd: "bash -c 'cd out && touch a'", ops: [touch('out/a')] },
  { name: 'sh -lc keeps outer cd', cmd: "cd web && sh -lc 'rm -f b'", ops: [del('web/b')] },
  { name: 'bash -c with $VAR inside', cmd: "bash -c 'D=$HOME/x; mkdir -p $D/y'", ops: [] },
  { name: 'bash script.sh is not parsed', cmd: 'bash build.sh', ops: [] },
]

// Real commands copied from ../shared/corpus/claude (short ones).
const corpus: Row[] = [
  {
    name: 'corpus: mkdir -p four dirs',
    cmd: 'mkdir -p src/components src/types src/lib src/hooks',
    ops: ['src/components', 'src/types', 'src/lib', 'src/hooks'].map(mkdir),
  },
  { name: 'corpus: mkdir && ls', cmd: 'mkdir -p types && ls -la types/', ops: [mkdir('types')] },
  {
    name: 'corpus: cat > types/todo.ts heredoc',
    cmd: "cat > types/filters.ts << 'EOF'\n/**\n * Filter options for viewing todos\n */\nexport type TodoFilter = 'all' | 'active' | 'completed';\nEOF",
    ops: [w('types/filters.ts', false, "/**\n * Filter options for viewing todos\n */\nexport type TodoFilter = 'all' | 'active' | 'completed';\n")],
  },
  {
    name: 'corpus: mv absolute paths',
    cmd: 'mv /Users/soph/Work/entire/devenv/cli/docs/checkpoint-scenarios.md /Users/soph/Work/entire/devenv/cli/docs/architecture/checkpoint-scenarios.md',
    ops: [
      mv('/Users/soph/Work/entire/devenv/cli/docs/checkpoint-scenarios.md', '/Users/soph/Work/entire/devenv/cli/docs/architecture/checkpoint-scenarios.md'),
    ],
  },
  {
    name: 'corpus: git mv chain with cp -r into dir and rm -rf',
    cmd: 'git mv .github/skills/segment-create .agents/skills/segment-create && git mv .github/skills/segment-docs .agents/skills/segment-docs && rmdir .github/skills 2>/dev/null; cp -r .claude/skills/project-knowledge .agents/skills/ && rm -rf .claude/skills/project-knowledge && git add .agents/skills/project-knowledge',
    ops: [
      mv('.github/skills/segment-create', '.agents/skills/segment-create'),
      mv('.github/skills/segment-docs', '.agents/skills/segment-docs'),
      cp('.claude/skills/project-knowledge', '.agents/skills/project-knowledge', true),
      del('.claude/skills/project-knowledge', true),
    ],
  },
  {
    name: 'corpus: sed -i with a glob operand',
    cmd: 'sed -i \'s/ — / - /g\' AGENTS.md .agents/skills/project-knowledge/SKILL.md .agents/skills/project-knowledge/references/*.md && grep -rn "—" AGENTS.md CONTRIBUTING.md .agents/skills/project-knowledge/ | head -5; echo "--- leftover em-dashes above (if any)"',
    ops: [edit('AGENTS.md'), edit('.agents/skills/project-knowledge/SKILL.md')],
  },
  {
    name: 'corpus: git rm / git mv / rm -f / git rm --cached',
    cmd: 'git rm -q .github/workflows/microsoft_store.yml .github/workflows/delete_store_submission.yml && git mv packages/msi packages/msix && git rm -q packages/msix/oh-my-posh.wxs && rm -f packages/msix/icon.ico && git rm -q --cached packages/msix/icon.ico && git status --short',
    ops: [
      del('.github/workflows/microsoft_store.yml'),
      del('.github/workflows/delete_store_submission.yml'),
      mv('packages/msi', 'packages/msix'),
      del('packages/msix/oh-my-posh.wxs'),
      del('packages/msix/icon.ico'),
    ],
  },
  {
    name: 'corpus: rm -f two absolute files then git -C status',
    cmd: 'rm -f /d/oh-my-posh/packages/msix/out/install-arm64.msi /d/oh-my-posh/packages/msix/out/install-arm64.wixpdb && git -C /d/oh-my-posh status --short',
    ops: [del('/d/oh-my-posh/packages/msix/out/install-arm64.msi'), del('/d/oh-my-posh/packages/msix/out/install-arm64.wixpdb')],
  },
  {
    name: 'corpus: cd "$CLAUDE_SCRATCHPAD_DIR" || cd C:/...; curl -o',
    cmd: 'cd "$CLAUDE_SCRATCHPAD_DIR" 2>/dev/null || cd "C:/Users/jande/AppData/Local/Temp/claude/scratchpad"; curl -sL https://raw.githubusercontent.com/jeffreytse/zsh-vi-mode/master/zsh-vi-mode.zsh -o zsh-vi-mode.zsh && wc -l zsh-vi-mode.zsh',
    ops: [w('C:/Users/jande/AppData/Local/Temp/claude/scratchpad/zsh-vi-mode.zsh')],
  },
  {
    name: 'corpus: cp backup then sed -i with line continuations',
    cmd: 'cp config/segment_types.go /tmp/st.bak && \\\nsed -i \'s|^\\tSTATUS SegmentType = "status"|\\tSTATUS SegmentType = "status"\\n\\tBOGUS SegmentType = "bogus"|\' config/segment_types.go',
    ops: [cp('config/segment_types.go', '/tmp/st.bak'), edit('config/segment_types.go')],
  },
  { name: 'corpus: (cd /tmp && ...) subshell', cmd: '(cd /tmp && echo "say hello" | claude --print 2>&1)', ops: [] },
  {
    name: 'corpus: printf > /tmp json then run',
    cmd: 'printf \'{"blocks":[{"type":"prompt"}]}\' > /tmp/grad-ctl.json && ../scratch-omp.exe print primary --config /tmp/grad-ctl.json --shell pwsh',
    ops: [w('/tmp/grad-ctl.json')],
  },
  {
    name: 'corpus: wsl -e bash -lc with $VARs',
    cmd: 'MSYS_NO_PATHCONV=1 wsl -e bash -lc \'mkdir -p $HOME/omp-test/empty-zdot; zsh -f -c "echo hi"\' 2>&1 | head -5',
    ops: [],
  },
  {
    name: 'corpus: escaped $( inside bash -c heredoc never runs',
    cmd: 'bash -c \'\nx="\\$(touch /tmp/omp_test_exec_marker)"\ncat <<EOF\n$x\nEOF\n\'\nls -la /tmp/omp_test_exec_marker 2>&1 || echo "NOT EXECUTED - safe"\nrm -f /tmp/omp_test_exec_marker',
    ops: [del('/tmp/omp_test_exec_marker')],
  },
  {
    name: 'corpus: cat >> with heredoc into test file',
    cmd: "cat >> terminal/writer_gradient_test.go << 'EOF'\n\nfunc TestX(t *testing.T) {}\nEOF\ngo test ./terminal/ 2>&1 | tail -3",
    ops: [w('terminal/writer_gradient_test.go', true, '\nfunc TestX(t *testing.T) {}\n')],
  },
  {
    name: 'corpus: cd /d/... && rm scratch',
    cmd: 'cd /d/oh-my-posh && git add src/terminal/writer.go && git commit --amend --no-edit && git log --oneline -3 && rm scratch-omp.exe',
    ops: [del('/d/oh-my-posh/scratch-omp.exe')],
  },
  {
    name: 'corpus: for loop with redirect into "$SP/..." is skipped',
    cmd: 'SP="C:/Users/jande/scratchpad" && mkdir -p "$SP/golden-a"\nfor f in themes/*.omp.json; do\n  n=$(basename "$f" .omp.json)\n  /tmp/omp.exe print primary --config "$f" > "$SP/golden-a/$n.txt" 2>&1\ndone',
    ops: [],
  },
  {
    name: 'corpus: background server subshell with log redirect',
    cmd: '(npx docusaurus serve --port 3210 --no-open >/tmp/serve.log 2>&1 &) ; sleep 4; curl -s -o /dev/null -w "%{http_code}\\n" http://localhost:3210/segments',
    ops: [w('/tmp/serve.log')],
  },
  {
    name: 'corpus: git commit heredoc message is not a file op',
    cmd: 'git add .gitignore && git commit -m "$(cat <<\'EOF\'\nAdd Python and coverage files to gitignore\n\nCo-Authored-By: Claude Opus 4.5 <noreply@anthropic.com>\nEOF\n)"',
    ops: [],
  },
]

const powershell: Row[] = [
  { name: 'ps: Set-Content', cmd: "Set-Content -Path out.txt -Value 'hi'", ops: [w('out.txt')] },
  { name: 'ps: Set-Content positional', cmd: "Set-Content notes.md 'x'", ops: [w('notes.md')] },
  { name: 'ps: Add-Content appends', cmd: "Add-Content -Path log.txt -Value 'line'", ops: [w('log.txt', true)] },
  { name: 'ps: Out-File', cmd: 'Get-Process | Out-File -FilePath procs.txt', ops: [w('procs.txt')] },
  { name: 'ps: Out-File -Append', cmd: "'x' | Out-File out.log -Append", ops: [w('out.log', true)] },
  { name: 'ps: Tee-Object -FilePath', cmd: 'npm test | Tee-Object -FilePath test.log', ops: [w('test.log')] },
  { name: 'ps: Tee-Object -Variable is not a file', cmd: 'node x.mjs 2>&1 | Tee-Object -Variable out', ops: [] },
  { name: 'ps: New-Item -ItemType File', cmd: 'New-Item -ItemType File -Path src\\new.ts', ops: [w('src\\new.ts')] },
  { name: 'ps: New-Item -Value', cmd: "New-Item -Path a.txt -ItemType File -Value 'hello' -Force", ops: [w('a.txt', false, 'hello')] },
  { name: 'ps: New-Item without type is a touch', cmd: 'New-Item empty.txt', ops: [touch('empty.txt')] },
  { name: 'ps: New-Item -ItemType Directory', cmd: 'New-Item -ItemType Directory -Force -Path build\\out', ops: [mkdir('build\\out')] },
  { name: 'ps: New-Item -Path dir -Name file', cmd: 'New-Item -Path docs -Name a.md -ItemType File', ops: [w('docs/a.md')] },
  { name: 'ps: mkdir (function)', cmd: 'mkdir logs', ops: [mkdir('logs')] },
  { name: 'ps: Remove-Item', cmd: 'Remove-Item old.txt', ops: [del('old.txt')] },
  { name: 'ps: Remove-Item -Recurse -Force', cmd: 'Remove-Item -Recurse -Force node_modules', ops: [del('node_modules', true)] },
  { name: 'ps: Remove-Item list', cmd: 'Remove-Item a.txt, b.txt', ops: [del('a.txt'), del('b.txt')] },
  { name: 'ps: rm alias with -r prefix', cmd: 'rm -r -fo dist', ops: [del('dist', true)] },
  { name: 'ps: del alias', cmd: 'del C:\\temp\\x.log', ops: [del('C:\\temp\\x.log')] },
  { name: 'ps: Remove-Item -WhatIf does nothing', cmd: 'Remove-Item big -Recurse -WhatIf', ops: [] },
  { name: 'ps: Remove-Item -Include is a filter', cmd: 'Remove-Item logs -Recurse -Include *.tmp', ops: [] },
  { name: 'ps: Remove-Item Env:\\X is not a file', cmd: 'Remove-Item Env:\\OMP_BIN -ErrorAction SilentlyContinue', ops: [] },
  { name: 'ps: Move-Item', cmd: 'Move-Item -Path a.txt -Destination b.txt', ops: [mv('a.txt', 'b.txt')] },
  { name: 'ps: Move-Item positional into dir\\', cmd: 'Move-Item a.txt archive\\', ops: [mv('a.txt', 'archive\\a.txt')] },
  { name: 'ps: Rename-Item', cmd: 'Rename-Item -Path src\\old.ts -NewName new.ts', ops: [mv('src\\old.ts', 'src\\new.ts')] },
  { name: 'ps: Copy-Item -Recurse', cmd: 'Copy-Item -Path tpl -Destination out\\tpl -Recurse', ops: [cp('tpl', 'out\\tpl', true)] },
  { name: 'ps: Clear-Content edits', cmd: 'Clear-Content app.log', ops: [edit('app.log')] },
  { name: 'ps: > and >> redirects', cmd: "'a' > a.txt; 'b' >> a.txt", ops: [w('a.txt'), w('a.txt', true)] },
  { name: 'ps: 2> redirect', cmd: 'npm run build 2> err.txt', ops: [w('err.txt')] },
  { name: 'ps: *> $null and 2>&1', cmd: 'node x.mjs *> $null; node y.mjs 2>&1', ops: [] },
  { name: 'ps: $variable path skipped', cmd: '$p = "x.txt"; Set-Content $p "hi"', ops: [] },
  { name: 'ps: Set-Location then relative', cmd: 'Set-Location D:\\proj\\web; Remove-Item gen\\a.json -Force', ops: [del('D:\\proj\\web\\gen\\a.json')] },
  { name: 'ps: cd alias and ..\\', cmd: 'cd C:\\repo\\web; Remove-Item ..\\bin\\tool.exe', ops: [del('C:\\repo\\bin\\tool.exe')] },
  {
    name: 'ps: Push-Location / Pop-Location',
    cmd: 'Push-Location sub; New-Item a.txt; Pop-Location; New-Item b.txt',
    ops: [touch('sub/a.txt'), touch('b.txt')],
  },
  { name: 'ps: single-quoted path with space', cmd: "Set-Content 'a b.txt' 'x'", ops: [w('a b.txt')] },
  { name: "ps: '' escape yields a quote, dropped as junk", cmd: "Set-Content 'it''s.txt' 'x'", ops: [] },
  { name: 'ps: backtick escape', cmd: 'Set-Content my` file.txt x', ops: [w('my file.txt')] },
  { name: 'ps: here-string body is not commands', cmd: "$t = @'\nRemove-Item everything\n'@\nSet-Content t.txt $t", ops: [w('t.txt')] },
  { name: 'ps: script block scopes Set-Location', cmd: 'Get-ChildItem | ForEach-Object { Set-Location $_; Remove-Item x }; Remove-Item y', ops: [del('y')] },
  { name: 'ps: native git mv', cmd: 'git mv a.ps1 b.ps1', ops: [mv('a.ps1', 'b.ps1')] },
  { name: 'ps: call operator', cmd: '& "C:\\tools\\gen.exe" --out x > gen.log', ops: [w('gen.log')] },
  { name: 'ps: pwsh -Command nested', cmd: 'pwsh -NoProfile -Command "Remove-Item -Recurse dist"', ops: [del('dist', true)] },
  {
    name: 'ps corpus: Set-Location; Remove-Item relative',
    cmd: 'Set-Location D:\\oh-my-posh\\website; Remove-Item generated\\themes.json -Force; node scripts/ensure-artifacts.mjs 2>&1 | Select-String -Pattern \'Generating|building|Successfully|Error\' | Select-Object -First 4; "themes.json exists: $(Test-Path generated\\themes.json)"',
    ops: [del('D:\\oh-my-posh\\website\\generated\\themes.json')],
  },
  {
    name: 'ps corpus: Remove-Item Env: then ..\\ binary',
    cmd: 'Set-Location D:\\oh-my-posh\\website; Remove-Item Env:\\OMP_BIN -ErrorAction SilentlyContinue; Remove-Item ..\\src\\bin\\oh-my-posh.exe -Force -ErrorAction SilentlyContinue; "oh-my-posh on PATH: $((Get-Command oh-my-posh -ErrorAction SilentlyContinue).Source)"',
    ops: [del('D:\\oh-my-posh\\src\\bin\\oh-my-posh.exe')],
  },
  {
    name: 'ps corpus: Set-Content $p is skipped',
    cmd: 'Set-Location D:\\oh-my-posh\\website; $p=\'plugins\\segments\\registry.json\'; $raw = Get-Content $p -Raw; ($out | ConvertTo-Json -Depth 5) + "`n" | Set-Content $p -NoNewline; Get-Content $p -TotalCount 10',
    ops: [],
  },
  {
    name: 'ps corpus: (Get-Item ..).LastWriteTime assignment',
    cmd: "Set-Location D:\\oh-my-posh\\website; (Get-Item ..\\src\\svg\\window.go).LastWriteTime = Get-Date; node scripts/ensure-artifacts.mjs 2>&1 | Select-String -Pattern 'Generating' | Select-Object -First 6",
    ops: [],
  },
  {
    name: 'ps corpus: multi-line with comment',
    cmd: "Set-Location D:\\oh-my-posh\\website; Remove-Item Env:\\OMP_BIN -ErrorAction SilentlyContinue\n# stale binary rejection: point OMP_BIN at something that is not oh-my-posh at all\n$env:OMP_BIN = 'C:\\Windows\\System32\\cmd.exe'\nRemove-Item generated\\themes.json -Force\nnode scripts/ensure-artifacts.mjs 2>&1 | Select-Object -First 3",
    ops: [del('D:\\oh-my-posh\\website\\generated\\themes.json')],
  },
]

describe('shellFileOps (bash)', () => {
  it.each(bash)('$name', ({ cmd, ops }) => {
    expect(shellFileOps(cmd, 'bash')).toEqual(ops)
  })
})

describe('shellFileOps (corpus commands)', () => {
  it.each(corpus)('$name', ({ cmd, ops }) => {
    expect(shellFileOps(cmd, 'bash')).toEqual(ops)
  })
})

describe('shellFileOps (powershell)', () => {
  it.each(powershell)('$name', ({ cmd, ops }) => {
    expect(shellFileOps(cmd, 'powershell')).toEqual(ops)
  })
})
