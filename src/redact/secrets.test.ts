import { createReadStream, existsSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { describe, expect, it } from 'vitest'
import { CORPUS as CORPUS_ROOT } from '../../test/helpers/corpus.js'
import { CREDENTIAL_ROWS } from '../../test/helpers/credential-rows.js'
import { awsId, awsSecret, B64, fake, ghp, mark, opaque, pemBody, ROWS, stripe } from '../../test/helpers/fake-secrets.js'
import { SECRET_KINDS, redact } from './secrets.js'

describe('redact: one row per kind, in prompts, shell commands, JSON and .env files', () => {
  it.each(ROWS.map((r) => [`${r.kind}: ${r.name}`, r] as const))('%s', (_name, r) => {
    const out = redact(r.input)
    for (const secret of r.secrets) expect(out).not.toContain(secret)
    expect(out).toBe(r.expected)
    expect(redact(out)).toBe(out)
  })

  it('has a row for every kind in SECRET_KINDS (here or in credentials.test.ts)', () => {
    const covered = new Set([...ROWS, ...CREDENTIAL_ROWS].map((r) => r.kind))
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
    const env = ['NODE_ENV=production', `export GITHUB_TOKEN=${ghp}`, `DB_PASSWORD="${opaque}"`, `STRIPE_SECRET=${stripe}`, 'PORT=3000'].join('\n')
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

// ---------------------------------------------------------------------------------------------------------------
// Real transcripts: how often does redact fire on text that (almost) never holds a secret?

const CORPUS = path.join(CORPUS_ROOT, 'claude')
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
