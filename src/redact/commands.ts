/** Command lines: `--password hunter2`, `.netrc` lines, `curl -u user:pass`. */

import { SENSITIVE, keyKind } from './assignments.js'
import { marker } from './kinds.js'
import { PATH_LIKE, isCodeExpression, isPlaceholder } from './values.js'

export const CLI_FLAG = new RegExp(
  `(?<![\\w-])(--((?:[\\w-]*[_-])?(?:${SENSITIVE}))[ \\t]+)` +
    '(?:"((?:[^"\\\\\\r\\n]|\\\\.)*)"|\'([^\'\\r\\n]*)\'|([^\\s"\'`;&|<>-][^\\s"\'`;&|<>]*))',
  'gi',
)

export function replaceCliFlag(
  match: string,
  head: string,
  name: string,
  dq: string | undefined,
  sq: string | undefined,
  bare: string | undefined,
): string {
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

export const CURL_USER = /(?<![\w-])((?:-u|--user)[ \t]+["']?[^\s:"'[\]]+:)([^\s"'@]+)/g

export function replaceCurlUser(match: string, head: string, value: string): string {
  return isPlaceholder(value) || /^\d+$/.test(value) ? match : `${head}${marker('password')}`
}
