/**
 * Credentials known by the file or tool output they sit in: kubeconfig and Kubernetes Secrets, PuTTY keys,
 * registry auth (docker config.json, .npmrc), cookies, .pgpass lines, `aws configure` and the AWS credentials
 * CSV, NuGet config. Each rule runs only when one of its needle words occurs (needles.ts).
 */

import { type SecretKind, type TextRule, marker, word } from './kinds.js'
import { PEM_BREAK } from './pem.js'
import { hasDigit, isPathOfWords, isPlaceholder, tokenish } from './values.js'

/** `atob` that returns '' instead of throwing; only the first `max` characters (a whole number of quads). */
function decodeHead(b64: string, max = 96): string {
  const head = b64.slice(0, Math.min(max, b64.length - (b64.length % 4)))
  try {
    return atob(head)
  } catch {
    return ''
  }
}

// A PEM private key in base64 (kubeconfig client-key-data, a Kubernetes tls.key, Helm values): `LS0tLS1CRUdJTi`
// is `-----BEGIN`; the decoded head tells a private key from a certificate.
const B64_PEM = /(?<![A-Za-z0-9+/])LS0tLS1CRUdJTi[A-Za-z0-9+/]{16,}={0,2}/g
const replaceB64Pem = (match: string): string => (decodeHead(match).includes('PRIVATE KEY') ? marker('private-key') : match)

// `client-key-data: <base64>` whatever it decodes to (a truncated or DER key). `public-key-data` is not one.
const KEY_DATA = /(key[-_]data["']?[ \t]*[:=][ \t]*["']?)([A-Za-z0-9+/]{16,}={0,2})(?![A-Za-z0-9+/=])/g
function replaceKeyData(match: string, head: string, _value: string, offset: number, text: string): string {
  return /public[-_]$/i.test(text.slice(Math.max(0, offset - 7), offset)) ? match : `${head}${marker('private-key')}`
}

// PuTTY .ppk: the `Private-Lines: N` block (base64 lines, maybe with a Read tool gutter) and its MAC. The gutter's `→`
// is the regex escape `\u2192`: the bundles are ASCII only (scripts/bundle.mjs).
const GUTTER = String.raw`[ \t]*(?:\d{1,7}(?:\t|\u2192))?`
const B64_LINE = String.raw`[A-Za-z0-9+/=]{1,128}(?=[ \t]*(?:[\r\n\\"'\x60]|$))`
const PPK_LINES = new RegExp(String.raw`(Private-Lines:[ \t]*\d{1,4}[ \t]*${PEM_BREAK}${GUTTER})(${B64_LINE}(?:${PEM_BREAK}${GUTTER}${B64_LINE})*)`, 'g')
const PPK_MAC = /(Private-(?:MAC|Hash):[ \t]*)([0-9a-fA-F]{20,})/g

// docker config.json `"auth": "<base64 user:pass>"`, .npmrc `_auth=<base64>`
const REGISTRY_AUTH = /(?<![\w-])(_?auth\\?["']?[ \t]*[:=][ \t]*(?:\\?["'])?)([A-Za-z0-9+/]{12,}={0,2})(?![A-Za-z0-9+/=])/g
function replaceRegistryAuth(match: string, head: string, value: string): string {
  if (isPlaceholder(value)) return match
  const pair = value.length % 4 === 0 && decodeHead(value, 1024).includes(':')
  return pair || (hasDigit(value) && tokenish(value)) ? `${head}${marker('registry-auth')}` : match
}

// Cookie headers (and curl's --cookie): the values of session-like names, and any token-looking value.
const COOKIE = /(?<![\w-])((?:(?:set-)?cookie\\?["']?[ \t]*:|--cookie[ \t]+)[ \t]*(?:\\?["'])?)([^\r\n"'\\`]+)/gi
const SESSION_NAME = /sess|sid|token|auth|jwt|remember|login|identity|csrf|xsrf|secret|key/i
const COOKIE_ATTRIBUTE = /^(?:path|domain|expires|max-age|samesite|secure|httponly|priority|partitioned|version|comment)$/i
function replaceCookie(match: string, head: string, value: string): string {
  let changed = false
  const parts = value.split(';').map((part) => {
    const eq = part.indexOf('=')
    if (eq === -1) return part
    const name = part.slice(0, eq).trim()
    const v = part.slice(eq + 1).trim()
    if (COOKIE_ATTRIBUTE.test(name) || v.startsWith('[REDACTED') || isPlaceholder(v) || v.length < 6) return part
    if (!SESSION_NAME.test(name) && !(v.length >= 16 && tokenish(v))) return part
    changed = true
    return `${part.slice(0, eq + 1)}${part[eq + 1] === ' ' ? ' ' : ''}${marker('session-cookie')}`
  })
  return changed ? head + parts.join(';') : match
}

// .pgpass: `host:port:database:user:password`. Host, database and user must read as names (file:line:col output
// has digits there), the port as a port.
const PGPASS = /(?<![\w.*:/@-])([A-Za-z0-9_.*-]{1,253}):(\d{1,5}|\*):([\w.*$-]{1,63}):([\w.*@$-]{1,63}):([^\s:"'`\\]+)/g
function replacePgpass(match: string, host: string, port: string, db: string, user: string, password: string): string {
  const named = (s: string): boolean => s === '*' || /[A-Za-z]/.test(s)
  if (!(host === '*' || /[A-Za-z.]/.test(host)) || !named(db) || !named(user)) return match
  if (isPlaceholder(password) || password.startsWith('[REDACTED')) return match
  return `${host}:${port}:${db}:${user}:${marker('password')}`
}

// `aws configure` asks `AWS Secret Access Key [None]: `; people paste the answer with the prompt.
const AWS_PROMPT = /(?<![\w-])((?:aws[ \t]+)?secret[ \t]+access[ \t]+key(?:[ \t]*\[[^\]\r\n]{0,64}\])?[ \t]*:[ \t]*)([A-Za-z0-9/+=]{16,})/gi
const replaceAwsPrompt = (match: string, head: string, value: string): string => (isPlaceholder(value) ? match : `${head}${marker('aws-secret-access-key')}`)

/**
 * A 40-character AWS secret access key with nothing in front of it to go by (a CSV row, `aws configure set`,
 * prose): a bounded run of 40 base64 characters of all three classes, starting within 200 characters after
 * `secret`, `aws` or `key`. Git SHAs (lower-case hex) and paths made of words do not qualify. Only the windows
 * after those words are searched: a class-led regex over a whole long text costs ~13 ns a character.
 */
const AWS_ANCHOR = /secret|aws|key/gi
const RUN_40 = /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g
const AWS_WINDOW = 200

function redactAwsSecret40(text: string): string {
  const hits: number[] = []
  let scannedTo = 0
  AWS_ANCHOR.lastIndex = 0
  for (let a = AWS_ANCHOR.exec(text); a !== null; a = AWS_ANCHOR.exec(text)) {
    const from = Math.max(a.index, scannedTo)
    const to = Math.min(text.length, a.index + AWS_WINDOW)
    if (from >= to) continue
    scannedTo = to
    // one character before (for the lookbehind) and 41 after (a run starting before `to`, and its lookahead)
    const start = Math.max(0, from - 1)
    const window = text.slice(start, Math.min(text.length, to + 41))
    RUN_40.lastIndex = 0
    for (let m = RUN_40.exec(window); m !== null; m = RUN_40.exec(window)) {
      const at = start + m.index
      if (at >= from && at < to && awsSecretShaped(m[0])) hits.push(at)
    }
  }
  if (hits.length === 0) return text
  let out = ''
  let copied = 0
  for (const at of hits) {
    out += text.slice(copied, at) + marker('aws-secret-access-key')
    copied = at + 40
  }
  return out + text.slice(copied)
}

function awsSecretShaped(run: string): boolean {
  if (!/[a-z]/.test(run) || !/[A-Z]/.test(run) || !hasDigit(run) || /[a-z]{7}/.test(run)) return false
  return !isPathOfWords(run)
}

// CSV with a header row: the cells of the columns that name a secret, in the rows that follow with as many cells.
const CSV_COLUMN = /^["']?(password|passwd|secret access key|secret[ _]key|client[ _]secret|secret|api[ _]key|access[ _]token|token)["']?$/i
const LINE_BREAK = /\r?\n|(?:\\r)?\\n/g

/** The lines of `text`, each with the break after it: a real one, or `\n` as a JSON string holds it. */
function splitLines(text: string): Array<[string, string]> {
  const lines: Array<[string, string]> = []
  let from = 0
  LINE_BREAK.lastIndex = 0
  for (let m = LINE_BREAK.exec(text); m !== null; m = LINE_BREAK.exec(text)) {
    lines.push([text.slice(from, m.index), m[0]])
    from = m.index + m[0].length
  }
  lines.push([text.slice(from), ''])
  return lines
}

/** A header cell that names a secret, after a comma: what any CSV this rule can change holds (a cheap test). */
const CSV_HEADER =
  /,[ \t]*["']?(?:password|passwd|secret access key|secret[ _]key|client[ _]secret|secret|api[ _]key|access[ _]token|token)["']?[ \t]*(?:,|\r?\n|\\[rn]|$)/im

function redactCsv(text: string): string {
  if (!CSV_HEADER.test(text)) return text
  const lines = splitLines(text)
  let columns: Array<[number, SecretKind]> = []
  let width = 0
  let changed = false
  for (const line of lines) {
    const cells = line[0].split(',')
    if (columns.length > 0 && cells.length === width) {
      for (const [i, kind] of columns) {
        const cell = cells[i]!.trim()
        if (cell === '' || isPlaceholder(cell) || cell.startsWith('[REDACTED')) continue
        cells[i] = marker(kind)
        changed = true
      }
      line[0] = cells.join(',')
      continue
    }
    columns = []
    if (cells.length < 3) continue
    for (let i = 0; i < cells.length; i++) {
      const name = CSV_COLUMN.exec(cells[i]!.trim())?.[1]?.toLowerCase()
      if (name === undefined) continue
      columns.push([
        i,
        name === 'secret access key' ? 'aws-secret-access-key' : name.startsWith('pass') ? 'password' : name.endsWith('token') ? 'token' : 'secret',
      ])
    }
    width = cells.length
  }
  return changed ? lines.map(([line, brk]) => line + brk).join('') : text
}

// A Kubernetes Secret manifest: every value under `data:` / `stringData:` (base64 or plain) is a secret.
const K8S_SECRET = /kind:[ \t]*["']?Secret\b/
const K8S_ENTRY = /^([ \t]*[\w.-]+:[ \t]*)(["']?)(.*?)\2[ \t]*$/
function redactK8sSecret(text: string): string {
  if (!K8S_SECRET.test(text)) return text
  const lines = splitLines(text)
  let blockIndent = -1
  let changed = false
  for (const line of lines) {
    // a Read tool gutter (`     5\t`) is not indentation
    const gutter = /^[ \t]*\d{1,7}(?:\t|→)/.exec(line[0])?.[0] ?? ''
    const content = line[0].slice(gutter.length)
    const indent = /^[ \t]*/.exec(content)![0].length
    if (blockIndent >= 0 && indent > blockIndent && content.trim() !== '') {
      const m = K8S_ENTRY.exec(content)
      const value = m?.[3] ?? ''
      if (m && value !== '' && value !== '|' && value !== '>' && !isPlaceholder(value) && !value.startsWith('[REDACTED')) {
        line[0] = `${gutter}${m[1]}${m[2]}${marker('secret')}${m[2]}`
        changed = true
      }
      continue
    }
    blockIndent = /^[ \t]*(?:data|stringData):[ \t]*$/.test(content) ? indent : -1
  }
  return changed ? lines.map(([line, brk]) => line + brk).join('') : text
}
// NuGet.config and .NET appSettings: `<add key="ClearTextPassword" value="..." />`
const XML_ADD = /(<add[ \t]+key=\\?["'][^"'<>\\]{0,80}(?:pass(?:word)?|secret|token|api[_-]?key)\\?["'][ \t]+value=\\?["'])([^"'<>\\]+)/gi
const replaceXmlAdd = (match: string, head: string, value: string): string => (isPlaceholder(value) ? match : `${head}${marker('password')}`)

const re =
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the replacer's own signature in String.replace
  (pattern: RegExp, replace: (match: string, ...rest: any[]) => string) =>
    (text: string): string =>
      text.replace(pattern, replace)

/** Formats that few texts hold, as one rule: each runs only when its own needle is there. */
const RARE: ReadonlyArray<[string, (text: string) => string]> = [
  ['S0tLS1CRUdJTi', re(B64_PEM, replaceB64Pem)],
  ['y-data', re(KEY_DATA, replaceKeyData)],
  ['y_data', re(KEY_DATA, replaceKeyData)],
  ['-Lines:', re(PPK_LINES, (_m: string, head: string) => `${head}${marker('private-key')}`)],
  ['-MAC:', re(PPK_MAC, (_m: string, head: string) => `${head}${marker('private-key')}`)],
  ['-Hash:', re(PPK_MAC, (_m: string, head: string) => `${head}${marker('private-key')}`)],
  ['d: Secret', redactK8sSecret],
  ['d: "Secret"', redactK8sSecret],
  ["d: 'Secret'", redactK8sSecret],
  ['<add ', re(XML_ADD, replaceXmlAdd)],
]

function redactRare(text: string): string {
  let out = text
  for (const [needle, apply] of RARE) if (out.includes(needle)) out = apply(out)
  return out
}

export const CONFIG_RULES: readonly TextRule[] = [
  { needles: RARE.map(([needle]) => word(needle)), apply: redactRare },
  { needles: [word('auth')], apply: re(REGISTRY_AUTH, replaceRegistryAuth) },
  { needles: [word('okie', true)], apply: re(COOKIE, replaceCookie) },
  { needles: [word('secret', true)], apply: re(AWS_PROMPT, replaceAwsPrompt) },
  { needles: [word('secret', true), word('pass', true), word('token', true), word('key', true)], apply: redactCsv },
  // after the rules above, which leave markers where they found a secret
  { needles: [word('secret', true), word('aws', true), word('key', true)], apply: redactAwsSecret40 },
]

/** .pgpass lines, separate: they need a cheap test of their own (a `:port:` with names around it). */
export const PGPASS_RULE: TextRule = {
  needles: [word(':')],
  apply: (text) => (/:(?:\d{1,5}|\*):[\w.*$-]+:[\w.*@$-]+:/.test(text) ? text.replace(PGPASS, replacePgpass) : text),
}
