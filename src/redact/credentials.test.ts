import { describe, expect, it } from 'vitest'
import { CREDENTIAL_ROWS } from '../../test/helpers/credential-rows.js'
import { ALNUM, DIGITS, UPPER, fake2 } from '../../test/helpers/fake-secrets.js'
import { redact } from './secrets.js'

describe('redact: the credential forms of issue 15 and the gitleaks-derived kinds', () => {
  it.each(CREDENTIAL_ROWS.map((r) => [`${r.kind}: ${r.name}`, r] as const))('%s', (_name, r) => {
    const out = redact(r.input)
    for (const secret of r.secrets) expect(out).not.toContain(secret)
    expect(out).toBe(r.expected)
    expect(redact(out)).toBe(out)
  })

  it('finds each form as JSON string text and in a Read tool gutter too (tab or arrow)', () => {
    for (const r of CREDENTIAL_ROWS) {
      const asJson = JSON.stringify(r.input).slice(1, -1)
      const gutter = (mark: string): string =>
        r.input
          .split('\n')
          .map((line, i) => `${String(i + 1).padStart(6)}${mark}${line}`)
          .join('\n')
      // The arrow gutter is in the private-key rules' own patterns (an escape there: the bundles are ASCII only).
      for (const text of [asJson, gutter('\t'), ...(r.kind === 'private-key' ? [gutter('→')] : [])]) {
        const out = redact(text)
        for (const secret of r.secrets) {
          if (secret.includes('\n') || secret.includes('"')) continue
          expect({ name: r.name, leaked: out.includes(secret) }).toEqual({ name: r.name, leaked: false })
        }
      }
    }
  })
})

describe('redact: the new rules leave code, prose and tool output alone', () => {
  const forty = `${fake2(UPPER, 4)}${fake2(ALNUM, 30)}${fake2(DIGITS, 6)}`
  const unchanged: Array<[string, string]> = [
    ['prose under a secret key', 'agent_options: { secret: \'not persisted\' }\npassword: "Enter your password here"'],
    ['a message under a token key', '{"token": "will be refreshed on the next request"}'],
    ['mkdir -p, ssh -p, mysql -p prompting', 'mkdir -p build/out && ssh -p 2222 host && mysql -u root -p prod'],
    ['short flags of other tools', 'gcc -pthread -o app main.c; ls -a; git commit -a -m wip; grep -w word file'],
    ['docker -p ports outside login', 'docker run -p 8080:80 nginx'],
    ['openssl pass from env or file', 'openssl rsa -passin env:KEY_PASS -passout file:pass.txt'],
    ['curl -u with a variable', 'curl -u "$USER:$TOKEN" https://x && curl -u admin: https://y'],
    ['az -u URL', 'az login --service-principal -u http://acme-ci --tenant t'],
    ['git SHA near the word key', `the key commit is ${'3f786850e387550fdab836ed7e6dc881de23001b'} on main`],
    ['40-character path near secret', 'see src/components/SecretPanel/SecretsView12.tsx for the secret view'],
    ['40 characters far from any keyword', `${'word '.repeat(60)}${forty}`],
    ['compiler output file:line:col', 'main.go:12:5: undefined: foo\nsrc/app.ts:10:3 error TS2304'],
    ['timestamps and ports', '2026-12-02T02:28:29Z listening on 127.0.0.1:8080:tcp'],
    ['cookie without a session', 'Cookie: theme=dark; lang=en-GB'],
    ['cookie attributes', 'Set-Cookie: sessionid=; Path=/; Max-Age=0'],
    ['auth words', '{"auth": "required", "oauth": "github", "author": "Ada Lovelace"}'],
    [
      'kubeconfig certificate data',
      `client-certificate-data: ${Buffer.from(`-----BEGIN CERTIFICATE-----\nMIIC${'Ab1'.repeat(20)}\n-----END CERTIFICATE-----`).toString('base64')}`,
    ],
    ['a CSV without secret columns', 'name,email,role\nada,ada@example.com,admin'],
    ['a CSV whose secret column is empty', 'User name,Password,Access key ID\ndeploy,,'],
    ['configure set of a plain setting', 'aws configure set region eu-west-1 && git config --global configure set x'],
    ['a Kubernetes Secret without data', 'kind: Secret\nmetadata:\n  name: db\ntype: Opaque'],
  ]

  it.each(unchanged)('%s', (_name, text) => {
    expect(redact(text)).toBe(text)
  })
})
