/** Tokens recognisable by their own shape (prefix, length, alphabet), replaced whole. */

import { type SecretKind, marker } from './kinds.js'
import { hasDigit, hasMixedCase, looksRandom } from './values.js'

interface TokenRule {
  kind: SecretKind
  /** Substrings of which one must occur for the rule to run: a cheap skip for the many short strings. */
  hints: readonly string[]
  /** Regex source of the token, without capturing groups; starts with its own boundary lookbehind. */
  source: string
  /** Literal context kept in front of the token (`AccountKey=`); a group, so each rule starts with a literal. */
  before?: string
  /** Extra check on the matched token, for shapes that ordinary words could take. */
  accept?: (token: string) => boolean
  /**
   * Check the hints on a text too long for the needle scan too. For a rule that starts with a class (tried at every
   * word start: slow on long texts) and has a rare literal for a hint (one cheap `includes` scan).
   */
  hintAlways?: true
  /** How many leading characters the low-diversity test skips (a prefix made of one repeated letter). */
  skip?: number
  /**
   * A test that holds wherever the pattern matches, much cheaper than the pattern (for one that starts with a class
   * and has only a common character for a hint); checked on every text, after the hints.
   */
  requires?: (text: string) => boolean
}

const W = '(?<![A-Za-z0-9_])' // starts a word
const WD = '(?<![A-Za-z0-9_-])' // starts a word, not after a dash
const NW = '(?![A-Za-z0-9_])' // ends a word
const NWD = '(?![A-Za-z0-9_-])'

/**
 * Prefixed formats from gitleaks' default rule set (docs/REDACTION.md lists its families and how each is
 * covered). Each starts with its literal prefix, or has a rare literal for a hint. A long prefix ending in `_` or
 * `-` with a body of fixed length and alphabet needs no word start: it is found glued to a word too.
 */
const GITLEAKS_PREFIXES: readonly TokenRule[] = [
  {
    kind: 'onepassword-key',
    hints: ['A3-', 'ps_eyJ'],
    source: `${WD}(?:A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}|ops_eyJ[A-Za-z0-9+/]{250,}={0,3})${NWD}`,
  },
  { kind: 'adobe-secret', hints: ['p8e-'], source: `${WD}p8e-[A-Za-z0-9]{32}${NW}`, accept: hasDigit },
  { kind: 'airtable-token', hints: ['.'], requires: (text) => text.includes('pat'), source: `${W}pat[A-Za-z0-9]{14}\\.[a-f0-9]{64}${NW}` },
  { kind: 'alibaba-key-id', hints: ['LTAI'], source: `${W}LTAI[A-Za-z0-9]{20}${NW}`, accept: (t) => looksRandom(t) },
  { kind: 'artifactory-token', hints: ['KCp', 'cmVmd'], source: `${W}(?:AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59})${NW}` },
  {
    kind: 'bedrock-key',
    hints: ['BSK', 'YmVkcm9jay5hbWF6b25hd3MuY29t'],
    source: `${W}(?:ABSK[A-Za-z0-9+/]{109,269}={0,2}|bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=%_-]*)`,
  },
  {
    kind: 'authress-key',
    hints: ['.acc_', '.acc-'],
    source: `${W}(?:sc|ext|scauth|authress)_[A-Za-z0-9]{5,30}\\.[A-Za-z0-9]{4,6}\\.acc[_-][A-Za-z0-9-]{10,32}\\.[A-Za-z0-9+/_=-]{30,120}`,
  },
  { kind: 'clickhouse-key', hints: ['4b1d'], source: `${W}4b1d[A-Za-z0-9]{38}${NW}`, accept: (t) => looksRandom(t) },
  { kind: 'clojars-token', hints: ['OJARS_'], source: `CLOJARS_[A-Za-z0-9]{60}${NW}` },
  { kind: 'cloudflare-ca-key', hints: ['v1.0-'], source: `${W}v1\\.0-[a-f0-9]{24}-[a-f0-9]{146}${NW}` },
  { kind: 'duffel-token', hints: ['ffel_'], source: `duffel_(?:test|live)_[A-Za-z0-9_=-]{43}` },
  { kind: 'easypost-token', hints: ['EZAK', 'EZTK'], source: `${W}EZ[AT]K[A-Za-z0-9]{54}${NW}` },
  { kind: 'facebook-token', hints: ['AAM', 'AAC'], source: `${W}EAA[MC][A-Za-z0-9]{100,}${NW}` },
  { kind: 'flutterwave-key', hints: ['LWSECK'], source: `${W}FLWSECK(?:_TEST)?-[A-Za-z0-9]{12,32}(?:-X)?${NWD}` },
  { kind: 'frameio-token', hints: ['-u-'], source: `${WD}fio-u-[A-Za-z0-9_=-]{64}` },
  {
    kind: 'harness-key',
    hints: ['.'],
    requires: (text) => text.includes('at.'),
    source: `${W}(?:pat|sat)\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{20}${NW}`,
  },
  { kind: 'infracost-token', hints: ['o-'], source: `${WD}ico-[A-Za-z0-9]{32}${NW}`, accept: (t) => looksRandom(t) },
  { kind: 'intra42-secret', hints: ['s4t2'], source: `${WD}s-s4t2(?:ud|af)-[a-f0-9]{64}${NW}` },
  // `<6>_<29>_mmk`: starts with a class, so it needs its lookbehind and its (rare) hint on every text
  {
    kind: 'maxmind-key',
    hints: ['mmk'],
    hintAlways: true,
    source: `${W}[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk${NW}`,
    requires: (text) => runBefore(text, '_mmk', 29, isAlnum),
  },
  {
    kind: 'mailchimp-key',
    hints: ['-us'],
    hintAlways: true,
    source: `${W}[a-f0-9]{32}-us\\d{1,2}${NW}`,
    requires: (text) => runBefore(text, '-', 32, isLowerHex),
  },
  { kind: 'teams-webhook', hints: ['ffice.com/webhookb2/'], before: '\\.webhook\\.office\\.com/webhookb2/', source: '[A-Za-z0-9@/_-]{40,}' },
  { kind: 'octopus-key', hints: ['I-'], source: `${WD}API-[A-Z0-9]{26}${NW}`, accept: hasDigit },
  { kind: 'openshift-token', hints: ['256~'], source: `${W}sha256~[A-Za-z0-9_-]{43}${NWD}` },
  {
    kind: 'plaid-token',
    hints: ['-sandbox-', '-development-', '-production-'],
    source: `${WD}access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}${NWD}`,
  },
  { kind: 'prefect-token', hints: ['pnu_'], source: `pnu_[A-Za-z0-9]{36}${NW}` },
  { kind: 'readme-token', hints: ['dme_'], source: `rdme_[a-z0-9]{70}${NW}` },
  { kind: 'rubygems-token', hints: ['ygems_'], source: `rubygems_[a-f0-9]{48}${NW}` },
  { kind: 'scalingo-token', hints: ['tk-us-'], source: `${WD}tk-us-[A-Za-z0-9_-]{48}${NWD}` },
  { kind: 'sendinblue-key', hints: ['xkeysib-'], source: `xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}${NW}` },
  { kind: 'settlemint-token', hints: ['sm_'], source: `${W}sm_[aps]at_[A-Za-z0-9]{16}${NW}` },
  { kind: 'shippo-token', hints: ['ippo_'], source: `shippo_(?:live|test)_[a-fA-F0-9]{40}${NW}` },
  { kind: 'sonar-token', hints: ['squ_', 'sqp_', 'sqa_'], source: `sq[upa]_[a-f0-9]{40}${NW}` },
  // 22 `A`s, then the token: the repeated prefix is skipped by the low-diversity test
  { kind: 'twitter-bearer-token', hints: ['AAAAAAAAAAAAAAAAAAAAA'], source: `${W}A{22}[A-Za-z0-9%]{80,100}${NW}`, skip: 22 },
  { kind: 'typeform-token', hints: ['tfp_'], source: `tfp_[A-Za-z0-9_.=-]{59}` },
  {
    kind: 'yandex-key',
    hints: ['AQVN', 't1.'],
    source: `${W}(?:AQVN[A-Za-z0-9_-]{35,38}|t1\\.[A-Za-z0-9_-]+={0,2}\\.[A-Za-z0-9_-]{86}={0,2})${NWD}`,
  },
  { kind: 'dropbox-token', hints: ['sl.'], source: `${W}sl\\.[A-Za-z0-9_=-]{130,}`, accept: (t) => looksRandom(t) },
  { kind: 'gitlab-token', hints: ['R1348941'], source: `${W}GR1348941[A-Za-z0-9_-]{20,}` },
  { kind: 'huggingface-token', hints: ['i_org_'], source: `${W}api_org_[A-Za-z]{34}${NW}` },
  { kind: 'newrelic-key', hints: ['NRII-', 'NRJS-'], source: `${WD}(?:NRII-[A-Za-z0-9-]{32}|NRJS-[a-f0-9]{19})${NWD}` },
  { kind: 'grafana-token', hints: ['JrIjoi'], source: `${W}eyJrIjoi[A-Za-z0-9]{70,400}={0,3}` },
  // a JWT in base64 (`ZXlK` is `eyJ`): decoded, it must read as one
  { kind: 'jwt', hints: ['ZXlK'], source: `${W}ZXlK[A-Za-z0-9+/]{60,}={0,2}`, accept: isBase64Jwt },
]

function isBase64Jwt(token: string): boolean {
  const head = token.slice(0, 4096 - (4096 % 4))
  try {
    return /^eyJ[A-Za-z0-9_-]+\.eyJ/.test(atob(head.slice(0, head.length - (head.length % 4))))
  } catch {
    return false
  }
}

/**
 * One regex per rule: V8 scans quickly for a pattern that starts with a literal, and loses that when 40
 * alternatives are joined (several times slower as one alternation: docs/REDACTION.md).
 */
const TOKEN_RULES: readonly TokenRule[] = [
  {
    kind: 'slack-webhook',
    hints: ['hooks.slack.com/'],
    before: 'hooks\\.slack\\.com/(?:services|workflows|triggers)/',
    source: '[A-Za-z0-9_/-]{8,}',
  },
  {
    kind: 'discord-webhook',
    hints: ['/api/webhooks/'],
    before: 'discord(?:app)?\\.com/api/webhooks/\\d{5,25}/',
    source: '[A-Za-z0-9_-]{20,}',
  },
  { kind: 'anthropic-key', hints: ['sk-ant-'], source: `${WD}sk-ant-[a-z]{2,10}\\d{0,3}-[A-Za-z0-9_-]{16,}` },
  { kind: 'openai-key', hints: ['sk-'], source: `${WD}sk-[A-Za-z0-9_-]{20,}`, accept: (t) => looksRandom(t) },
  { kind: 'groq-key', hints: ['gsk_'], source: `${W}gsk_[A-Za-z0-9]{40,}` },
  { kind: 'xai-key', hints: ['xai-'], source: `${WD}xai-[A-Za-z0-9]{60,}` },
  { kind: 'perplexity-key', hints: ['pplx-'], source: `${WD}pplx-[A-Za-z0-9]{40,}` },
  { kind: 'replicate-token', hints: ['r8_'], source: `${W}r8_[A-Za-z0-9]{30,}`, accept: (t) => looksRandom(t) },
  {
    kind: 'github-token',
    hints: ['gh', 'github_pat_'],
    source: `${W}(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})`,
  },
  {
    kind: 'gitlab-token',
    hints: ['gl'],
    source: `${WD}gl(?:pat|oas|dt|rt|rtr|cbt|ptt|ft|imt|agent|soat|ffct)-[A-Za-z0-9_-]{20,}(?:\\.[A-Za-z0-9_-]{2,})*`,
  },
  {
    kind: 'slack-token',
    hints: ['xox', 'xapp-'],
    source: `${WD}(?:xoxe\\.)?(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}`,
    accept: hasDigit,
  },
  {
    kind: 'stripe-key',
    hints: ['k_live_', 'k_test_', 'k_prod_', 'whsec_'],
    source: `${W}(?:(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{20,})`,
  },
  { kind: 'google-api-key', hints: ['AIza'], source: `${W}AIza[0-9A-Za-z_-]{35}${NWD}` },
  { kind: 'google-oauth-secret', hints: ['GOCSPX-'], source: `${W}GOCSPX-[A-Za-z0-9_-]{20,}` },
  { kind: 'google-oauth-token', hints: ['ya29.'], source: `${W}ya29\\.[A-Za-z0-9_-]{20,}` },
  { kind: 'npm-token', hints: ['npm_'], source: `${W}npm_[A-Za-z0-9]{36,}` },
  { kind: 'pypi-token', hints: ['pypi-AgE'], source: `${W}pypi-AgE[A-Za-z0-9_-]{40,}` },
  { kind: 'sendgrid-key', hints: ['SG.'], source: `${W}SG\\.[A-Za-z0-9_-]{16,32}\\.[A-Za-z0-9_-]{16,64}${NWD}` },
  { kind: 'twilio-key', hints: ['SK'], source: `${W}SK[0-9a-fA-F]{32}${NW}` },
  { kind: 'mailgun-key', hints: ['key-'], source: `${WD}key-[0-9a-f]{32}${NWD}` },
  // Mailgun's newer private keys: 32-8-8 hex. Starts with a class, so it runs only where a `-` follows 32 hex.
  {
    kind: 'mailgun-key',
    hints: ['-'],
    source: `${WD}[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}${NWD}`,
    requires: (text) => runBefore(text, '-', 32, isLowerHex),
  },
  {
    kind: 'azure-key',
    hints: ['Key='],
    before: '(?:[Aa]ccount|SharedAccess)Key=',
    source: '[A-Za-z0-9+/]{20,}={0,2}',
  },
  { kind: 'heroku-key', hints: ['HRKU-'], source: `${W}HRKU-[A-Za-z0-9_-]{20,}` },
  { kind: 'doppler-token', hints: ['dp.'], source: `${W}dp\\.(?:st|sa|ct|pt|scim|audit)\\.[A-Za-z0-9_.-]{20,}` },
  { kind: 'digitalocean-token', hints: ['_v1_'], source: `${W}do[opr]_v1_[a-f0-9]{64}` },
  { kind: 'huggingface-token', hints: ['hf_'], source: `${W}hf_[A-Za-z0-9]{30,}`, accept: (t) => looksRandom(t) },
  { kind: 'shopify-token', hints: ['shp'], source: `${W}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}` },
  {
    kind: 'discord-token',
    hints: ['.'],
    requires: (text) => runBefore(text, '.', 24, isTokenChar),
    source: `(?<![A-Za-z0-9_.-])[MNO][A-Za-z0-9_-]{23,27}\\.[A-Za-z0-9_-]{6,7}\\.[A-Za-z0-9_-]{27,40}${NWD}`,
    accept: (t) => hasDigit(t.slice(0, t.indexOf('.'))) && hasMixedCase(t),
  },
  { kind: 'telegram-bot-token', hints: [':AA'], source: `(?<![A-Za-z0-9_:])\\d{8,10}:AA[A-Za-z0-9_-]{33}${NWD}` },
  // right after `bot`, as the Bot API URL and some env files write it (`bot123456789:AA...`); starts at the literal
  { kind: 'telegram-bot-token', hints: [':AA'], before: 'bot', source: `\\d{8,10}:AA[A-Za-z0-9_-]{33}${NWD}` },
  // whatever its shape, the path segment after `/bot` in a Bot API URL is the token
  {
    kind: 'telegram-bot-token',
    hints: ['.telegram.org/'],
    before: 'api\\.telegram\\.org/(?:file/)?bot',
    source: '\\d{5,16}:[A-Za-z0-9_-]{30,}',
  },
  { kind: 'databricks-token', hints: ['dapi'], source: `${W}dapi[0-9a-f]{32}(?:-\\d)?${NW}` },
  { kind: 'linear-key', hints: ['lin_'], source: `${W}lin_(?:api|oauth)_[A-Za-z0-9]{40,}` },
  { kind: 'postman-key', hints: ['PMAK-'], source: `${W}PMAK-[0-9a-f]{24}-[0-9a-f]{34}` },
  {
    kind: 'grafana-token',
    hints: ['glsa_', 'glc_'],
    source: `${W}(?:glsa_[A-Za-z0-9]{32}_[0-9a-f]{8}|glc_[A-Za-z0-9+/]{32,}={0,2})`,
  },
  { kind: 'sentry-token', hints: ['sntry'], source: `${W}sntry[su]_[A-Za-z0-9+/=_-]{40,}` },
  { kind: 'newrelic-key', hints: ['NRA'], source: `${WD}NRA[KI]-[A-Z0-9]{27}${NW}` },
  {
    kind: 'notion-token',
    hints: ['ntn_', 'secret_'],
    source: `${W}(?:ntn_[A-Za-z0-9]{40,}|secret_[A-Za-z0-9]{43}${NW})`,
  },
  { kind: 'supabase-token', hints: ['sbp_'], source: `${W}sbp_[a-f0-9]{40}` },
  { kind: 'vault-token', hints: ['hvs.', 'hvb.', 'hvr.'], source: `${W}hv[sbr]\\.[A-Za-z0-9_-]{24,}` },
  { kind: 'age-secret-key', hints: ['AGE-SECRET-KEY-1'], source: `${W}AGE-SECRET-KEY-1[0-9A-Z]{58}` },
  { kind: 'atlassian-token', hints: ['ATATT3'], source: `${W}ATATT3[A-Za-z0-9_=-]{100,}` },
  { kind: 'docker-token', hints: ['dckr_'], source: `${W}dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}` },
  {
    kind: 'flyio-token',
    hints: ['fo1_', 'fm1a_', 'fm1r_', 'fm2_'],
    source: `${W}(?:fo1_[A-Za-z0-9_-]{30,}|fm(?:1[ar]|2)_[A-Za-z0-9+/]{60,}={0,3})`,
  },
  { kind: 'planetscale-token', hints: ['pscale_'], source: `${W}pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_=.-]{32,}` },
  { kind: 'pulumi-token', hints: ['pul-'], source: `${WD}pul-[a-f0-9]{40}${NW}` },
  // `<14-character id>.atlasv1.<secret>`: starts with a class, so it needs its lookbehind (and its hint)
  {
    kind: 'terraform-token',
    hints: ['.atlasv1.'],
    hintAlways: true,
    source: `${W}[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{60,}`,
  },
  {
    kind: 'dynatrace-token',
    hints: ['dt0'],
    source: `dt0[a-z]\\d{2}\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64}${NW}`,
  },
  {
    kind: 'sourcegraph-token',
    hints: ['sgp_'],
    source: `sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}${NW}`,
  },
  { kind: 'contentful-token', hints: ['CFPAT-'], source: `CFPAT-[A-Za-z0-9_-]{40,}` },
  { kind: 'square-token', hints: ['sq0csp-', 'sq0atp-'], source: `${WD}sq0(?:csp-[A-Za-z0-9_-]{40,}|atp-[A-Za-z0-9_-]{22,})` },
  // `EAAA` + 60: exactly 64 characters that no base64 character touches (not a window of a base64 blob)
  {
    kind: 'square-token',
    hints: ['EAAA'],
    source: '(?<![A-Za-z0-9_+/=-])EAAA[A-Za-z0-9_-]{60}(?![A-Za-z0-9_+/=-])',
    accept: (t) => looksRandom(t),
  },
  // Entra ID (Azure AD) client secrets: 3 characters, a digit, `Q~`, 31 to 34 more (40 in all)
  {
    kind: 'azure-client-secret',
    hints: ['Q~'],
    hintAlways: true,
    source: '[A-Za-z0-9_~.]{3}\\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~-])',
    accept: hasMixedCase,
  },
  // secret (`sk.`) and temporary (`tk.`) tokens; public `pk.` tokens are meant to be published
  { kind: 'mapbox-token', hints: ['k.eyJ'], source: `[st]k\\.eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,}` },
  {
    kind: 'aws-access-key-id',
    hints: ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T'],
    source: `${W}(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}${NW}`,
  },
  ...GITLEAKS_PREFIXES,
  { kind: 'jwt', hints: ['eyJ'], source: `${WD}eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*` },
]

/** Whether some `char` in `text` follows at least `run` characters that `inClass` accepts. */
function runBefore(text: string, char: string, run: number, inClass: (code: number) => boolean): boolean {
  for (let at = text.indexOf(char, run); at !== -1; at = text.indexOf(char, at + 1)) {
    let k = 1
    while (k <= run && inClass(text.charCodeAt(at - k))) k++
    if (k > run) return true
  }
  return false
}

/** `[0-9a-f]` */
function isLowerHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102)
}

/** `[A-Za-z0-9]` */
function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
}

/** `[A-Za-z0-9_-]` */
function isTokenChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45
}

interface CompiledTokenRule {
  hints: readonly string[]
  /** The hints' places in NEEDLES. */
  hintIds: readonly number[]
  hintAlways: boolean
  requires: ((text: string) => boolean) | undefined
  re: RegExp
  replace: (match: string, before: string, token: string) => string
}

/** Every hint of the token rules, once; their places here are their places in NEEDLES. */
export const HINTS: readonly string[] = [...new Set(TOKEN_RULES.flatMap((rule) => rule.hints))]

export const TOKENS: readonly CompiledTokenRule[] = TOKEN_RULES.map((rule) => ({
  hints: rule.hints,
  hintIds: rule.hints.map((hint) => HINTS.indexOf(hint)),
  hintAlways: rule.hintAlways === true,
  requires: rule.requires,
  re: new RegExp(`(${rule.before ?? ''})(${rule.source})`, 'g'),
  replace: (match: string, before: string, token: string): string => {
    if (token.startsWith('[REDACTED') || lowDiversity(token.slice(rule.skip ?? 0))) return match
    if (rule.accept !== undefined && !rule.accept(token)) return match
    return before + marker(rule.kind)
  },
}))

/** `ghp_xxxxxxxx...`, `sk-...EXAMPLE`: shaped like a token, obviously not one. */
function lowDiversity(token: string): boolean {
  if (/(.)\1{5}|EXAMPLE/.test(token)) return true
  return new Set(token).size < 8
}
