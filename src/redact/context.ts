/** Secrets known by their context: credentials in URLs, HTTP authorization, signed URL parameters. */

import { type SecretKind, marker } from './kinds.js'
import { BARE_WORD, isCodeExpression, isPlaceholder, tokenish } from './values.js'

// ---------------------------------------------------------------------------------------------------------------
// Credentials in URLs: keep scheme, user and host; replace the password (or a token used as the user)

/** Starts at the literal `://` (fast to scan for); the scheme in front of it is checked by the callback. */
export const URL_CREDENTIALS = /:\/\/([^\s:/?#@"'`<>[\]{}|\\^]*)(?::([^\s/?#"'`<>\\]*))?@(?=[A-Za-z0-9[._-])/g

export function replaceUrlCredentials(match: string, user: string, password: string | undefined, offset: number, text: string): string {
  if (!/[A-Za-z0-9]/.test(text[offset - 1] ?? '')) return match // no scheme: not a URL
  if (password === undefined) {
    return user.length >= 20 && tokenish(user) ? `://${marker('url-credentials')}@` : match
  }
  if (password.length === 0 || isPlaceholder(password)) return match
  return `://${user}:${marker('url-credentials')}@`
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP authorization: headers with any scheme, then `Bearer <token>` / `Basic <b64>` anywhere

export const AUTH_HEADER = new RegExp(
  '(?<![\\w-])((?:proxy-)?authorization\\\\?["\']?[ \\t]*[:=][ \\t]*(?:\\\\?["\'][ \\t]*)?)' + // name, maybe in JSON
    '(?:(bearer|basic|token|bot|apikey|api-key|key|sso-key|splunk|ssws)[ \\t]+)?' + // scheme
    '([^\\s"\'`,;\\\\]+)', // credentials
  'gi',
)

export function replaceAuthHeader(match: string, head: string, scheme: string | undefined, value: string): string {
  if (isPlaceholder(value) || /[()]/.test(value)) return match
  // without a scheme: `Authorization: Digest username=...`, `authorization: required` (prose), `authorization: req.auth`
  if (scheme === undefined && (value.length < 4 || BARE_WORD.test(value) || isCodeExpression(value))) return match
  const lower = scheme?.toLowerCase()
  const kind: SecretKind = lower === 'bearer' ? 'bearer-token' : lower === 'basic' ? 'basic-auth' : 'auth-header'
  return `${head}${scheme === undefined ? '' : `${scheme} `}${marker(kind)}`
}

export const BEARER = /(?<![\w-])(bearer[ \t]+)([A-Za-z0-9._~+/-]+=*)/gi

/** An opaque-looking token after `Bearer`; or any value when the quotes hold exactly `"Bearer <value>"`. */
export function replaceBearer(match: string, head: string, value: string, offset: number, text: string): string {
  if (tokenish(value)) return `${head}${marker('bearer-token')}`
  const quote = text[offset - 1]
  const quoted = (quote === '"' || quote === "'" || quote === '`') && text[offset + match.length] === quote
  if (!quoted || value.length < 3 || isPlaceholder(value) || BEARER_PROSE.has(value.toLowerCase())) return match
  return `${head}${marker('bearer-token')}`
}

/** Words that follow "Bearer" in prose and docs (`"Bearer auth"`, `"Bearer JWT"`), not credentials. */
const BEARER_PROSE = new Set([
  'auth',
  'authentication',
  'authorization',
  'scheme',
  'header',
  'headers',
  'type',
  'prefix',
  'credentials',
  'jwt',
  'oauth',
  'access',
  'only',
  'format',
  'realm',
  'tokens',
])

export const BASIC = /(?<![\w-])(basic[ \t]+)([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/gi

export function replaceBasic(match: string, head: string, value: string): string {
  if (value.length % 4 !== 0 || !tokenish(value)) return match
  let decoded: string
  try {
    decoded = atob(value)
  } catch {
    return match
  }
  return decoded.includes(':') ? `${head}${marker('basic-auth')}` : match
}

// ---------------------------------------------------------------------------------------------------------------
// Signed URLs (Azure SAS, S3 and GCS presigned)

export const URL_SIGNATURE =
  /([?&](?:sig|Signature|X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|X-Goog-Signature|X-Goog-Credential)=)([^&#\s"'<>`]{8,})/gi

export function replaceUrlSignature(match: string, head: string, value: string): string {
  return value.startsWith('[REDACTED') ? match : `${head}${marker('url-signature')}`
}
