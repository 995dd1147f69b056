/**
 * Fake but correctly shaped secrets and the table of one row per redaction kind, shared by the redactor's
 * tests in src/redact/. Seeded, so every run (and every test file) sees the same strings.
 */

// Fake but correctly shaped secrets, generated so that no secret-looking literal sits in the repository
// (secret scanners would flag this file otherwise). Seeded: every run sees the same strings.

export function prng(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const LOWER = 'abcdefghijklmnopqrstuvwxyz'
export const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
export const DIGITS = '0123456789'
export const ALNUM = LOWER + UPPER + DIGITS
export const URLSAFE = `${ALNUM}_-`
export const HEX = '0123456789abcdef'
export const B64 = `${ALNUM}+/`

let fakeSeed = 1
export function fake(alphabet: string, length: number): string {
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
export function fake2(alphabet: string, length: number): string {
  const next = prng(laterSeed++ * 7919)
  let out = ''
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)] ?? 'x'
  return out
}

export const mark = (kind: string): string => `[REDACTED:${kind}]`

/** Base64 lines of a key body, as in `pemBody`, drawn from `fake2`. */
export function pemLines(lines: number, width = 64): string[] {
  const out: string[] = []
  for (let i = 0; i < lines; i++) out.push(fake2(B64, width))
  out.push(`${fake2(B64, 20)}==`)
  return out
}

export function pemBody(lines: number, width = 64): string {
  const out: string[] = []
  for (let i = 0; i < lines; i++) out.push(fake(B64, width))
  out.push(`${fake(B64, 20)}==`)
  return out.join('\n')
}

export interface Row {
  kind: string
  name: string
  input: string
  /** Every string that must be gone from the output. */
  secrets: string[]
  /** Defaults to `input` with each secret replaced by the kind's marker. */
  expected?: string
}

export function row(kind: string, name: string, build: (s: string) => string, secret: string, expected?: string): Row {
  const input = build(secret)
  return { kind, name, input, secrets: [secret], expected: expected ?? input.split(secret).join(mark(kind)) }
}

// ---------------------------------------------------------------------------------------------------------------

export const awsId = `AKIA${fake(UPPER + DIGITS, 16)}`
export const awsTempId = `ASIA${fake(UPPER + DIGITS, 16)}`
export const awsSecret = `${fake(B64, 18)}/${fake(B64, 21)}`
export const ghp = `ghp_${fake(ALNUM, 36)}`
export const githubPat = `github_pat_${fake(ALNUM, 22)}_${fake(ALNUM, 59)}`
export const openaiLegacy = `sk-${fake(ALNUM, 20)}T3BlbkFJ${fake(ALNUM, 20)}`
export const openaiProject = `sk-proj-${fake(URLSAFE, 156)}`
export const anthropic = `sk-ant-api03-${fake(URLSAFE, 93)}AA`
export const anthropicAdmin = `sk-ant-admin01-${fake(URLSAFE, 93)}AA`
export const anthropicOauth = `sk-ant-oat01-${fake(URLSAFE, 93)}AA`
export const slackBot = `xoxb-${fake(DIGITS, 12)}-${fake(DIGITS, 13)}-${fake(ALNUM, 24)}`
export const slackHookPath = `T${fake(UPPER + DIGITS, 8)}/B${fake(UPPER + DIGITS, 10)}/${fake(ALNUM, 24)}`
export const stripe = `sk_live_${fake(ALNUM, 99)}`
export const googleKey = `AIza${fake(URLSAFE, 35)}`
export const jwt = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ${fake(URLSAFE, 60)}.${fake(URLSAFE, 43)}`
export const azureKey = `${fake(B64, 86)}==`
export const basicCredentials = Buffer.from(`deploy:${fake(ALNUM, 16)}`).toString('base64')
export const opaque = fake(ALNUM, 40)

export const ROWS: Row[] = [
  // private keys
  row(
    'private-key',
    'RSA block in a prompt',
    (s) => `here is my key, why does ssh reject it?\n${s}\nthanks`,
    `-----BEGIN RSA PRIVATE KEY-----\n${pemBody(6)}\n-----END RSA PRIVATE KEY-----`,
  ),
  row('private-key', 'EC block from cat', (s) => `$ cat key.pem\n${s}\n$ `, `-----BEGIN EC PRIVATE KEY-----\n${pemBody(2)}\n-----END EC PRIVATE KEY-----`),
  row('private-key', 'OPENSSH block', (s) => `Output:\n${s}\n`, `-----BEGIN OPENSSH PRIVATE KEY-----\n${pemBody(7, 70)}\n-----END OPENSSH PRIVATE KEY-----`),
  row('private-key', 'PKCS#8 ENCRYPTED block', (s) => `${s}\n`, `-----BEGIN ENCRYPTED PRIVATE KEY-----\n${pemBody(5)}\n-----END ENCRYPTED PRIVATE KEY-----`),
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
    const numbered = ['-----BEGIN PGP PRIVATE KEY BLOCK-----', 'Version: GnuPG v2', '', ...lines, '-----END PGP PRIVATE KEY BLOCK-----'].map(
      (line, i) => `${String(i + 1).padStart(6)}\t${line}`,
    )
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
  row('discord-webhook', 'webhook URL', (s) => `WEBHOOK=https://discord.com/api/webhooks/${fake(DIGITS, 18)}/${s}`, fake(URLSAFE, 68)),
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
  row(
    'google-oauth-secret',
    'client secret JSON',
    (s) => `{"web":{"client_id":"123-abc.apps.googleusercontent.com","client_secret":"${s}"}}`,
    `GOCSPX-${fake(URLSAFE, 28)}`,
  ),
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
  row('discord-token', 'bot token', (s) => `client.run('${s}')`, `MTE${fake(DIGITS, 4)}${fake(ALNUM, 19)}.${fake(URLSAFE, 6)}.${fake(URLSAFE, 38)}`),
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
  row('dynatrace-token', 'API token', (s) => `DT=${s}`, `dt0c01.${fake2(UPPER + DIGITS, 24)}.${fake2(UPPER + DIGITS, 64)}`),
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
  row('mapbox-token', 'secret token', (s) => `mapbox.access = ${s}`, `sk.eyJ1IjoiYWNtZSIsImEiOi${fake2(ALNUM, 20)}In0.${fake2(URLSAFE, 22)}`),

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
  row('url-signature', 'S3 presigned URL', (s) => `https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=${s}&x=1`, fake(HEX, 64)),
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
  row('secret', 'escaped .env line quoted in code', (s) => `ENV_SECRET_KEY = "export DJANGO_SECRET_KEY=\\"${s}\\""`, fake2(ALNUM, 50)),
  row('password', 'assignment inside the value of a key that names no secret', (s) => `bypass: "db_password=${s}"`, `h${fake2(ALNUM, 11)}`),
  // shaped like a type name to the counts (a capital first, more lowercase than capitals, two digits), not in words
  row(
    'password',
    'random mixed-case value after password:',
    (s) => `password: ${s}`,
    [
      fake2(UPPER, 1),
      fake2(LOWER, 2),
      fake2(UPPER, 1),
      fake2(LOWER, 1),
      fake2(UPPER, 1),
      fake2(LOWER, 1),
      fake2(UPPER, 3),
      fake2(LOWER, 4),
      fake2(DIGITS, 1),
      fake2(LOWER, 2),
      fake2(UPPER, 2),
      fake2(LOWER, 1),
      fake2(DIGITS, 1),
      fake2(LOWER, 1),
      fake2(UPPER, 1),
      fake2(LOWER, 2),
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
