import { createReadStream, existsSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { NEEDLES, SECRET_KINDS, SENSITIVE_WORDS, TOO_DEEP_MARKER, cutRedacted, cutRedactedTwice, mayRedactTo, needlesIn, redact, redactDeep } from './secrets.js'

// Fake but correctly shaped secrets, generated so that no secret-looking literal sits in the repository
// (secret scanners would flag this file otherwise). Seeded: every run sees the same strings.

function prng(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz'
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const DIGITS = '0123456789'
const ALNUM = LOWER + UPPER + DIGITS
const URLSAFE = `${ALNUM}_-`
const HEX = '0123456789abcdef'
const B64 = `${ALNUM}+/`

let fakeSeed = 1
function fake(alphabet: string, length: number): string {
  const next = prng(fakeSeed++ * 7919)
  let out = ''
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)] ?? 'x'
  return out
}

/**
 * Values for the rows added later come from their own seeds, so that the values of the rows above them (drawn
 * from `fake` in file order) stay what they were.
 */
let laterSeed = 100_000
function fake2(alphabet: string, length: number): string {
  const next = prng(laterSeed++ * 7919)
  let out = ''
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)] ?? 'x'
  return out
}

const mark = (kind: string): string => `[REDACTED:${kind}]`

/** Base64 lines of a key body, as in `pemBody`, drawn from `fake2`. */
function pemLines(lines: number, width = 64): string[] {
  const out: string[] = []
  for (let i = 0; i < lines; i++) out.push(fake2(B64, width))
  out.push(`${fake2(B64, 20)}==`)
  return out
}

function pemBody(lines: number, width = 64): string {
  const out: string[] = []
  for (let i = 0; i < lines; i++) out.push(fake(B64, width))
  out.push(`${fake(B64, 20)}==`)
  return out.join('\n')
}

interface Row {
  kind: string
  name: string
  input: string
  /** Every string that must be gone from the output. */
  secrets: string[]
  /** Defaults to `input` with each secret replaced by the kind's marker. */
  expected?: string
}

function row(kind: string, name: string, build: (s: string) => string, secret: string, expected?: string): Row {
  const input = build(secret)
  return { kind, name, input, secrets: [secret], expected: expected ?? input.split(secret).join(mark(kind)) }
}

// ---------------------------------------------------------------------------------------------------------------

const awsId = `AKIA${fake(UPPER + DIGITS, 16)}`
const awsTempId = `ASIA${fake(UPPER + DIGITS, 16)}`
const awsSecret = `${fake(B64, 18)}/${fake(B64, 21)}`
const ghp = `ghp_${fake(ALNUM, 36)}`
const githubPat = `github_pat_${fake(ALNUM, 22)}_${fake(ALNUM, 59)}`
const openaiLegacy = `sk-${fake(ALNUM, 20)}T3BlbkFJ${fake(ALNUM, 20)}`
const openaiProject = `sk-proj-${fake(URLSAFE, 156)}`
const anthropic = `sk-ant-api03-${fake(URLSAFE, 93)}AA`
const anthropicAdmin = `sk-ant-admin01-${fake(URLSAFE, 93)}AA`
const anthropicOauth = `sk-ant-oat01-${fake(URLSAFE, 93)}AA`
const slackBot = `xoxb-${fake(DIGITS, 12)}-${fake(DIGITS, 13)}-${fake(ALNUM, 24)}`
const slackHookPath = `T${fake(UPPER + DIGITS, 8)}/B${fake(UPPER + DIGITS, 10)}/${fake(ALNUM, 24)}`
const stripe = `sk_live_${fake(ALNUM, 99)}`
const googleKey = `AIza${fake(URLSAFE, 35)}`
const jwt = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ${fake(URLSAFE, 60)}.${fake(URLSAFE, 43)}`
const azureKey = `${fake(B64, 86)}==`
const basicCredentials = Buffer.from(`deploy:${fake(ALNUM, 16)}`).toString('base64')
const opaque = fake(ALNUM, 40)

const ROWS: Row[] = [
  // private keys
  row(
    'private-key',
    'RSA block in a prompt',
    (s) => `here is my key, why does ssh reject it?\n${s}\nthanks`,
    `-----BEGIN RSA PRIVATE KEY-----\n${pemBody(6)}\n-----END RSA PRIVATE KEY-----`,
  ),
  row(
    'private-key',
    'EC block from cat',
    (s) => `$ cat key.pem\n${s}\n$ `,
    `-----BEGIN EC PRIVATE KEY-----\n${pemBody(2)}\n-----END EC PRIVATE KEY-----`,
  ),
  row(
    'private-key',
    'OPENSSH block',
    (s) => `Output:\n${s}\n`,
    `-----BEGIN OPENSSH PRIVATE KEY-----\n${pemBody(7, 70)}\n-----END OPENSSH PRIVATE KEY-----`,
  ),
  row(
    'private-key',
    'PKCS#8 ENCRYPTED block',
    (s) => `${s}\n`,
    `-----BEGIN ENCRYPTED PRIVATE KEY-----\n${pemBody(5)}\n-----END ENCRYPTED PRIVATE KEY-----`,
  ),
  row(
    'private-key',
    'legacy encrypted RSA with armor headers',
    (s) => `key:\n${s}`,
    `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,${fake(HEX, 32).toUpperCase()}\n\n${pemBody(4)}\n-----END RSA PRIVATE KEY-----`,
  ),
  row(
    'private-key',
    'PGP private key block',
    (s) => `gpg --armor --export-secret-keys me\n${s}\n`,
    `-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n${pemBody(8)}\n=${fake(B64, 4)}\n-----END PGP PRIVATE KEY BLOCK-----`,
  ),
  row(
    'private-key',
    'service account JSON (escaped newlines)',
    (s) => `{"type": "service_account", "private_key": "${s}", "client_email": "ci@proj.iam.gserviceaccount.com"}`,
    `-----BEGIN PRIVATE KEY-----\\n${pemBody(3).split('\n').join('\\n')}\\n-----END PRIVATE KEY-----\\n`,
    `{"type": "service_account", "private_key": "${mark('private-key')}\\n", "client_email": "ci@proj.iam.gserviceaccount.com"}`,
  ),
  (() => {
    const head = `-----BEGIN OPENSSH PRIVATE KEY-----\n${fake(B64, 70)}\n${fake(B64, 70)}\n${fake(B64, 70)}`
    return {
      kind: 'private-key',
      name: 'truncated block (head -4): stops where the base64 stops',
      input: `$ head -4 ~/.ssh/id_ed25519\n${head}\n$ echo done\ndone`,
      secrets: [head],
      expected: `$ head -4 ~/.ssh/id_ed25519\n${mark('private-key')}\n$ echo done\ndone`,
    }
  })(),
  (() => {
    const lines = [fake(B64, 64), fake(B64, 64)]
    return {
      kind: 'private-key',
      name: 'truncated block in Read tool output with a line-number gutter',
      input: `     1→-----BEGIN RSA PRIVATE KEY-----\n     2→${lines[0]}\n     3→${lines[1]}\n\n... (file truncated)`,
      secrets: lines,
      expected: `     1→${mark('private-key')}\n\n... (file truncated)`,
    }
  })(),

  // JSON-escaped blocks (`\n` is two characters), complete or cut before their END line
  (() => {
    const lines = pemLines(3)
    return {
      kind: 'private-key',
      name: 'truncated JSON-escaped block (service account cut before END)',
      input: `{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n${lines.join('\\n')}`,
      secrets: lines,
      expected: `{"type": "service_account", "private_key": "${mark('private-key')}`,
    }
  })(),
  (() => {
    const lines = pemLines(2)
    const cut = fake2(B64, 30)
    return {
      kind: 'private-key',
      name: 'truncated JSON-escaped block, last line cut short and quoted',
      input: `"private_key": "-----BEGIN PRIVATE KEY-----\\n${lines.join('\\n')}\\n${cut}...", "client_id": "1"`,
      secrets: [...lines, cut],
      expected: `"private_key": "${mark('private-key')}...", "client_id": "1"`,
    }
  })(),
  (() => {
    const lines = pemLines(2)
    return {
      kind: 'private-key',
      name: 'truncated JSON-escaped block with \\r\\n breaks',
      input: `"key": "-----BEGIN RSA PRIVATE KEY-----\\r\\n${lines.join('\\r\\n')}\\r\\n"}`,
      secrets: lines,
      expected: `"key": "${mark('private-key')}\\r\\n"}`,
    }
  })(),
  (() => {
    const lines = pemLines(2)
    return {
      kind: 'private-key',
      name: 'truncated block escaped twice (JSON inside a JSON string)',
      input: `{\\"private_key\\": \\"-----BEGIN PRIVATE KEY-----\\\\n${lines.join('\\\\n')}`,
      secrets: lines,
      expected: `{\\"private_key\\": \\"${mark('private-key')}`,
    }
  })(),
  (() => {
    const lines = pemLines(3).map((line) => line.split('/').join('\\/'))
    return {
      kind: 'private-key',
      name: 'truncated block with JSON-escaped slashes (PHP json_encode)',
      input: `{"key":"-----BEGIN PRIVATE KEY-----\\n${lines.join('\\n')}`,
      secrets: lines,
      expected: `{"key":"${mark('private-key')}`,
    }
  })(),
  (() => {
    const body = fake2(B64, 1600)
    return {
      kind: 'private-key',
      name: 'truncated block on one line (longer than a line)',
      input: `PRIVATE_KEY="-----BEGIN PRIVATE KEY-----${body}"\nNEXT=1`,
      secrets: [body.slice(0, 128), body.slice(128, 400), body.slice(-100)],
      expected: `PRIVATE_KEY="${mark('private-key')}"\nNEXT=1`,
    }
  })(),
  (() => {
    const lines = pemLines(2)
    const cut = fake2(B64, 40)
    return {
      kind: 'private-key',
      name: 'truncated block: a last line cut short is part of the body, prose after it is not',
      input: `-----BEGIN RSA PRIVATE KEY-----\n${lines.join('\n')}\n${cut} (truncated)\nthanks for looking`,
      secrets: [...lines, cut],
      expected: `${mark('private-key')} (truncated)\nthanks for looking`,
    }
  })(),
  (() => {
    const lines = pemLines(2)
    return {
      kind: 'private-key',
      name: 'truncated block followed by prose on the next line',
      input: `-----BEGIN RSA PRIVATE KEY-----\n${lines.join('\n')}\nthanks for looking`,
      secrets: lines,
      expected: `${mark('private-key')}\nthanks for looking`,
    }
  })(),
  (() => {
    const lines = pemLines(3)
    const numbered = [
      '-----BEGIN PGP PRIVATE KEY BLOCK-----', 'Version: GnuPG v2', '', ...lines, '-----END PGP PRIVATE KEY BLOCK-----',
    ].map((line, i) => `${String(i + 1).padStart(6)}\t${line}`)
    return {
      kind: 'private-key',
      name: 'PGP block in cat -n output (a tab gutter on the blank line after the armor headers)',
      input: `${numbered.join('\n')}\n`,
      secrets: lines,
      expected: `     1\t${mark('private-key')}\n`,
    }
  })(),
  (() => {
    const lines = pemLines(2)
    const numbered = ['-----BEGIN PGP PRIVATE KEY BLOCK-----', '', ...lines].map((line, i) => `${String(i + 1).padStart(6)}\t${line}`)
    return {
      kind: 'private-key',
      name: 'truncated PGP block in cat -n output',
      input: numbered.join('\n'),
      secrets: lines,
      expected: `     1\t${mark('private-key')}`,
    }
  })(),
  row(
    'private-key',
    'complete JSON-escaped block with \\r\\n breaks',
    (s) => `{"private_key": "${s}", "x": 1}`,
    `-----BEGIN EC PRIVATE KEY-----\\r\\n${pemLines(2).join('\\r\\n')}\\r\\n-----END EC PRIVATE KEY-----`,
  ),
  row(
    'private-key',
    'complete block with JSON-escaped slashes',
    (s) => `{"private_key":"${s}\\n"}`,
    `-----BEGIN PRIVATE KEY-----\\n${pemLines(3).join('\\n').split('/').join('\\/')}\\n-----END PRIVATE KEY-----`,
  ),

  // URLs with credentials: scheme, user and host stay
  row('url-credentials', 'https user:pass', (s) => `git clone https://alice:${s}@git.example.org/team/repo.git`, `Pw${fake(ALNUM, 14)}`),
  row('url-credentials', 'postgres DSN in .env', (s) => `DATABASE_URL=postgres://app:${s}@db.internal:5432/prod`, fake(ALNUM, 20)),
  row(
    'url-credentials',
    'mongodb+srv in JSON',
    (s) => `{"uri": "mongodb+srv://svc:${s}@cluster0.ab1cd.mongodb.net/app?retryWrites=true"}`,
    `${fake(ALNUM, 12)}%40${fake(ALNUM, 4)}`,
  ),
  row('url-credentials', 'redis with empty user', (s) => `REDIS_URL=redis://:${s}@cache:6379/0`, fake(ALNUM, 24)),
  row('url-credentials', 'password containing @', (s) => `amqp://guest:${s}@mq.local/vhost`, `pa@${fake(ALNUM, 10)}`),
  row('url-credentials', 'opaque token as the user', (s) => `curl https://${s}@api.vendor.io/v1/items`, opaque),

  // tokens with a recognisable shape
  row('slack-webhook', 'incoming webhook', (s) => `curl -X POST https://hooks.slack.com/services/${s} -d '{"text":"hi"}'`, slackHookPath),
  row(
    'discord-webhook',
    'webhook URL',
    (s) => `WEBHOOK=https://discord.com/api/webhooks/${fake(DIGITS, 18)}/${s}`,
    fake(URLSAFE, 68),
  ),
  row('anthropic-key', 'api03 key in a prompt', (s) => `my key is ${s}, is that the right format?`, anthropic),
  row('anthropic-key', 'admin key in env', (s) => `export ANTHROPIC_ADMIN_KEY=${s}`, anthropicAdmin),
  row('anthropic-key', 'oauth token in JSON', (s) => `{"accessToken":"${s}","expiresAt":1767225600000}`, anthropicOauth),
  row('openai-key', 'legacy key in python', (s) => `client = OpenAI(api_key="${s}")`, openaiLegacy),
  row('openai-key', 'project key in a shell', (s) => `OPENAI_API_KEY=${s} python run.py`, openaiProject),
  row('groq-key', 'groq key', (s) => `GROQ_API_KEY=${s}`, `gsk_${fake(ALNUM, 52)}`),
  row('xai-key', 'xai key', (s) => `key: ${s}`, `xai-${fake(ALNUM, 80)}`),
  row('perplexity-key', 'perplexity key', (s) => `Authorization header uses ${s}`, `pplx-${fake(ALNUM, 48)}`),
  row('replicate-token', 'replicate token', (s) => `REPLICATE_API_TOKEN=${s}`, `r8_${fake(ALNUM, 37)}`),
  row('github-token', 'ghp in a remote URL', (s) => `git remote set-url origin https://${s}@github.com/acme/app.git`, ghp),
  row('github-token', 'gho in JSON', (s) => `{"oauth_token": "${s}"}`, `gho_${fake(ALNUM, 36)}`),
  row('github-token', 'ghu in a header', (s) => `-H "Authorization: token ${s}"`, `ghu_${fake(ALNUM, 36)}`),
  row('github-token', 'ghs in CI output', (s) => `Using installation token ${s} for checkout`, `ghs_${fake(ALNUM, 36)}`),
  row('github-token', 'ghr refresh token', (s) => `refresh=${s}`, `ghr_${fake(ALNUM, 76)}`),
  row('github-token', 'fine-grained PAT', (s) => `gh auth login --with-token <<< ${s}`, githubPat),
  row('gitlab-token', 'glpat in a header', (s) => `curl --header "PRIVATE-TOKEN: ${s}" https://gitlab.com/api/v4/user`, `glpat-${fake(URLSAFE, 20)}`),
  row('gitlab-token', 'deploy token', (s) => `docker login -u gitlab+deploy-token-1 --password-stdin <<< ${s}`, `gldt-${fake(URLSAFE, 20)}`),
  row('gitlab-token', 'runner token in YAML', (s) => `runners:\n  token: ${s}\n`, `glrt-${fake(URLSAFE, 20)}`),
  row('slack-token', 'bot token in env', (s) => `SLACK_BOT_TOKEN=${s}`, slackBot),
  row('slack-token', 'user token in a prompt', (s) => `use ${s} to post`, `xoxp-${fake(DIGITS, 12)}-${fake(DIGITS, 12)}-${fake(DIGITS, 13)}-${fake(HEX, 32)}`),
  row('slack-token', 'xoxa / xoxr / xoxs', (s) => `tokens: ${s}`, `xoxa-2-${fake(ALNUM, 40)}`),
  row('slack-token', 'app-level token', (s) => `SLACK_APP_TOKEN="${s}"`, `xapp-1-A${fake(UPPER + DIGITS, 10)}-${fake(DIGITS, 13)}-${fake(HEX, 64)}`),
  row('stripe-key', 'live secret key', (s) => `Stripe::api_key = '${s}'`, stripe),
  row('stripe-key', 'restricted key', (s) => `curl https://api.stripe.com/v1/charges -u ${s}:`, `rk_live_${fake(ALNUM, 24)}`),
  row('stripe-key', 'webhook secret', (s) => `endpointSecret = "${s}"`, `whsec_${fake(ALNUM, 32)}`),
  row('google-api-key', 'maps key in HTML', (s) => `<script src="https://maps.googleapis.com/maps/api/js?key=${s}"></script>`, googleKey),
  row('google-oauth-secret', 'client secret JSON', (s) => `{"web":{"client_id":"123-abc.apps.googleusercontent.com","client_secret":"${s}"}}`, `GOCSPX-${fake(URLSAFE, 28)}`),
  row('google-oauth-token', 'access token', (s) => `curl -H "X-Goog-Token: ${s}"`, `ya29.${fake(URLSAFE, 120)}`),
  row('npm-token', '.npmrc', (s) => `//registry.npmjs.org/:_authToken=${s}\n`, `npm_${fake(ALNUM, 36)}`),
  row('pypi-token', '.pypirc', (s) => `[pypi]\nusername = __token__\npassword = ${s}\n`, `pypi-AgEIcHlwaS5vcmc${fake(URLSAFE, 120)}`),
  row('sendgrid-key', 'env', (s) => `SENDGRID=${s}`, `SG.${fake(URLSAFE, 22)}.${fake(URLSAFE, 43)}`),
  row('twilio-key', 'API key SID', (s) => `client = Client("${s}", secret, account_sid)`, `SK${fake(HEX, 32)}`),
  row('mailgun-key', 'legacy private key', (s) => `auth=("api", "${s}")`, `key-${fake(HEX, 32)}`),
  row('mailgun-key', 'current private key', (s) => `mg = Mailgun(${s})`, `${fake(HEX, 32)}-${fake(HEX, 8)}-${fake(HEX, 8)}`),
  row(
    'azure-key',
    'storage connection string',
    (s) => `AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${s};EndpointSuffix=core.windows.net"`,
    azureKey,
  ),
  row(
    'azure-key',
    'service bus SharedAccessKey',
    (s) => `Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=${s}`,
    `${fake(B64, 43)}=`,
  ),
  row('heroku-key', 'platform token', (s) => `heroku authorizations:create -> ${s}`, `HRKU-AA${fake(URLSAFE, 58)}`),
  row('doppler-token', 'service token', (s) => `DOPPLER_TOKEN=${s}`, `dp.st.prd.${fake(ALNUM, 40)}`),
  row('digitalocean-token', 'personal token', (s) => `doctl auth init -t ${s}`, `dop_v1_${fake(HEX, 64)}`),
  row('huggingface-token', 'hub token', (s) => `huggingface-cli login --token ${s}`, `hf_${fake(LOWER + UPPER, 34)}`),
  row('shopify-token', 'admin API token', (s) => `X-Shopify-Access-Token: ${s}`, `shpat_${fake(HEX, 32)}`),
  row(
    'discord-token',
    'bot token',
    (s) => `client.run('${s}')`,
    `MTE${fake(DIGITS, 4)}${fake(ALNUM, 19)}.${fake(URLSAFE, 6)}.${fake(URLSAFE, 38)}`,
  ),
  row('telegram-bot-token', 'bot token', (s) => `bot = Bot("${s}")`, `${fake(DIGITS, 10)}:AA${fake(URLSAFE, 33)}`),
  row('databricks-token', 'PAT', (s) => `databricks configure --token ${s}`, `dapi${fake(HEX, 32)}`),
  row('linear-key', 'API key', (s) => `LINEAR=${s}`, `lin_api_${fake(ALNUM, 40)}`),
  row('postman-key', 'API key', (s) => `x-api: ${s}`, `PMAK-${fake(HEX, 24)}-${fake(HEX, 34)}`),
  row('grafana-token', 'service account token', (s) => `GF=${s}`, `glsa_${fake(ALNUM, 32)}_${fake(HEX, 8)}`),
  row('sentry-token', 'org auth token', (s) => `SENTRY=${s}`, `sntrys_${fake(B64, 120)}`),
  row('newrelic-key', 'user key', (s) => `NR=${s}`, `NRAK-${fake(UPPER + DIGITS, 27)}`),
  row('notion-token', 'integration token', (s) => `notion = Client(auth="${s}")`, `ntn_${fake(ALNUM, 46)}`),
  row('supabase-token', 'access token', (s) => `supabase login --token ${s}`, `sbp_${fake(HEX, 40)}`),
  row('vault-token', 'service token', (s) => `VAULT_TOKEN=${s} vault kv get secret/app`, `hvs.${fake(URLSAFE, 90)}`),
  row('age-secret-key', 'identity file', (s) => `# created: 2024-01-01\n${s}\n`, `AGE-SECRET-KEY-1${fake(UPPER + DIGITS, 58)}`),
  row('aws-access-key-id', 'AKIA in ~/.aws/credentials', (s) => `[default]\naws_access_key_id = ${s}\n`, awsId),
  row('aws-access-key-id', 'ASIA in CLI output JSON', (s) => `{"Credentials": {"AccessKeyId": "${s}"}}`, awsTempId),
  row('jwt', 'JWT in a prompt', (s) => `decode this: ${s} please`, jwt),
  row(
    'atlassian-token',
    'API token in curl -u',
    (s) => `curl -u me@acme.com:${s} https://acme.atlassian.net/rest/api/3/myself`,
    `ATATT3xFfGF0${fake2(URLSAFE, 171)}=${fake2(HEX, 8).toUpperCase()}`,
  ),
  row('docker-token', 'PAT piped to docker login', (s) => `echo ${s} | docker login -u me --password-stdin`, `dckr_pat_${fake2(URLSAFE, 27)}`),
  row('docker-token', 'organization access token', (s) => `DOCKERHUB=${s}`, `dckr_oat_${fake2(URLSAFE, 32)}`),
  row('flyio-token', 'fo1_ access token', (s) => `fly tokens create deploy -> ${s}`, `fo1_${fake2(URLSAFE, 43)}`),
  row('flyio-token', 'fm2_ macaroon', (s) => `{"fly_token": "x", "deploy": "${s}"}`, `fm2_${fake2(B64, 180)}==`),
  row('planetscale-token', 'service token', (s) => `PLANETSCALE_SERVICE_TOKEN_VALUE=${s}`, `pscale_tkn_${fake2(URLSAFE, 43)}`),
  row(
    'planetscale-token',
    'password in a DSN',
    (s) => `mysql://u${fake2(LOWER, 11)}:${s}@aws.connect.psdb.cloud/app?sslaccept=strict`,
    `pscale_pw_${fake2(URLSAFE, 43)}`,
  ),
  row('pulumi-token', 'access token', (s) => `pulumi login with ${s}`, `pul-${fake2(HEX, 40)}`),
  row(
    'terraform-token',
    'Terraform Cloud credentials block',
    (s) => `credentials "app.terraform.io" {\n  token = "${s}"\n}`,
    `${fake2(ALNUM, 14)}.atlasv1.${fake2(URLSAFE, 67)}`,
  ),
  row(
    'dynatrace-token',
    'API token',
    (s) => `DT=${s}`,
    `dt0c01.${fake2(UPPER + DIGITS, 24)}.${fake2(UPPER + DIGITS, 64)}`,
  ),
  row('sourcegraph-token', 'access token', (s) => `src login with ${s}`, `sgp_${fake2(HEX, 16)}_${fake2(HEX, 40)}`),
  row('sourcegraph-token', 'legacy access token', (s) => `SRC_ACCESS=${s}`, `sgp_${fake2(HEX, 40)}`),
  row('contentful-token', 'management token', (s) => `contentful login --management-token ${s}`, `CFPAT-${fake2(URLSAFE, 43)}`),
  row('square-token', 'OAuth application secret', (s) => `square: ${s}`, `sq0csp-${fake2(URLSAFE, 43)}`),
  row('square-token', 'legacy access token', (s) => `SQ=${s}`, `sq0atp-${fake2(URLSAFE, 22)}`),
  row('square-token', 'access token', (s) => `client = Client(access_token_value="${s}")`, `EAAA${fake2(URLSAFE, 60)}`),
  row(
    'azure-client-secret',
    'Entra ID client secret on the az command line',
    (s) => `az login --service-principal -u 0f3c7a2e-1b4d-4e5f-8a9b-0c1d2e3f4a5b -p ${s} --tenant acme.onmicrosoft.com`,
    `${fake2(ALNUM, 3)}8Q~${fake2(`${ALNUM}_~.-`, 33)}${fake2(ALNUM, 1)}`,
  ),
  row(
    'mapbox-token',
    'secret token',
    (s) => `mapbox.access = ${s}`,
    `sk.eyJ1IjoiYWNtZSIsImEiOi${fake2(ALNUM, 20)}In0.${fake2(URLSAFE, 22)}`,
  ),

  // AWS secret access keys: only in assignments (40 base64 characters are too common otherwise)
  row('aws-secret-access-key', 'credentials file', (s) => `[default]\naws_secret_access_key = ${s}\nregion = eu-west-1`, awsSecret),
  row('aws-secret-access-key', 'export', (s) => `export AWS_SECRET_ACCESS_KEY=${s}`, awsSecret),
  row('aws-secret-access-key', 'sts JSON', (s) => `{"AccessKeyId": "x", "SecretAccessKey": "${s}"}`, awsSecret),

  // HTTP authorization
  row('bearer-token', 'Authorization header in curl', (s) => `curl -H 'Authorization: Bearer ${s}' https://api.acme.dev`, opaque),
  row('bearer-token', 'Authorization in JSON', (s) => `{"headers": {"Authorization": "Bearer ${s}"}}`, opaque),
  row('bearer-token', 'Bearer anywhere', (s) => `the server answered 401 for Bearer ${s} again`, `tok_${fake(ALNUM, 30)}`),
  row('bearer-token', 'short value in an Authorization header', (s) => `-H "Authorization: Bearer ${s}"`, 'xyz'),
  row('bearer-token', 'a quoted "Bearer xyz" string', (s) => `fetch(url, { headers: { auth: "Bearer ${s}" } })`, 'xyz'),
  row('basic-auth', 'Basic header', (s) => `Authorization: Basic ${s}`, basicCredentials),
  row('basic-auth', 'Basic anywhere (decodes to user:pass)', (s) => `sent "Basic ${s}" to the proxy`, basicCredentials),
  row('auth-header', 'other schemes', (s) => `authorization: ApiKey ${s}`, opaque),
  row(
    'url-signature',
    'S3 presigned URL',
    (s) => `https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=${s}&x=1`,
    fake(HEX, 64),
  ),
  row('url-signature', 'Azure SAS', (s) => `https://acme.blob.core.windows.net/c/b?sv=2022-11-02&sr=b&sig=${s}`, `${fake(B64, 43)}%3D`),

  // assignments: the key stays, the value goes
  row('password', 'password= in code', (s) => `db.connect(host="db", password="${s}")`, `Tr0ub4dor&3${fake(ALNUM, 4)}`),
  row('password', 'JSON "password": "hunter2"', (s) => `{"user": "bob", "password": "${s}"}`, 'hunter2'),
  row('password', 'YAML passwd:', (s) => `smtp:\n  passwd: ${s}\n  port: 587`, `s3cr3t!${fake(ALNUM, 4)}`),
  row('password', 'pwd= in an ODBC string', (s) => `Server=sql1;Uid=sa;pwd=${s};Database=app`, `Xy9${fake(ALNUM, 9)}`),
  row('password', '.env DB_PASSWORD quoted', (s) => `DB_HOST=localhost\nDB_PASSWORD="${s}"\n`, `p@ss ${fake(ALNUM, 8)}`),
  row('password', '--password flag', (s) => `mysqladmin --user=root --password ${s} status`, 'foo'),
  row('password', '--password= flag', (s) => `pg_dump --password=${s} app`, 'foo'),
  row('password', 'PowerShell env', (s) => `$env:DB_PASSWORD = "${s}"`, `Pa55${fake(ALNUM, 8)}`),
  row('password', 'python typed assignment', (s) => `password: str = "${s}"`, `S3cure${fake(ALNUM, 6)}`),
  row('password', 'escaped JSON inside a string', (s) => `{\\"password\\":\\"${s}\\"}`, `Q${fake(ALNUM, 11)}`),
  row('password', 'ruby hash', (s) => `{ :user => 'a', 'password' => '${s}' }`, `r${fake(ALNUM, 11)}`),
  row('password', '.netrc', (s) => `machine api.heroku.com login me@x.io password ${s}`, opaque),
  row('password', 'curl -u user:pass', (s) => `curl -u admin:${s} https://jenkins.local/api`, `j3nk${fake(ALNUM, 8)}`),
  row('password', 'DB_PASS env', (s) => `DB_PASS=${s}`, `dbp${fake(ALNUM, 9)}`),
  // an assignment inside a quoted value that stays (a label-like value, or a key that names no secret)
  row(
    'aws-secret-access-key',
    'credentials line quoted in code under a secret-named constant',
    (s) => `export const AWS_SECRET_ACCESS_KEY = "aws_secret_access_key = ${s}"`,
    `${fake2(B64, 18)}/${fake2(B64, 21)}`,
  ),
  row(
    'secret',
    'JSON quoted in code under a secret-named constant',
    (s) => `const json_client_secret = '{"client_id": "acme-web", "client_secret": "${s}"}'`,
    fake2(ALNUM, 40),
  ),
  row(
    'secret',
    'escaped .env line quoted in code',
    (s) => `ENV_SECRET_KEY = "export DJANGO_SECRET_KEY=\\"${s}\\""`,
    fake2(ALNUM, 50),
  ),
  row('password', 'assignment inside the value of a key that names no secret', (s) => `bypass: "db_password=${s}"`, `h${fake2(ALNUM, 11)}`),
  // shaped like a type name to the counts (a capital first, more lowercase than capitals, two digits), not in words
  row(
    'password',
    'random mixed-case value after password:',
    (s) => `password: ${s}`,
    [
      fake2(UPPER, 1), fake2(LOWER, 2), fake2(UPPER, 1), fake2(LOWER, 1), fake2(UPPER, 1), fake2(LOWER, 1),
      fake2(UPPER, 3), fake2(LOWER, 4), fake2(DIGITS, 1), fake2(LOWER, 2), fake2(UPPER, 2), fake2(LOWER, 1),
      fake2(DIGITS, 1), fake2(LOWER, 1), fake2(UPPER, 1), fake2(LOWER, 2),
    ].join(''),
  ),
  row('secret', 'random mixed-case value in YAML', (s) => `auth:\n  client_secret: ${s}\n`, `Q${fake2(LOWER, 5)}${fake2(ALNUM, 12)}`),
  row('token', 'random value with capitals and one digit', (s) => `token: ${s}`, `Xq${fake2(LOWER, 3)}R${fake2(LOWER, 4)}7${fake2(LOWER, 6)}`),
  row('secret', 'secret=', (s) => `secret=${s}`, opaque),
  row('secret', 'client_secret in a form body', (s) => `grant_type=client_credentials&client_id=abc&client_secret=${s}`, opaque),
  row('secret', '.env STRIPE_SECRET', (s) => `STRIPE_SECRET=${s}`, `x${fake(ALNUM, 30)}`),
  row('secret', 'private_key assignment', (s) => `private_key = "${s}"`, fake(HEX, 64)),
  row('secret', 'YAML jwt_secret', (s) => `auth:\n  jwt_secret: ${s}\n`, `${fake(ALNUM, 32)}`),
  row('token', 'token= in a query string', (s) => `GET /feed?token=${s}&page=2`, opaque),
  row('token', 'access_token JSON', (s) => `{"access_token": "${s}", "token_type": "Bearer", "expires_in": 3600}`, opaque),
  row('token', 'export FOO_TOKEN', (s) => `export FOO_TOKEN=${s}`, `ft-${fake(ALNUM, 24)}`),
  row('token', '--token flag', (s) => `cli deploy --token ${s} --prod`, opaque),
  row('token', 'Twilio auth token in env', (s) => `TWILIO_AUTH_TOKEN=${s}`, fake(HEX, 32)),
  row('api-key', 'Heroku API key (a UUID) in env', (s) => `HEROKU_API_KEY=${s}`, '3f6a9b1c-2d4e-4f80-9a1b-7c2d3e4f5a6b'),
  row('api-key', 'api_key=', (s) => `requests.get(url, params={"api_key": "${s}"})`, fake(HEX, 32)),
  row('api-key', 'apikey header', (s) => `-H "apikey: ${s}"`, opaque),
  row('api-key', 'X-API-Key header', (s) => `X-API-Key: ${s}`, opaque),
]

describe('redact: one row per kind, in prompts, shell commands, JSON and .env files', () => {
  it.each(ROWS.map((r) => [`${r.kind}: ${r.name}`, r] as const))('%s', (_name, r) => {
    const out = redact(r.input)
    for (const secret of r.secrets) expect(out).not.toContain(secret)
    expect(out).toBe(r.expected)
    expect(redact(out)).toBe(out)
  })

  it('has a row for every kind in SECRET_KINDS', () => {
    const covered = new Set(ROWS.map((r) => r.kind))
    expect(SECRET_KINDS.filter((kind) => !covered.has(kind))).toEqual([])
    expect(new Set(SECRET_KINDS).size).toBe(SECRET_KINDS.length)
  })

  it('redacts several secrets of different kinds in one text and keeps the prose between them', () => {
    const text = `Set ${ghp} as GITHUB_TOKEN, then run\n  AWS_ACCESS_KEY_ID=${awsId} AWS_SECRET_ACCESS_KEY=${awsSecret} aws s3 ls\nand tell me if it works.`
    expect(redact(text)).toBe(
      `Set ${mark('github-token')} as GITHUB_TOKEN, then run\n  AWS_ACCESS_KEY_ID=${mark('aws-access-key-id')} AWS_SECRET_ACCESS_KEY=${mark('aws-secret-access-key')} aws s3 ls\nand tell me if it works.`,
    )
  })

  it('keeps the key of a .env file readable and redacts only values', () => {
    const env = [
      'NODE_ENV=production',
      `export GITHUB_TOKEN=${ghp}`,
      `DB_PASSWORD="${opaque}"`,
      `STRIPE_SECRET=${stripe}`,
      'PORT=3000',
    ].join('\n')
    expect(redact(env)).toBe(
      [
        'NODE_ENV=production',
        `export GITHUB_TOKEN=${mark('github-token')}`,
        `DB_PASSWORD="${mark('password')}"`,
        `STRIPE_SECRET=${mark('stripe-key')}`,
        'PORT=3000',
      ].join('\n'),
    )
  })

  it('is stable on already redacted text', () => {
    const once = redact(ROWS.map((r) => r.input).join('\n\n'))
    expect(redact(once)).toBe(once)
    for (const kind of SECRET_KINDS) {
      const samples = [
        `x ${mark(kind)} y`,
        `password=${mark(kind)}`,
        `"token": "${mark(kind)}"`,
        `https://u:${mark(kind)}@h/`,
        `Authorization: Bearer ${mark(kind)}`,
        `--password ${mark(kind)}`,
      ]
      for (const text of samples) expect(redact(text)).toBe(text)
    }
  })
})

describe('redact: false positives', () => {
  const unchanged: Array<[string, string]> = [
    ['empty assignment', 'password=\nuser=bob'],
    ['angle-bracket placeholder', 'export GITHUB_TOKEN=<your-token>'],
    ['xxx placeholder', 'api_key=xxx'],
    ['masked value', 'password: "****"'],
    ['shell variable', 'TOKEN=${VAR} ./deploy.sh'],
    ['shell variable, unbraced', 'curl -u "$USER:$PASS" https://x'],
    ['process.env', 'const token = process.env.GITHUB_TOKEN'],
    ['os.environ', 'password = os.environ["DB_PASSWORD"]'],
    ['os.getenv', "api_key = os.getenv('API_KEY')"],
    ['type annotation', 'interface Creds { password: string; token?: string }'],
    ['type annotation (class type)', 'function unwrap(privateKey: Uint8Array): Promise<Uint8Array>'],
    ['password=password', 'connect(user=user, password=password)'],
    ['identifier value', 'const token = await getToken()'],
    ['arrow function', 'tokens.map(token => token.trim())'],
    ['comparison', 'if password == "": return'],
    ['template placeholder', 'password: "{{ .Values.db.password }}"'],
    ['GitHub Actions secret reference', 'token: ${{ secrets.GITHUB_TOKEN }}'],
    ['label text', 'placeholder: "Enter your password"'],
    ['prose in quotes', "agent_options: { secret: 'not persisted' }"],
    ['partially shown key', 'ANTHROPIC_API_KEY=sk-ant-...'],
    ['doc placeholder token', 'GH_TOKEN: ghp_xxx'],
    ['all-x token', `ghp_${'x'.repeat(36)}`],
    ['AWS docs example key', 'AKIAIOSFODNN7EXAMPLE'],
    ['git SHA', 'commit 3f786850e387550fdab836ed7e6dc881de23001b (HEAD -> main)'],
    ['UUID', 'session 550e8400-e29b-41d4-a716-446655440000 resumed'],
    ['Claude ids', 'msg_01XFDUDYJgAACzvnptvVoYEL toolu_01A09q90qw90lq917835lq9 req_011CSHoEeqs5C35K2UUqR7Fy'],
    ['paths', 'private_key: ~/.ssh/id_ed25519\nPWD=/home/me/proj\nOLDPWD=/tmp'],
    ['token counts', '{"input_tokens": 1234, "max_tokens": 4096, "cache_read_input_tokens": 0}'],
    ['tokenizer config', '{"eos_token": "</s>", "unk_token": "[UNK]", "pad_token": "<pad>"}'],
    ['go test output', '--- PASS: TestLoadSessionState_WithEndedAt (0.07s)\nPASS'],
    ['pass in config', 'bypass: true\nfirst_pass: abc\npass: 12'],
    ['prompt config pwd option', '"pwd": "osc99"'],
    ['kubernetes secret name', 'secretName: tls-secret\nsecrets: inherit'],
    ['token_type', '{"token_type": "bearer"}'],
    ['Bearer in prose', 'Send a Bearer token in the Authorization header. "Bearer auth" is "Bearer <token>".'],
    ['Basic in prose', 'Basic authentication is disabled; Basic usage is below.'],
    ['auth header with a variable', 'headers = {"Authorization": f"Bearer {token}"}'],
    ['auth header concatenation', '"Authorization": "Bearer " + token'],
    ['URL without credentials', 'https://github.com/acme/app/blob/main/README.md and http://localhost:8080/x'],
    ['ssh remote', 'git@github.com:acme/app.git ssh://git@github.com/acme/app.git'],
    ['URL with placeholder password', 'postgres://user:password@localhost:5432/app'],
    ['docker -u uid:gid', 'docker run -u 1000:1000 img'],
    ['kebab words after sk-', 'pip install sk-learn-2024-benchmark-results'],
    ['PEM template', 'const pem = `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----`'],
    ['PEM header in a grep', 'grep -rl -- "-----BEGIN RSA PRIVATE KEY-----" .'],
    ['public key and certificate', `-----BEGIN PUBLIC KEY-----\n${pemBody(3)}\n-----END PUBLIC KEY-----`],
    ['base64 image', `data:image/png;base64,iVBORw0KGgo${fake(B64, 4000)}`],
    ['thinking signature', `{"signature": "Eq${fake(B64, 600)}"}`],
    ['redaction by another tool', '=== CONT  REDACTED\n--- PASS: REDACTED (0.70s)'],
    ['markdown inline code', 'the `api_key=` inside the `url` field'],
    [
      'type annotations with word-structured names',
      'signingKey: CryptoKeyPair; accessToken: OAuth2Token; idToken: IdToken; secret: SecretStr; apiKey: HttpClient',
    ],
    ['type annotations with acronyms and digits', 'privateKey: RSAPrivateKey\nsecretKey: Uint8Array[]\ntoken: BigInt64Array'],
    ['type annotation with a generic', 'password: Option<String>\naccess_token: Zeroizing<Vec<u8>>'],
  ]

  it.each(unchanged)('%s', (_name, text) => {
    expect(redact(text)).toBe(text)
  })
})

describe('redactDeep', () => {
  it('redacts every string value and key at any depth and leaves numbers, booleans and null alone', () => {
    const input = {
      type: 'user',
      [ghp]: 'a key that is a token is redacted like a value',
      message: { content: [{ type: 'text', text: `token ${ghp}` }, { type: 'tool_use', input: { command: `export DB_PASSWORD=${opaque}` } }] },
      usage: { input_tokens: 12, cached: false, extra: null },
      list: [[[`Bearer ${opaque}`]]],
    }
    expect(redactDeep(input)).toEqual({
      type: 'user',
      [mark('github-token')]: 'a key that is a token is redacted like a value',
      message: {
        content: [
          { type: 'text', text: `token ${mark('github-token')}` },
          { type: 'tool_use', input: { command: `export DB_PASSWORD=${mark('password')}` } },
        ],
      },
      usage: { input_tokens: 12, cached: false, extra: null },
      list: [[[`Bearer ${mark('bearer-token')}`]]],
    })
  })

  it('never mutates its input and returns new containers', () => {
    const deepFreeze = <T>(value: T): T => {
      if (value !== null && typeof value === 'object') {
        for (const child of Object.values(value)) deepFreeze(child)
        Object.freeze(value)
      }
      return value
    }
    const input = deepFreeze({ a: [`password=${opaque}`, { b: ghp }] })
    const before = JSON.stringify(input)
    const out = redactDeep(input)
    expect(JSON.stringify(input)).toBe(before)
    expect(out).not.toBe(input)
    expect(out.a).not.toBe(input.a)
    expect(out.a[1]).not.toBe(input.a[1])
  })

  it('redacts a value whole when its key names a secret, with the same placeholder rules as text', () => {
    const input = {
      tool: { name: 'mcp__vendor__query', input: { apiKey: opaque, query: 'select 1' } },
      env: { GITHUB_TOKEN: 'plain-looking-value-1', DB_PASSWORD: 'hunter2', HOME: '/home/me' },
      placeholders: { password: '', token: '${TOKEN}', secret: '<your-secret>', privateKey: '~/.ssh/id_ed25519' },
      usage: { input_tokens: 12, output_tokens: 3 },
      settings: new Map([['client_secret', opaque]]),
      headers: { authorization: 'Bearer abc.def', 'Proxy-Authorization': 'Basic ${CREDS}', accept: 'text/html' },
      wallet: { passphrase: 'correct horse battery staple', hint: 'four random words' },
    }
    expect(redactDeep(input)).toEqual({
      tool: { name: 'mcp__vendor__query', input: { apiKey: mark('api-key'), query: 'select 1' } },
      env: { GITHUB_TOKEN: mark('token'), DB_PASSWORD: mark('password'), HOME: '/home/me' },
      placeholders: { password: '', token: '${TOKEN}', secret: '<your-secret>', privateKey: '~/.ssh/id_ed25519' },
      usage: { input_tokens: 12, output_tokens: 3 },
      settings: new Map([['client_secret', mark('secret')]]),
      headers: { authorization: `Bearer ${mark('bearer-token')}`, 'Proxy-Authorization': 'Basic ${CREDS}', accept: 'text/html' },
      wallet: { passphrase: mark('password'), hint: 'four random words' },
    })
  })

  it('handles primitives and leaves non-plain objects as they are', () => {
    expect(redactDeep(ghp)).toBe(mark('github-token'))
    expect(redactDeep(42)).toBe(42)
    expect(redactDeep(undefined)).toBeUndefined()
    const when = new Date(0)
    expect(redactDeep({ when }).when).toBe(when)
    const map = redactDeep(new Map<unknown, string>([[ghp, ghp], [7, ghp]]))
    expect([...map]).toEqual([[mark('github-token'), mark('github-token')], [7, mark('github-token')]])
    expect([...redactDeep(new Set([ghp]))]).toEqual([mark('github-token')])
  })

  it('redacts a secret inside a key (a file path used as a key) and judges the value by the key as written', () => {
    const token = `ghp_${fake2(ALNUM, 36)}`
    const input = JSON.parse(
      `{"files": {"notes/${token}.txt": {"size": 12}, "README.md": {"size": 3}}, "${token}_password": "${opaque}"}`,
    ) as unknown
    const out = redactDeep(input)
    expect(JSON.stringify(out)).not.toContain(token)
    expect(out).toEqual({
      files: { [`notes/${mark('github-token')}.txt`]: { size: 12 }, 'README.md': { size: 3 } },
      [`${mark('github-token')}_password`]: mark('password'),
    })
  })

  it('keeps every key when several redact to the same text, suffixing " (2)", " (3)"', () => {
    const tokens = [`ghp_${fake2(ALNUM, 36)}`, `ghp_${fake2(ALNUM, 36)}`, `ghp_${fake2(ALNUM, 36)}`]
    const key = `notes/${mark('github-token')}.txt`
    const input = {
      files: {
        [`notes/${tokens[0]}.txt`]: 1,
        [`notes/${tokens[1]}.txt`]: 2,
        [`${key} (3)`]: 'a key that already reads like a suffixed one',
        [`notes/${tokens[2]}.txt`]: 4,
      },
    }
    const out = redactDeep(input)
    expect(out.files).toEqual({
      [key]: 1,
      [`${key} (2)`]: 2,
      [`${key} (3)`]: 'a key that already reads like a suffixed one',
      [`${key} (4)`]: 4,
    })
    expect(Object.keys(out.files)).toHaveLength(4)
    const map = redactDeep(new Map(tokens.map((t, i) => [`notes/${t}.txt`, i])))
    expect([...map]).toEqual([[key, 0], [`${key} (2)`, 1], [`${key} (3)`, 2]])
  })

  it('keeps many colliding keys in linear time', () => {
    const input: Record<string, number> = {}
    for (let i = 0; i < 20_000; i++) input[`Bearer ${fake2(ALNUM, 30)}`] = i
    const start = performance.now()
    const out = redactDeep(input)
    expect(performance.now() - start).toBeLessThan(2000)
    const keys = Object.keys(out)
    expect(keys).toHaveLength(20_000)
    expect(keys[0]).toBe(`Bearer ${mark('bearer-token')}`)
    expect(keys[19_999]).toBe(`Bearer ${mark('bearer-token')} (20000)`)
    expect(Object.values(out)).toEqual(Object.values(input))
  })

  it('keeps a "__proto__" key from JSON.parse as a plain property', () => {
    const input = JSON.parse(`{"__proto__": {"token": "${opaque}"}, "x": 1}`) as Record<string, unknown>
    const out = redactDeep(input)
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.keys(out)).toEqual(['__proto__', 'x'])
    expect(JSON.stringify(out)).toBe(`{"__proto__":{"token":"${mark('token')}"},"x":1}`)
  })

  it('terminates on cycles and on shared references, reproducing them in the copy', () => {
    const cyclic: Record<string, unknown> = { secret: `token=${opaque}` }
    cyclic.self = cyclic
    const out = redactDeep(cyclic)
    expect(out.self).toBe(out)
    expect(out.secret).toBe(`token=${mark('token')}`)

    // 2^64 paths if shared nodes were copied once per path
    let node: Record<string, unknown> = { leaf: ghp }
    for (let i = 0; i < 64; i++) node = { left: node, right: node }
    const copy = redactDeep(node)
    expect(copy.left).toBe(copy.right)
  })

  it('caps depth: a very deep value is replaced by the too-deep marker instead of overflowing the stack', () => {
    let deep: unknown = ghp
    for (let i = 0; i < 100_000; i++) deep = [deep]
    let out = redactDeep(deep)
    let depth = 0
    while (Array.isArray(out)) {
      out = out[0]
      depth++
    }
    expect(out).toBe(TOO_DEEP_MARKER)
    expect(depth).toBe(100)
  })
})

describe('cutRedacted', () => {
  const gho = `gho_${fake2(ALNUM, 36)}`

  it('redacts before it cuts: a cut cannot hide a secret from the rules', () => {
    const body = pemLines(4)
    const text = `{"private_key": "-----BEGIN PRIVATE KEY-----\\n${body.join('\\n')}\\n-----END PRIVATE KEY-----\\n"}`
    // cut inside the body: a cut-then-redact would keep the lines a truncated-block rule leaves out
    const out = cutRedacted(text, 60)
    for (const line of body) expect(out).not.toContain(line.slice(0, 12))
    expect(out).toBe(`{"private_key": "${mark('private-key')}\\n"}`)
    // the cut falls inside the word `password=[REDACTED:password]`: none of that word is kept
    expect(cutRedacted(`password=${opaque} and more`, 18)).toBe('')
    expect(cutRedacted(`set password=${opaque} and more`, 22)).toBe('set ')
  })

  it('returns text that fits unchanged but redacted, and is never longer than max', () => {
    expect(cutRedacted('short text', 100)).toBe('short text')
    expect(cutRedacted(`use ${gho}`, 100)).toBe(`use ${mark('github-token')}`)
    expect(cutRedacted('anything', 0)).toBe('')
    expect(cutRedacted('anything', -5)).toBe('')
    expect(cutRedacted('anything', Number.NaN)).toBe('')
    expect(cutRedacted('anything at all', 7.9)).toBe('anythin')
    const text = `token ${gho} then ${opaque} and plain words, Bearer ${opaque} end`
    for (let max = 0; max <= text.length + 5; max++) {
      const out = cutRedacted(text, max)
      expect(out.length).toBeLessThanOrEqual(max)
      expect(redact(text).startsWith(out)).toBe(true)
    }
  })

  it('never ends inside a [REDACTED:...] marker', () => {
    const text = `token ${gho} and more`
    const redacted = `token ${mark('github-token')} and more`
    const markerStart = 'token '.length
    const markerEnd = markerStart + mark('github-token').length
    for (let max = markerStart + 1; max < markerEnd; max++) expect(cutRedacted(text, max)).toBe('token ')
    expect(cutRedacted(text, markerEnd)).toBe(redacted.slice(0, markerEnd))
    expect(cutRedacted(text, markerEnd + 4)).toBe(`${redacted.slice(0, markerEnd)} and`)
  })

  it('never ends in a "[REDACTED:" left open, even one the input held as text', () => {
    expect(cutRedacted('log: [REDACTED: reason unknown] done', 20)).toBe('log: ')
    expect(cutRedacted(`a [REDACTED:${mark('jwt')} b`, 20)).toBe('a ')
    expect(cutRedacted(`a ${mark('jwt')} b`, 40)).toBe(`a ${mark('jwt')} b`)
    const start = performance.now()
    expect(cutRedacted('[REDACTED:'.repeat(100_000), 900_000)).toBe('')
    expect(performance.now() - start).toBeLessThan(1000)
  })

  it('drops a partial token-looking run longer than 8 characters, keeps a short word cut short', () => {
    // `opaque` is 40 random characters the rules leave alone without context
    expect(cutRedacted(`id ${opaque} end`, 3 + 20)).toBe('id ')
    expect(cutRedacted(`see ${fake2(B64, 30)}/${fake2(HEX, 20)} end`, 20)).toBe('see ')
    expect(cutRedacted('a sentence with internationalization in it', 25)).toBe('a sentence with ')
    expect(cutRedacted('hello wonders', 9)).toBe('hello won')
    expect(cutRedacted('hello world, then more', 8)).toBe('hello wo')
    // a run of exactly 9 is longer than 8: dropped; a cut at its end keeps it whole
    expect(cutRedacted('abc 123456789 x', 8)).toBe('abc ')
    expect(cutRedacted('abc 123456789 x', 13)).toBe('abc 123456789')
  })

  it('never leaves half a surrogate pair', () => {
    expect(cutRedacted('ok \u{1F600}\u{1F600}', 4)).toBe('ok ')
    expect(cutRedacted('ok \u{1F600}\u{1F600}', 5)).toBe('ok \u{1F600}')
  })
})

/** Built in 64 kB chunks so that no multi-million-element array is alive (and traced by the GC) while timing. */
function randomText(length: number, alphabet: string): string {
  const next = prng(42)
  const chunks: string[] = []
  const codes = new Uint16Array(65_536)
  for (let done = 0; done < length; done += codes.length) {
    const n = Math.min(codes.length, length - done)
    for (let i = 0; i < n; i++) codes[i] = alphabet.charCodeAt(Math.floor(next() * alphabet.length))
    chunks.push(String.fromCharCode(...codes.subarray(0, n)))
  }
  return chunks.join('')
}

describe('redact: performance (linear regexes)', () => {
  // Generous bounds: they catch backtracking blow-ups (seconds to hours), not small regressions.
  const timed = (text: string): number => {
    const start = performance.now()
    redact(text)
    return performance.now() - start
  }

  it('5 MB of random text', () => {
    expect(timed(randomText(5_000_000, `${ALNUM}     \n=:/@._-"'{}[](),;&?#$%*+`))).toBeLessThan(1000)
  })

  it('1 MB of "a=" repeated', () => {
    expect(timed('a='.repeat(500_000))).toBeLessThan(1000)
  })

  const adversarial: Array<[string, () => string]> = [
    ['one 1 MB word', () => 'a'.repeat(1_000_000)],
    ['1 MB of base64', () => randomText(1_000_000, B64)],
    ['eyJ repeated', () => 'eyJ'.repeat(330_000)],
    ['password=" repeated', () => 'password="'.repeat(100_000)],
    ["password=' \\ repeated", () => "password='\\".repeat(90_000)],
    ['password: repeated', () => 'password: '.repeat(100_000)],
    ['api_key run', () => `${'api_key'.repeat(140_000)}=`],
    ['BEGIN lines without END', () => '-----BEGIN RSA PRIVATE KEY-----\n'.repeat(30_000)],
    ['BEGIN lines, one END far away', () => `${'-----BEGIN RSA PRIVATE KEY-----\n'.repeat(30_000)}-----END RSA PRIVATE KEY-----`],
    ['BEGIN then base64 lines, no END', () => `-----BEGIN RSA PRIVATE KEY-----\n${`${fake(B64, 64)}\n`.repeat(15_000)}`],
    ['scheme-like runs', () => 'https://a:'.repeat(100_000)],
    ['at signs', () => 'a@'.repeat(500_000)],
    ['colons', () => ':'.repeat(1_000_000)],
    ['Bearer repeated', () => 'Bearer '.repeat(150_000)],
    ['Authorization repeated', () => 'Authorization: '.repeat(70_000)],
    ['--password repeated', () => '--password '.repeat(100_000)],
    ['sk- repeated', () => 'sk-'.repeat(330_000)],
    ['escaped quotes', () => '\\"'.repeat(500_000)],
    // shapes that were quadratic before a fix
    ['Authorization: then 1 MB of blanks', () => `Authorization: ${' '.repeat(1_000_000)}x`],
    ['api key then a 1 MB run of "<"', () => `x-api-key: a${'<'.repeat(1_000_000)}`],
    ['dense matches', () => 'token: A@'.repeat(110_000)],
    ['quoted assignments nested three deep, repeated', () => `token="a token='b token=\\"c\\" x' y" `.repeat(28_000)],
    ['one quoted value holding 1 MB of assignments', () => `secret = "${"token='x y' ".repeat(90_000)}"`],
    ['one quoted value holding 1 MB of unclosed assignments', () => `secret = "${'password=\''.repeat(100_000)}"`],
    // JSON-escaped PEM blocks
    ['escaped BEGIN lines without END', () => '-----BEGIN RSA PRIVATE KEY-----\\n'.repeat(30_000)],
    ['BEGIN then escaped base64 lines, no END', () => `-----BEGIN PRIVATE KEY-----\\n${`${fake2(B64, 64)}\\n`.repeat(15_000)}`],
    ['BEGIN then escaped slashes, no END', () => `-----BEGIN PRIVATE KEY-----\\n${'\\/'.repeat(500_000)}`],
    ['BEGIN then a 1 MB base64 line, repeated', () => `-----BEGIN PRIVATE KEY-----${fake2(B64, 200_000)}`.repeat(5)],
    ['BEGIN then gutter-only lines', () => `-----BEGIN PRIVATE KEY-----${'\n     1\t'.repeat(125_000)}`],
    ['BEGIN and gutter-only lines, repeated', () => `-----BEGIN PRIVATE KEY-----${'\n     1\t'.repeat(20)}`.repeat(5_000)],
    ['BEGIN then 200 base64 characters, repeated', () => `-----BEGIN PRIVATE KEY-----${fake2(B64, 200)}`.repeat(4_500)],
    // token formats with a repeated class
    ['ATATT3 repeated', () => 'ATATT3'.repeat(170_000)],
    ['ATATT3 then a 1 MB run', () => `ATATT3${'a-'.repeat(500_000)}`],
    ['dckr_pat_ repeated', () => 'dckr_pat_'.repeat(110_000)],
    ['fo1_ and fm2_ repeated', () => 'fo1_fm2_'.repeat(125_000)],
    ['fm2_ then 1 MB of base64', () => `fm2_${randomText(1_000_000, B64)}`],
    ['pscale_tkn_ repeated', () => 'pscale_tkn_.'.repeat(85_000)],
    ['pul- repeated', () => 'pul-'.repeat(250_000)],
    ['14 characters and .atlasv1. repeated', () => 'abcdefghijklmn.atlasv1.'.repeat(43_000)],
    ['.atlasv1. then a 1 MB run', () => `abcdefghijklmn.atlasv1.${'a'.repeat(1_000_000)}`],
    ['dt0c01. repeated', () => 'dt0c01.'.repeat(140_000)],
    ['sgp_ repeated', () => `sgp_${'a'.repeat(16)}_`.repeat(45_000)],
    ['CFPAT- repeated', () => 'CFPAT-'.repeat(170_000)],
    ['sq0csp- repeated', () => 'sq0csp-sq0atp-'.repeat(70_000)],
    ['EAAA repeated', () => 'EAAA'.repeat(250_000)],
    ['EAAA after every blank', () => `EAAA${'a'.repeat(60)} `.repeat(15_000)],
    ['Q~ shapes repeated', () => 'abc8Q~'.repeat(170_000)],
    ['Q~ shapes between blanks', () => `abc8Q~${'a.'.repeat(20)} `.repeat(21_000)],
    ['sk.eyJ repeated', () => 'sk.eyJ'.repeat(170_000)],
    ['sk.eyJ with one dot each, repeated', () => `sk.eyJ${'a'.repeat(12)}.`.repeat(50_000)],
  ]

  it.each(adversarial)('%s', (_name, build) => {
    expect(timed(build())).toBeLessThan(1000)
  })
})

describe('redact: fuzz', () => {
  const FRAGMENTS = [
    'ghp_', 'github_pat_', 'glpat-', 'sk-', 'sk-ant-api03-', 'xoxb-', 'AKIA', 'AIza', 'eyJ', '.eyJ', 'npm_', 'hf_',
    'password', 'passwd', 'token', 'api_key', 'secret', 'PASS', 'pwd', '=', ':', ': ', '=>', ':=', '"', "'", '`', '\\"',
    '\\n', '\n', '\r\n', ' ', '\t', '-----BEGIN RSA PRIVATE KEY-----', '-----END RSA PRIVATE KEY-----',
    '-----BEGIN PGP PRIVATE KEY BLOCK-----', '://', '@', 'https://', 'postgres://u:', 'Bearer ', 'Basic ',
    'Authorization: ', '--password ', '--token=', '-u ', 'login ', ' password ', '?sig=', '&token=', 'AccountKey=',
    'hooks.slack.com/services/', '[REDACTED:jwt]', '[REDACTED:', ']', '${', '}', '<', '>', '(', ')', '[', '{',
    'é', '→', '\u{1F600}', '\uD800', '\uDC00', '\u0000', '==', '/', '+', '.', '_', '-',
    'ATATT3', 'dckr_pat_', 'fo1_', 'fm2_', 'pscale_tkn_', 'pul-', '.atlasv1.', 'dt0c01.', 'sgp_', 'CFPAT-', 'sq0csp-',
    'EAAA', '8Q~', 'sk.eyJ', '\\r\\n', '\\/', '-----BEGIN PRIVATE KEY-----\\n',
  ]

  it('never throws, always returns a string, and is idempotent', () => {
    const next = prng(7)
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T
    for (let n = 0; n < 3000; n++) {
      let text = ''
      const parts = 1 + Math.floor(next() * 40)
      for (let i = 0; i < parts; i++) {
        const roll = next()
        if (roll < 0.45) text += pick(FRAGMENTS)
        else if (roll < 0.8) text += fake(ALNUM, 1 + Math.floor(next() * 48))
        else text += String.fromCharCode(Math.floor(next() * 0x3000))
      }
      const once = redact(text)
      expect(typeof once).toBe('string')
      expect(redact(once)).toBe(once)
    }
  })

  it('cutRedacted is a prefix of redact, at most max long, and ends in no partial marker', () => {
    const next = prng(13)
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T
    for (let n = 0; n < 1000; n++) {
      let text = ''
      const parts = 1 + Math.floor(next() * 30)
      for (let i = 0; i < parts; i++) text += next() < 0.5 ? pick(FRAGMENTS) : fake2(ALNUM, 1 + Math.floor(next() * 48))
      const whole = redact(text)
      const max = Math.floor(next() * (whole.length + 10))
      const out = cutRedacted(text, max)
      expect(out.length).toBeLessThanOrEqual(max)
      expect(whole.startsWith(out)).toBe(true)
      // no marker of the redacted text straddles the cut
      for (const m of whole.matchAll(/\[REDACTED:[a-z-]+\]/g)) {
        expect(m.index < out.length && out.length < m.index + m[0].length).toBe(false)
      }
      // and, when cut, no `[REDACTED:` is left open at the end
      const open = out.lastIndexOf('[REDACTED:')
      if (out.length < whole.length && open !== -1) expect(out.indexOf(']', open)).not.toBe(-1)
    }
  })

  it('redactDeep never throws on random nested values', () => {
    const next = prng(11)
    const build = (depth: number): unknown => {
      const roll = next()
      if (depth > 6 || roll < 0.3) return fake(ALNUM + ' =:"', Math.floor(next() * 30))
      if (roll < 0.4) return Math.floor(next() * 100)
      if (roll < 0.45) return null
      if (roll < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => build(depth + 1))
      return Object.fromEntries(Array.from({ length: Math.floor(next() * 4) }, (_, i) => [`k${i}`, build(depth + 1)]))
    }
    for (let n = 0; n < 500; n++) {
      const value = build(0)
      expect(() => redactDeep(value)).not.toThrow()
    }
  })
})

// ---------------------------------------------------------------------------------------------------------------
// Real transcripts: how often does redact fire on text that (almost) never holds a secret?

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const CORPUS = path.join(process.env.BOOKMARK_CORPUS ?? path.resolve(REPO_ROOT, '..', 'shared', 'corpus'), 'claude')
const CORPUS_FILES = [
  'cc-2.1.219-windows-hook-nonblocking-error-be2220da.jsonl', // holds one test secret (OMP_SECRET=...)
  'cc-2.1.49-malformed-toolname-compact1-f7594e2b.jsonl', // crypto code: privateKey: Uint8Array
  'cc-2.0.76-compact1-task-todowrite-847ff7d2.jsonl', // go test output: --- PASS: TestX
  'cc-2.1.215-windows-api-error-image-mcp-94fab1a1.jsonl', // images, prompt config with "pwd": "osc99"
  'cc-1.0.98-inline-sidechains-multiedit-bashoutput-fe5e1c67.jsonl',
  'cc-2.1.63-small-540a8f92.jsonl',
]
const corpusPresent = existsSync(CORPUS) && CORPUS_FILES.every((file) => existsSync(path.join(CORPUS, file)))

function* stringsOf(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value
  else if (Array.isArray(value)) for (const item of value) yield* stringsOf(item)
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) yield* stringsOf(item)
}

describe.skipIf(!corpusPresent)(`redact on real transcripts (${CORPUS})`, () => {
  if (!corpusPresent) console.warn(`skipping corpus false-positive test: ${CORPUS} or one of its files is missing`)

  it('fires rarely, and only where a secret-shaped value was written', async () => {
    const byKind: Record<string, number> = {}
    const byFile: Record<string, number> = {}
    const hits: string[] = []
    let strings = 0
    let chars = 0
    for (const file of CORPUS_FILES) {
      byFile[file] = 0
      const lines = createInterface({ input: createReadStream(path.join(CORPUS, file), 'utf8'), crlfDelay: Infinity })
      for await (const line of lines) {
        if (line.trim() === '') continue
        for (const text of stringsOf(JSON.parse(line) as unknown)) {
          strings++
          chars += text.length
          const out = redact(text)
          if (out === text) continue
          for (const m of out.matchAll(/\[REDACTED:([a-z-]+)\]/g)) {
            byKind[m[1] ?? '?'] = (byKind[m[1] ?? '?'] ?? 0) + 1
            byFile[file] = (byFile[file] ?? 0) + 1
            hits.push(`${file}: …${out.slice(Math.max(0, m.index - 50), m.index + m[0].length + 20)}…`)
          }
        }
      }
    }
    const total = Object.values(byKind).reduce((a, b) => a + b, 0)
    console.log(
      `corpus false-positive check: ${total} redactions in ${strings} strings (${(chars / 1e6).toFixed(1)} MB)\n` +
        `by kind: ${JSON.stringify(byKind)}\nby file: ${JSON.stringify(byFile, null, 1)}\n${hits.join('\n')}`,
    )
    expect(total).toBeLessThanOrEqual(10)
    // the one secret-shaped value in these files is a test fixture the session wrote on purpose
    expect(hits.every((hit) => hit.includes('OMP_SECRET=[REDACTED:secret]'))).toBe(true)
    expect(byFile['cc-2.1.219-windows-hook-nonblocking-error-be2220da.jsonl']).toBeGreaterThan(0)
  })
})

describe('redact: the cheap tests that skip a rule', () => {
  it('needlesIn finds exactly the needles that `includes` finds (ASCII letters lower-cased for the any-case ones)', () => {
    const next = prng(29)
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T
    const words = NEEDLES.map((n) => n.text)
    const texts = [
      '', 'g', 'gh', 'sk-ant-', 'xsk-ant-x', 'é-é.éQ~', '\u{1F600}eyJ', 'a'.repeat(50), 'BeArEr', 'pAsSwOrD', '\u212Aey', 'İ',
      words.join(''), words.join(' '), [...words].reverse().join('é'), words.map((w) => w.toUpperCase()).join(' '),
    ]
    for (let n = 0; n < 3000; n++) {
      let text = ''
      const parts = Math.floor(next() * 12)
      for (let i = 0; i < parts; i++) {
        const roll = next()
        const word = pick(words)
        text += roll < 0.3 ? word : roll < 0.4 ? word.toUpperCase() : roll < 0.6 ? fake2(ALNUM, 1 + Math.floor(next() * 6)) : pick(['é', ' ', '\n', '→', '.', '-', '_', '\u212A'])
      }
      texts.push(text)
    }
    // The `i` flag without `u` folds ASCII letters only: the Kelvin sign is no `k` to it (toLowerCase would say it is).
    expect(/key/i.test('\u212Aey')).toBe(false)
    for (const text of texts) {
      const found = needlesIn(text)
      const lower = text.replace(/[A-Z]/g, (c) => c.toLowerCase())
      expect({ text, found: NEEDLES.filter((_, id) => found[id] === 1) }).toEqual({
        text,
        found: NEEDLES.filter((n) => (n.anyCase ? lower : text).includes(n.text)),
      })
    }
  })

  it('names every key ending that an assignment rule judges in SENSITIVE_WORDS', () => {
    const keys = ['password', 'PASSWD', 'passphrase', 'DB_PASS', 'pwd', 'client_secret', 'authToken', 'secret_key_base', 'API_KEY', 'access-key', 'privateKey', 'secret.key', 'authkey', 'signing_key', 'encryptionKey', 'masterKey', 'account_key', 'sasKey']
    for (const key of keys) {
      expect(SENSITIVE_WORDS.some((word) => key.toLowerCase().includes(word))).toBe(true)
      expect(redact(`${key}=Zq8vR2mX9kLp4Tw7`)).toBe(`${key}=${mark(key.toLowerCase().includes('pass') || key.toLowerCase().endsWith('pwd') ? 'password' : /token$/i.test(key) ? 'token' : /api.?key$/i.test(key) ? 'api-key' : 'secret')}`)
    }
  })

  it('still finds a token that starts with a class wherever it stands', () => {
    const mailgun = `${fake2(HEX, 32)}-${fake2(HEX, 8)}-${fake2(HEX, 8)}`
    for (const text of [mailgun, `x ${mailgun}`, `${mailgun}.`, `re-run a-b ${'ab12'.repeat(20)}-x ${mailgun}`, `${'é'.repeat(40)}${mailgun}`]) {
      expect(redact(text)).toContain(mark('mailgun-key'))
    }
    expect(redact(`${fake2(HEX, 31)}-${fake2(HEX, 8)}-${fake2(HEX, 8)}`)).not.toContain('[REDACTED')
  })
})

describe('mayRedactTo', () => {
  const PARTS = [
    'ghp_', 'sk-ant-api03-', 'xoxb-', 'AKIA', 'eyJ', '.eyJ', 'password', 'token', 'api_key', 'PASS', '=', ': ', '"', "'",
    ' ', '\t', '\n', '://', '@', 'https://u:', 'Bearer', 'Bearer ', 'Basic ', 'Authorization:', '--password ', '-u ',
    'login x password ', '?sig=', 'AccountKey=', '-----BEGIN RSA PRIVATE KEY-----', '[REDACTED:token]', '[REDACTED:', 'é',
  ]

  it('is true for every cut of a redacted text whose white space is folded', () => {
    const next = prng(41)
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T
    let redacted = 0
    for (let n = 0; n < 3000; n++) {
      let text = ''
      const parts = 1 + Math.floor(next() * 25)
      for (let i = 0; i < parts; i++) text += next() < 0.5 ? pick(PARTS) : fake2(ALNUM, 1 + Math.floor(next() * 40))
      text = text.replace(/\s+/g, ' ').trim()
      const whole = redact(text)
      if (whole !== text) redacted++
      for (const max of [0, 5, 20, 60, 160, Math.floor(next() * (whole.length + 5))]) {
        const stored = cutRedacted(text, max)
        expect({ text, max, ok: mayRedactTo(text, stored) }).toEqual({ text, max, ok: true })
      }
    }
    expect(redacted).toBeGreaterThan(500)
  })

  it('is false when the text differs before the first marker', () => {
    expect(mayRedactTo('git push origin main', 'git pull origin main')).toBe(false)
    expect(mayRedactTo('curl -H "Authorization: Bearer abc"', 'curl -H "Authorization: Bearer [REDACTED:bearer-token]"')).toBe(true)
    expect(mayRedactTo('wget -H "Authorization: Bearer abc"', 'curl -H "Authorization: Bearer [REDACTED:bearer-token]"')).toBe(false)
  })
})

describe('cutRedactedTwice', () => {
  it('gives the two cuts that cutRedacted gives, whole and shortened', () => {
    const next = prng(53)
    const parts = ['ghp_', 'password=', 'token: ', 'Bearer ', ' ', '\n', '[REDACTED:', 'é', '\u{1F600}', 'https://u:p@h/']
    for (let n = 0; n < 2000; n++) {
      let text = ''
      const count = 1 + Math.floor(next() * 30)
      for (let i = 0; i < count; i++) text += next() < 0.4 ? parts[Math.floor(next() * parts.length)]! : fake2(ALNUM, 1 + Math.floor(next() * 50))
      const max = Math.floor(next() * 600)
      const shorter = Math.floor(next() * 200)
      const whole = cutRedacted(text, max)
      expect({ text, max, shorter, got: cutRedactedTwice(text, max, shorter) }).toEqual({ text, max, shorter, got: [whole, cutRedacted(whole, shorter)] })
    }
  })
})
