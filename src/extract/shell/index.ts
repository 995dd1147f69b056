/**
 * Shell command analysis: which files a Bash or PowerShell command line writes,
 * edits, deletes, moves, copies, creates or touches, and (for git.ts) the commands
 * it runs. Pure string work, in three stages:
 *
 *   lexer.ts    lex (quotes, escapes, heredocs, substitutions) -> simple commands
 *               syntax.ts: the shapes it produces; quoting.ts: $'..', backtick escapes, here-strings
 *   walker.ts   walk (prefixes, `cd` tracking, subshell scopes, `bash -c` recursion)
 *               paths.ts: which words are paths; powershell.ts: cmdlet parameter binding
 *   rules.ts    rules (one small function per command family) -> file operations
 *               arguments.ts: GNU options, git's global options, literal stdin
 *
 * Each file imports only from the stages above it and the helpers (syntax, quoting,
 * paths, powershell, arguments import none of the stages): lexer <- walker <- rules <- index.
 * The lexer and walker are exported for the git extractor, which reads the same
 * commands (see git.ts).
 */
export { heredocSubstitution, parseGitInvocation, parseOptions, stdinText } from './arguments.js'
export { parseScript } from './lexer.js'
export { type ShellFileOp, shellEffects, shellFileOps } from './rules.js'
export type { ScriptNode, Word } from './syntax.js'
export { type ShellCommand, forEachCommand } from './walker.js'
