/**
 * The shape of a parsed command line: what the lexer produces and the walker,
 * the rules and git.ts read. Types only.
 */

export type Shell = 'bash' | 'powershell'

/** One shell word after quote removal. Expansions are kept verbatim in `text`. */
export interface Word {
  /** Value after quote removal; `$X`, `$(..)`, backticks are kept as written. */
  text: string
  /** Exact source slice. */
  raw: string
  /** Contains an expansion the shell performs at run time ($VAR, $(..), `..`, <(..)). */
  dynamic: boolean
  /** Unquoted glob or brace characters (* ? [ { }): the shell may expand it. */
  glob: boolean
  /** Some part was quoted or escaped. */
  quoted: boolean
  /** Command substitutions inside the word, parsed, in source order. */
  subs: ScriptNode[][]
  /** PowerShell: the word follows a `,` (continues an array argument). */
  comma: boolean
}

export interface Heredoc {
  delimiter: string
  /** Delimiter was quoted: the body is literal. */
  quoted: boolean
  /** `<<-`: leading tabs were stripped from body lines. */
  stripTabs: boolean
  /** Body including its final newline; undefined when the input ended first. */
  body?: string
}

export interface Redirect {
  /** File descriptor as written before the operator ('' when none, '*' in PowerShell). */
  fd: string
  op: string
  target?: Word
  heredoc?: Heredoc
}

export interface SimpleCommand {
  kind: 'simple'
  words: Word[]
  redirects: Redirect[]
  pipeIn: boolean
  pipeOut: boolean
}

/** `open`/`close` delimit a subshell or script block: directory changes inside stay inside. */
export type ScriptNode = SimpleCommand | { kind: 'open' } | { kind: 'close' }
