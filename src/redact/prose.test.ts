import { describe, expect, it } from 'vitest'
import { ALNUM, B64, DIGITS, HEX, LOWER, UPPER, fake2, mark } from '../../test/helpers/fake-secrets.js'
import { redact } from './secrets.js'

const tok = fake2(ALNUM, 32)
const tok16 = `${fake2(UPPER, 4)}${fake2(DIGITS, 4)}${fake2(LOWER, 4)}${fake2(ALNUM, 4)}`
const b64 = `${fake2(B64, 38)}==`
const hex40 = fake2(HEX, 40)
const password = `${fake2(UPPER, 3)}#${fake2(LOWER, 3)}${fake2(DIGITS, 2)}$${fake2(ALNUM, 4)}`
const awsId = `AKIA${fake2(UPPER + DIGITS, 16)}`
// the shape of AWS's documented key: slashes between letter-only segments, which the 40-character rule took for
// a path of words until now
const awsSlashed = `${fake2(UPPER, 1)}${fake2(LOWER, 2)}${fake2(UPPER, 2)}${fake2(LOWER, 1)}${fake2(UPPER, 4)}${fake2(LOWER, 1)}${fake2(UPPER, 2)}/K7${fake2(UPPER, 5)}/${fake2(LOWER, 1)}${fake2(UPPER, 1)}${fake2(LOWER, 1)}${fake2(UPPER, 1)}${fake2(LOWER, 2)}${fake2(UPPER, 4)}${fake2(LOWER, 2)}${fake2(UPPER, 6)}`

describe('redact: a secret a few words after a word that names one, in free text', () => {
  const rows: Array<[string, string, string]> = [
    // [form, input, expected]
    [
      'AWS key id and secret in a prompt (issue 18, item 11)',
      `my aws key ${awsId} and secret ${awsSlashed}, deploy it`,
      `my aws key ${mark('aws-access-key-id')} and secret ${mark('aws-secret-access-key')}, deploy it`,
    ],
    ['token is X', `my token is ${tok} for the staging box`, `my token is ${mark('token')} for the staging box`],
    ['token X', `use token ${tok16} to log in`, `use token ${mark('token')} to log in`],
    ['the api key is X', `the api key is ${tok}.`, `the api key is ${mark('api-key')}.`],
    ['apikey X', `apikey ${b64}`, `apikey ${mark('api-key')}`],
    ['API key → X', `API key → ${tok}`, `API key → ${mark('api-key')}`],
    ['access key X', `access key ${tok} please`, `access key ${mark('secret')} please`],
    ["client secret is 'X'", `the client secret is '${tok}'`, `the client secret is '${mark('secret')}'`],
    ['private key X', `private key ${b64}`, `private key ${mark('secret')}`],
    ['auth is X', `auth is ${tok}`, `auth is ${mark('token')}`],
    ['password with symbols', `the password is ${password} now`, `the password is ${mark('password')} now`],
    ['passwd "X"', `passwd "${tok}"`, `passwd "${mark('password')}"`],
    ['pwd X', `pwd ${tok16}`, `pwd ${mark('password')}`],
    ['password for the … is X', `password for the db is ${tok}`, `password for the db is ${mark('password')}`],
    ['token on the next line', `Here is the token:\n${tok}\nthanks`, `Here is the token:\n${mark('token')}\nthanks`],
    ['Markdown', `**API key:** \`${tok}\``, `**API key:** \`${mark('api-key')}\``],
    ['JSON string text', `{"text":"the secret for prod is ${tok}\\nthanks"}`, `{"text":"the secret for prod is ${mark('secret')}\\nthanks"}`],
    ['a hex token, said outright', `my github token is ${hex40}`, `my github token is ${mark('token')}`],
    ['GITHUB_TOKEN X (no operator)', `GITHUB_TOKEN ${tok}`, `GITHUB_TOKEN ${mark('token')}`],
  ]

  it.each(rows)('%s', (_name, input, expected) => {
    expect(redact(input)).toBe(expected)
    expect(redact(expected)).toBe(expected)
  })
})

describe('redact: what follows those words in code, tool output and prose stays', () => {
  const sha = 'a3f1c9e2b7d4058e6f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70'
  const unchanged: Array<[string, string]> = [
    ['commit hash after "commit"', `token refresh fixed in commit ${hex40}`],
    ['commit hash after a keyword, no "is"', `the secret key rotation landed as ${hex40}; the token ${hex40} reverted it`],
    ['git log line', `${hex40.slice(0, 7)} fix token: refresh before expiry`],
    ['restore text with a commit', `Last commit: ${hex40} (auth: retry on 401)`],
    ['sha256 in Cargo.lock', `[[package]]\nname = "secret-service"\nversion = "3.0.1"\nchecksum = "${sha}"`],
    ['sha256 in poetry.lock', `{file = "tokenizers-0.19.1.tar.gz", hash = "sha256:${sha}"}`],
    [
      'integrity in package-lock.json',
      '"node_modules/js-tokens": {"version": "4.0.0", "resolved": "https://registry.npmjs.org/js-tokens/-/js-tokens-4.0.0.tgz", "integrity": "sha512-RdJUflcE3cUzKiMqQgsCu06FPu9UdIJO0beYbPhHN4k6apgJtifcoCtT9bcxOpYBtpD2kCM6Sbzg4CausW/PKQ=="}',
    ],
    [
      'pnpm lock',
      '/js-tokens@4.0.0:\n    resolution: {integrity: sha512-RdJUflcE3cUzKiMqQgsCu06FPu9UdIJO0beYbPhHN4k6apgJtifcoCtT9bcxOpYBtpD2kCM6Sbzg4CausW/PKQ==}',
    ],
    ['go.sum', 'golang.org/x/oauth2 v0.15.0 h1:s8pnnxNVzjWyrvYdFUQq5llS1PX2zhPXmccZv99h7uQ='],
    ['file paths', 'token src/auth/tokenStore.ts\nthe secret is in ~/.config/app/credentials.json\nprivate key /home/me/.ssh/id_ed25519'],
    ['a 40-character path of words', 'secret src/components/SecretPanel/SecretsView12.tsx'],
    [
      'camelCase and snake_case names after the words',
      'token refreshAccessTokenIfExpired2\napi key ApiKeyValidationMiddleware\nsecret Uint8ClampedArray\ntoken REFRESH_TOKEN_EXPIRY_SECONDS_2',
    ],
    ['UUID session ids', 'session token 550e8400-e29b-41d4-a716-446655440000\nauth for session 7f0c1e5a-2b3d-4e6f-8a9b-0c1d2e3f4a5b'],
    ['Claude ids', 'the key is msg_01XFDUDYJgAACzvnptvVoYEL\nauth toolu_01A09q90qw90lq917835lq9'],
    ['the key is a name', 'the key is the name of the file, and the token is the unit of text'],
    ['base64 image after a word', `the auth screenshot: data:image/png;base64,iVBORw0KGgo${fake2(B64, 400)}`],
    ['a short password in prose', 'the password is hunter2'],
    ['token counts', 'tokens 12345678901234567 used; input tokens: 4096'],
    ['URL and version after the words', 'api key https://console.acme.dev/keys/new and token v1.2.3-beta.4'],
    // from the corpus: words glued to a name or a path
    ['GitHub Actions secret reference', 'azure_static_web_apps_api_token: ${{ secrets.AZURE_STATIC_WEB_APPS_API_TOKEN_ASHY_MEADOW_063E9BA03 }}'],
    ['a member named Pwd', 'same sinks: terminal.Pwd OSC7/51/99 and RenderItermFeature'],
    ['hyphenated words', 'https://token-plan-sgp.xiaomimimo.com/v1 and [claude-squad-codex-auth-friction-2026](raw/x.md)'],
    ['process.env', 'const secret = process.env.LANGFUSE_SECRET_KEY ?? ""'],
    ['type annotations', 'privateKey: Uint8Array; privateKey: CryptoKeyPairWithMetadata; const privateKey = authState.vaultKeypair.privateKey'],
    ['a Go struct tag', 'InputTokens int `json:"input_tokens"` CacheCreationInputTokens int `json:"cache_creation_input_tokens"`'],
  ]

  it.each(unchanged)('%s', (_name, text) => {
    expect(redact(text)).toBe(text)
  })
})
