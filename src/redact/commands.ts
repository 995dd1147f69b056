/**
 * Command lines: `--password hunter2`, `.netrc` lines, `curl -u user:pass`, the short password flags of known
 * tools (`mysql -pX`, `sshpass -p X`, `redis-cli -a X`), `openssl -passin pass:X`, `aws configure set`.
 */

import { SENSITIVE, keyKind } from './assignments.js'
import { type TextRule, marker, word } from './kinds.js'
import { PATH_LIKE, isCodeExpression, isPlaceholder } from './values.js'

export const CLI_FLAG = new RegExp(
  `(?<![\\w-])(--((?:[\\w-]*[_-])?(?:${SENSITIVE}))[ \\t]+)` + '(?:"((?:[^"\\\\\\r\\n]|\\\\.)*)"|\'([^\'\\r\\n]*)\'|([^\\s"\'`;&|<>-][^\\s"\'`;&|<>]*))',
  'gi',
)

export function replaceCliFlag(match: string, head: string, name: string, dq: string | undefined, sq: string | undefined, bare: string | undefined): string {
  const kind = keyKind(`--${name}`, false)
  const value = dq ?? sq ?? bare
  if (kind === undefined || value === undefined || isPlaceholder(value) || PATH_LIKE.test(value)) return match
  if (bare !== undefined && isCodeExpression(value)) return match
  const quote = dq !== undefined ? '"' : sq !== undefined ? "'" : ''
  return `${head}${quote}${marker(kind)}${quote}`
}

export const NETRC = /(?<![\w-])(login\s+\S+\s+password\s+)(\S+)/g

export function replaceNetrc(match: string, head: string, value: string): string {
  return isPlaceholder(value) ? match : `${head}${marker('password')}`
}

/** `-u user:pass`, `-uuser:pass` (curl takes the value attached too), `--user user:pass`. */
export const CURL_USER = /(?<![\w-])((?:-u[ \t]*|--user[ \t]+|--user=)["']?[^\s:"'[\]]+:)([^\s"'@]+)/g

export function replaceCurlUser(match: string, head: string, value: string): string {
  // `docker run -u 1000:1000`; `az login -u http://app` (a URL, not a password)
  return isPlaceholder(value) || /^\d+$/.test(value) || value.startsWith('//') ? match : `${head}${marker('password')}`
}

/**
 * Tools whose short flag takes a password, by command name: the flag, and whether the value may come as the next
 * word (`sshpass -p X`) or only attached (`mysql -pX`: `mysql -p db` prompts, and `db` is a database). Registry
 * clients take `-p` only in their `login` subcommand.
 */
const PASSWORD_FLAGS: ReadonlyMap<string, { flag: string; separate: boolean; login?: true }> = new Map([
  ...['mysql', 'mysqldump', 'mysqladmin', 'mysqlimport', 'mysqlshow', 'mysqlcheck', 'mysqlslap', 'mariadb', 'mariadb-dump', 'mariadb-admin'].map(
    (cmd) => [cmd, { flag: 'p', separate: false }] as const,
  ),
  ...['docker', 'podman', 'nerdctl', 'buildah', 'helm', 'oras', 'skopeo', 'crane', 'oc', 'regctl'].map(
    (cmd) => [cmd, { flag: 'p', separate: true, login: true }] as const,
  ),
  ['sshpass', { flag: 'p', separate: true }],
  ['az', { flag: 'p', separate: true }],
  ['redis-cli', { flag: 'a', separate: true }],
  ['valkey-cli', { flag: 'a', separate: true }],
  ...['ldapsearch', 'ldapadd', 'ldapmodify', 'ldapdelete', 'ldapwhoami', 'ldappasswd', 'ldapcompare', 'ldapmodrdn'].map(
    (cmd) => [cmd, { flag: 'w', separate: true }] as const,
  ),
  ['zip', { flag: 'P', separate: true }],
  ['unzip', { flag: 'P', separate: true }],
  ['7z', { flag: 'p', separate: false }],
  ['7za', { flag: 'p', separate: false }],
])

/** Starts at the flag (a cheap literal `-`); the command it belongs to is read backwards by the callback. */
const SHORT_FLAG = /(?<=[ \t])-([pawP])(?:([ \t]+)(?!-))?(["']?)([^\s"'`;&|<>()]+)/g

function replaceShortFlag(match: string, flag: string, gap: string | undefined, quote: string, value: string, offset: number, text: string): string {
  if (value.startsWith('[REDACTED') || isPlaceholder(value)) return match
  const segment = segmentBefore(text, offset)
  const rule = PASSWORD_FLAGS.get(toolOf(segment))
  if (rule === undefined || rule.flag !== flag || (gap !== undefined && !rule.separate)) return match
  if (rule.login && !/(?:^|\s)login(?:\s|$)/.test(segment)) return match
  return `-${flag}${gap ?? ''}${quote}${marker('password')}`
}

/**
 * The text of the command a flag at `at` belongs to: back to the start of its segment (a line, `|`, `;`, `&`, `(`,
 * a backtick, `\n` as JSON writes it), at most 400 characters.
 */
function segmentBefore(text: string, at: number): string {
  let start = at
  const limit = Math.max(0, at - 400)
  while (start > limit) {
    const c = text[start - 1]
    if (c === '\n' || c === '\r' || c === '|' || c === ';' || c === '&' || c === '(' || c === '`') break
    if (c === 'n' && text[start - 2] === '\\') break
    start--
  }
  return text.slice(start, at)
}

/**
 * The nearest word of `segment` that names a tool of PASSWORD_FLAGS (`/usr/bin/mysql` is `mysql`), or ''. The
 * nearest rather than the first: the command may sit inside prose or a quoted string (`it is mysql -pX`,
 * `git commit -m "rotate mysql -pX"`).
 */
function toolOf(segment: string): string {
  const words = segment.split(/[\s"'=]+/)
  for (let i = words.length - 1; i >= 0; i--) {
    const word = words[i]!
    const name = word.slice(word.lastIndexOf('/') + 1)
    if (PASSWORD_FLAGS.has(name)) return name
  }
  return ''
}

/** `openssl ... -passin pass:X` (also -passout, -pass, -password); keytool and jarsigner `-storepass X`, `-keypass X`. */
const PASS_OPTION =
  /(?<![\w-])(-(?:passin|passout|password|pass)[ \t]+["']?pass:|-(?:src|dest)?(?:store|key|keystore|truststore)pass[ \t]+["']?)([^\s"'`;&|<>]+)/g

const replacePassOption = (match: string, head: string, value: string): string =>
  isPlaceholder(value) || value.startsWith('[REDACTED') || value.startsWith(':') ? match : `${head}${marker('password')}`

/** `aws configure set aws_secret_access_key X` (and any other setting whose name names a secret). */
const CONFIGURE_SET = /(?<![\w-])(configure[ \t]+set[ \t]+(?:[\w-]+\.)*([\w-]+)[ \t]+["']?)([^\s"'`;&|<>]+)/g

function replaceConfigureSet(match: string, head: string, name: string, value: string): string {
  const kind = keyKind(name, true)
  return kind === undefined || isPlaceholder(value) || value.startsWith('[REDACTED') ? match : `${head}${marker(kind)}`
}

export const COMMAND_RULES: readonly TextRule[] = [
  // parts of the tools' names (and `login` for the registry clients), chosen for rare first letter pairs (the
  // needle scan checks every place a pair occurs): a text without any of them has no such flag
  {
    needles: ['ysql', 'iadb', 'login', 'hpass', 'az ', '-cli', 'ldap', 'zip', '7z'].map((w) => word(w)),
    apply: (text) => text.replace(SHORT_FLAG, replaceShortFlag),
  },
  { needles: [word('pass', true)], apply: (text) => text.replace(PASS_OPTION, replacePassOption) },
  { needles: [word('nfigure')], apply: (text) => text.replace(CONFIGURE_SET, replaceConfigureSet) },
]
