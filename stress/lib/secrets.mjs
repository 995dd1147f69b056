/**
 * Planted secrets: fake but correctly shaped credentials of many kinds, each with the text it appears in
 * (`ctx`: a bare token, an env assignment, a URL, a header, a PEM block...) and the part that must never be
 * written (`secret`). Bodies are random from a seeded PRNG, so no two runs' values collide with real text.
 *
 * `documented: true` marks the formats docs/STORE.md names (AWS, GitHub, GitLab, OpenAI/Anthropic, Slack, Stripe,
 * Google, "many other key formats", private keys, JWTs, Bearer tokens, credentials in URLs, password=
 * assignments, .env values); `documented: ISSUE15` marks the credential forms of issue 15; the others are
 * common formats scanners such as gitleaks know.
 */

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const UPNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
const HEX = '0123456789abcdef'
const B64 = `${ALNUM}+/`
const URLSAFE = `${ALNUM}-_`
const BECH = 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L'

/** `n` characters of `set`, never 6 of the same in a row (the redactor treats those as placeholders). */
function chars(r, n, set) {
  let s = ''
  while (s.length < n) {
    const ch = set[r.int(set.length)]
    if (s.length >= 2 && s[s.length - 1] === ch && s[s.length - 2] === ch) continue
    s += ch
  }
  return s
}

const b64url = (s) => Buffer.from(s).toString('base64url')
const b64 = (s) => Buffer.from(s).toString('base64')
const LOWER = 'abcdefghijklmnopqrstuvwxyz'
const DIGITS = '0123456789'
/** `n` random lower-case words of 6 to 9 letters: a passphrase. */
const words = (r, n) => Array.from({ length: n }, () => chars(r, 6 + r.int(4), LOWER)).join(' ')
/** 40 base64 characters with all three classes and no run of 7 lower-case letters: an AWS secret access key. */
const awsSecret = (r) =>
  `${chars(r, 2, UPNUM.slice(0, 26))}${chars(r, 2, DIGITS)}${chars(r, 3, LOWER)}${chars(r, 33, 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789+/abcdefghijkmnopqrstuvwxyz'.replace(/[a-z]{0}/, ''))}`
/** The credential forms of issue 15 (`documented` is this marker for them). */
export const ISSUE15 = 'issue-15'
const pemBody = (r, lines) => Array.from({ length: lines }, () => chars(r, 64, B64)).join('\n')

/** Each maker returns `{ctx, secret}`: the text to plant, and the part of it that is the secret. */
// One kind a line, as a table: formatted, it would grow from 139 lines to 1,054.
// prettier-ignore
export const KINDS = [
  // cloud keys
  ['aws-access-key-id', true, (r) => { const v = `AKIA${chars(r, 16, UPNUM)}`; return { ctx: v, secret: v } }],
  ['aws-session-key-id', true, (r) => { const v = `ASIA${chars(r, 16, UPNUM)}`; return { ctx: v, secret: v } }],
  ['aws-secret-access-key', true, (r) => { const v = chars(r, 40, B64); return { ctx: `aws_secret_access_key = ${v}`, secret: v } }],
  ['google-api-key', true, (r) => { const v = `AIza${chars(r, 35, URLSAFE)}`; return { ctx: v, secret: v } }],
  ['google-oauth-client-secret', true, (r) => { const v = `GOCSPX-${chars(r, 28, URLSAFE)}`; return { ctx: v, secret: v } }],
  ['google-oauth-access-token', true, (r) => { const v = `ya29.${chars(r, 80, URLSAFE)}`; return { ctx: v, secret: v } }],
  ['gcp-service-account-key', true, (r) => { const b = pemBody(r, 8); return { ctx: `{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n${b.replace(/\n/g, '\\n')}\\n-----END PRIVATE KEY-----\\n"}`, secret: b } }],
  ['azure-storage-connection-string', true, (r) => { const v = `${chars(r, 86, B64)}==`; return { ctx: `DefaultEndpointsProtocol=https;AccountName=acmeprod;AccountKey=${v};EndpointSuffix=core.windows.net`, secret: v } }],
  ['azure-sas-url', true, (r) => { const v = `${chars(r, 43, ALNUM)}%3D`; return { ctx: `https://acmeprod.blob.core.windows.net/backups/db.tar?sv=2022-11-02&ss=b&srt=o&sp=r&se=2027-01-01&sig=${v}`, secret: v } }],
  ['s3-presigned-url', true, (r) => { const v = chars(r, 64, HEX); return { ctx: `https://acme.s3.amazonaws.com/report.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20261128T100000Z&X-Amz-Expires=3600&X-Amz-Signature=${v}`, secret: v } }],
  ['digitalocean-token', true, (r) => { const v = `dop_v1_${chars(r, 64, HEX)}`; return { ctx: v, secret: v } }],
  ['heroku-api-key', true, (r) => { const v = `HRKU-AA${chars(r, 58, URLSAFE)}`; return { ctx: v, secret: v } }],
  ['databricks-token', true, (r) => { const v = `dapi${chars(r, 32, HEX)}`; return { ctx: v, secret: v } }],
  ['supabase-token', true, (r) => { const v = `sbp_${chars(r, 40, HEX)}`; return { ctx: v, secret: v } }],
  ['vault-token', true, (r) => { const v = `hvs.${chars(r, 90, URLSAFE)}`; return { ctx: v, secret: v } }],
  ['doppler-token', true, (r) => { const v = `dp.st.prd.${chars(r, 40, ALNUM)}`; return { ctx: v, secret: v } }],
  // code hosts and package registries
  ['github-pat-classic', true, (r) => { const v = `ghp_${chars(r, 36, ALNUM)}`; return { ctx: v, secret: v } }],
  ['github-oauth-token', true, (r) => { const v = `gho_${chars(r, 36, ALNUM)}`; return { ctx: v, secret: v } }],
  ['github-app-token', true, (r) => { const v = `ghs_${chars(r, 36, ALNUM)}`; return { ctx: v, secret: v } }],
  ['github-fine-grained-pat', true, (r) => { const v = `github_pat_${chars(r, 22, ALNUM)}_${chars(r, 59, ALNUM)}`; return { ctx: v, secret: v } }],
  ['gitlab-pat', true, (r) => { const v = `glpat-${chars(r, 20, URLSAFE)}`; return { ctx: v, secret: v } }],
  ['npm-token', true, (r) => { const v = `npm_${chars(r, 36, ALNUM)}`; return { ctx: v, secret: v } }],
  ['npmrc-auth-token', true, (r) => { const v = `${chars(r, 8, HEX)}-${chars(r, 4, HEX)}-4${chars(r, 3, HEX)}-a${chars(r, 3, HEX)}-${chars(r, 12, HEX)}`; return { ctx: `//registry.npmjs.org/:_authToken=${v}`, secret: v } }],
  ['pypi-token', true, (r) => { const v = `pypi-AgEIcHlwaS5vcmc${chars(r, 64, URLSAFE)}`; return { ctx: v, secret: v } }],
  // AI providers
  ['openai-project-key', true, (r) => { const v = `sk-proj-${chars(r, 64, URLSAFE)}`; return { ctx: v, secret: v } }],
  ['openai-legacy-key', true, (r) => { const v = `sk-${chars(r, 20, ALNUM)}T3BlbkFJ${chars(r, 20, ALNUM)}`; return { ctx: v, secret: v } }],
  ['anthropic-key', true, (r) => { const v = `sk-ant-api03-${chars(r, 93, URLSAFE)}AA`; return { ctx: v, secret: v } }],
  ['groq-key', true, (r) => { const v = `gsk_${chars(r, 52, ALNUM)}`; return { ctx: v, secret: v } }],
  ['xai-key', true, (r) => { const v = `xai-${chars(r, 80, ALNUM)}`; return { ctx: v, secret: v } }],
  ['perplexity-key', true, (r) => { const v = `pplx-${chars(r, 48, ALNUM)}`; return { ctx: v, secret: v } }],
  ['replicate-token', true, (r) => { const v = `r8_${chars(r, 37, ALNUM)}`; return { ctx: v, secret: v } }],
  ['huggingface-token', true, (r) => { const v = `hf_${chars(r, 34, ALNUM)}`; return { ctx: v, secret: v } }],
  // chat, mail, payments, SaaS
  ['slack-bot-token', true, (r) => { const v = `xoxb-${chars(r, 12, '0123456789')}-${chars(r, 13, '0123456789')}-${chars(r, 24, ALNUM)}`; return { ctx: v, secret: v } }],
  ['slack-webhook-url', true, (r) => { const v = chars(r, 24, ALNUM); return { ctx: `https://hooks.slack.com/services/T0${chars(r, 8, UPNUM)}/B0${chars(r, 8, UPNUM)}/${v}`, secret: v } }],
  ['discord-bot-token', true, (r) => { const v = `MT${chars(r, 22, ALNUM)}5.${chars(r, 6, URLSAFE)}.${chars(r, 38, URLSAFE)}`; return { ctx: v, secret: v } }],
  ['discord-webhook-url', true, (r) => { const v = chars(r, 68, URLSAFE); return { ctx: `https://discord.com/api/webhooks/${chars(r, 18, '0123456789')}/${v}`, secret: v } }],
  ['telegram-bot-token', true, (r) => { const v = `${1 + r.int(9)}${chars(r, 9, '0123456789')}:AA${chars(r, 33, URLSAFE)}`; return { ctx: v, secret: v } }],
  ['stripe-secret-key', true, (r) => { const v = `sk_live_${chars(r, 99, ALNUM)}`; return { ctx: v, secret: v } }],
  ['stripe-restricted-key', true, (r) => { const v = `rk_live_${chars(r, 24, ALNUM)}`; return { ctx: v, secret: v } }],
  ['stripe-webhook-secret', true, (r) => { const v = `whsec_${chars(r, 32, ALNUM)}`; return { ctx: v, secret: v } }],
  ['sendgrid-key', true, (r) => { const v = `SG.${chars(r, 22, URLSAFE)}.${chars(r, 43, URLSAFE)}`; return { ctx: v, secret: v } }],
  ['twilio-api-key', true, (r) => { const v = `SK${chars(r, 32, HEX)}`; return { ctx: v, secret: v } }],
  ['mailgun-key', true, (r) => { const v = `key-${chars(r, 32, HEX)}`; return { ctx: v, secret: v } }],
  ['shopify-access-token', true, (r) => { const v = `shpat_${chars(r, 32, HEX)}`; return { ctx: v, secret: v } }],
  ['linear-api-key', true, (r) => { const v = `lin_api_${chars(r, 40, ALNUM)}`; return { ctx: v, secret: v } }],
  ['postman-api-key', true, (r) => { const v = `PMAK-${chars(r, 24, HEX)}-${chars(r, 34, HEX)}`; return { ctx: v, secret: v } }],
  ['grafana-service-account-token', true, (r) => { const v = `glsa_${chars(r, 32, ALNUM)}_${chars(r, 8, HEX)}`; return { ctx: v, secret: v } }],
  ['sentry-token', true, (r) => { const v = `sntrys_${chars(r, 64, ALNUM)}`; return { ctx: v, secret: v } }],
  ['newrelic-user-key', true, (r) => { const v = `NRAK-${chars(r, 27, UPNUM)}`; return { ctx: v, secret: v } }],
  ['notion-token', true, (r) => { const v = `ntn_${chars(r, 46, ALNUM)}`; return { ctx: v, secret: v } }],
  // private keys
  ['rsa-private-key', true, (r) => { const b = pemBody(r, 10); return { ctx: `-----BEGIN RSA PRIVATE KEY-----\n${b}\n-----END RSA PRIVATE KEY-----`, secret: b } }],
  ['openssh-private-key', true, (r) => { const b = `b3BlbnNzaC1rZXktdjEAAAAA${chars(r, 40, B64)}\n${pemBody(r, 6)}`; return { ctx: `-----BEGIN OPENSSH PRIVATE KEY-----\n${b}\n-----END OPENSSH PRIVATE KEY-----`, secret: b } }],
  ['ec-private-key', true, (r) => { const b = pemBody(r, 3); return { ctx: `-----BEGIN EC PRIVATE KEY-----\n${b}\n-----END EC PRIVATE KEY-----`, secret: b } }],
  ['pgp-private-key-block', true, (r) => { const b = `lQOYBF${chars(r, 58, B64)}\n${pemBody(r, 6)}`; return { ctx: `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${b}\n=${chars(r, 4, B64)}\n-----END PGP PRIVATE KEY BLOCK-----`, secret: b } }],
  ['age-secret-key', true, (r) => { const v = `AGE-SECRET-KEY-1${chars(r, 58, BECH)}`; return { ctx: v, secret: v } }],
  // tokens in context
  ['jwt', true, (r) => { const v = `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(JSON.stringify({ sub: chars(r, 12, ALNUM), name: 'stress', iat: 1764000000 + r.int(1e6) }))}.${chars(r, 43, URLSAFE)}`; return { ctx: v, secret: v.split('.').slice(1).join('.') } }],
  ['bearer-header', true, (r) => { const v = chars(r, 40, URLSAFE); return { ctx: `Authorization: Bearer ${v}`, secret: v } }],
  ['basic-auth-header', true, (r) => { const v = Buffer.from(`deploy:${chars(r, 20, ALNUM)}`).toString('base64'); return { ctx: `Authorization: Basic ${v}`, secret: v } }],
  ['password-in-postgres-url', true, (r) => { const v = chars(r, 20, ALNUM); return { ctx: `postgres://app:${v}@db.internal:5432/prod`, secret: v } }],
  ['password-in-https-url', true, (r) => { const v = chars(r, 18, ALNUM); return { ctx: `https://deploy:${v}@git.example.org/acme/app.git`, secret: v } }],
  ['env-db-password', true, (r) => { const v = chars(r, 22, ALNUM); return { ctx: `DB_PASSWORD=${v}`, secret: v } }],
  ['env-api-key', true, (r) => { const v = chars(r, 32, HEX); return { ctx: `OPENWEATHER_API_KEY=${v}`, secret: v } }],
  ['env-secret-key', true, (r) => { const v = chars(r, 50, ALNUM); return { ctx: `export DJANGO_SECRET_KEY="${v}"`, secret: v } }],
  ['json-client-secret', true, (r) => { const v = chars(r, 40, ALNUM); return { ctx: `{"client_id": "acme-web", "client_secret": "${v}"}`, secret: v } }],
  ['yaml-password', true, (r) => { const v = chars(r, 24, ALNUM); return { ctx: `password: ${v}`, secret: v } }],
  ['cli-password-flag', true, (r) => { const v = chars(r, 16, ALNUM); return { ctx: `mysql -h db.internal -u root --password ${v} prod`, secret: v } }],
  ['netrc-password', true, (r) => { const v = chars(r, 20, ALNUM); return { ctx: `machine api.example.com login deploy password ${v}`, secret: v } }],
  ['curl-user-password', true, (r) => { const v = chars(r, 18, ALNUM); return { ctx: `curl -u admin:${v} https://ci.example.com/api`, secret: v } }],
  // common formats beyond the list in docs/STORE.md
  ['planetscale-token', false, (r) => { const v = `pscale_tkn_${chars(r, 43, URLSAFE)}`; return { ctx: v, secret: v } }],
  ['pulumi-token', false, (r) => { const v = `pul-${chars(r, 40, HEX)}`; return { ctx: v, secret: v } }],
  ['flyio-token', false, (r) => { const v = `fo1_${chars(r, 43, URLSAFE)}`; return { ctx: v, secret: v } }],
  ['atlassian-api-token', false, (r) => { const v = `ATATT3xFfGF0${chars(r, 180, URLSAFE)}=${chars(r, 8, UPNUM)}`; return { ctx: v, secret: v } }],
  ['docker-hub-pat', false, (r) => { const v = `dckr_pat_${chars(r, 27, URLSAFE)}`; return { ctx: v, secret: v } }],
  ['square-oauth-secret', false, (r) => { const v = `sq0csp-${chars(r, 43, URLSAFE)}`; return { ctx: v, secret: v } }],
  ['terraform-cloud-token', false, (r) => { const v = `${chars(r, 14, ALNUM)}.atlasv1.${chars(r, 67, URLSAFE)}`; return { ctx: v, secret: v } }],
  ['dynatrace-token', false, (r) => { const v = `dt0c01.${chars(r, 24, UPNUM)}.${chars(r, 64, UPNUM)}`; return { ctx: v, secret: v } }],
  ['sourcegraph-token', false, (r) => { const v = `sgp_${chars(r, 40, HEX)}`; return { ctx: v, secret: v } }],
  ['contentful-pat', false, (r) => { const v = `CFPAT-${chars(r, 43, URLSAFE)}`; return { ctx: v, secret: v } }],
  ['azure-ad-client-secret', false, (r) => { const v = `${chars(r, 3, ALNUM)}8Q~${chars(r, 34, `${ALNUM}_~.-`)}`; return { ctx: v, secret: v } }],
  ['mapbox-secret-token', false, (r) => { const v = `sk.eyJ1Ijoi${chars(r, 50, URLSAFE)}.${chars(r, 22, URLSAFE)}`; return { ctx: v, secret: v } }],
  // issue 15: credential forms an adversarial review found stored and re-injected unredacted
  ['env-quoted-passphrase', ISSUE15, (r) => { const v = words(r, 4); return { ctx: `PASSWORD="${v}"`, secret: v } }],
  ['json-secret-words', ISSUE15, (r) => { const v = words(r, 2); return { ctx: `{"secret": "${v}"}`, secret: v } }],
  ['yaml-api-token-letters', ISSUE15, (r) => { const v = chars(r, 12, LOWER); return { ctx: `api_token: '${v}'`, secret: v } }],
  ['kubeconfig-client-key-data', ISSUE15, (r) => { const v = b64(`-----BEGIN RSA PRIVATE KEY-----\n${pemBody(r, 2)}\n-----END RSA PRIVATE KEY-----\n`); return { ctx: `users:\n- name: admin\n  user:\n    client-key-data: ${v}`, secret: v } }],
  ['putty-ppk-private-lines', ISSUE15, (r) => { const v = pemBody(r, 3); return { ctx: `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy\nPublic-Lines: 1\nAAAAC3NzaC1lZDI1NTE5AAAAI\nPrivate-Lines: 3\n${v}\nPrivate-MAC: ${chars(r, 64, HEX)}`, secret: v } }],
  ['putty-ppk-mac', ISSUE15, (r) => { const v = chars(r, 64, HEX); return { ctx: `Private-Lines: 1\n${chars(r, 64, B64)}\nPrivate-MAC: ${v}`, secret: v } }],
  ['telegram-bot-api-url', ISSUE15, (r) => { const v = `${1 + r.int(9)}${chars(r, 8, DIGITS)}:AA${chars(r, 33, URLSAFE)}`; return { ctx: `https://api.telegram.org/bot${v}/sendMessage`, secret: v } }],
  ['aws-configure-set', ISSUE15, (r) => { const v = awsSecret(r); return { ctx: `aws configure set aws_secret_access_key ${v}`, secret: v } }],
  ['aws-configure-prompt', ISSUE15, (r) => { const v = awsSecret(r); return { ctx: `AWS Secret Access Key [None]: ${v}`, secret: v } }],
  ['aws-credentials-csv', ISSUE15, (r) => { const v = awsSecret(r); return { ctx: `User name,Password,Access key ID,Secret access key,Console login link\ndeploy,${chars(r, 12, ALNUM)},AKIA${chars(r, 16, UPNUM)},${v},https://acme.signin.aws.amazon.com/console`, secret: v } }],
  ['aws-secret-in-prose', ISSUE15, (r) => { const v = awsSecret(r); return { ctx: `the aws secret key is ${v} for now`, secret: v } }],
  ['mysql-p-attached', ISSUE15, (r) => { const v = chars(r, 16, ALNUM); return { ctx: `mysql -h db.internal -u root -p${v} prod`, secret: v } }],
  ['mysql-password-equals', ISSUE15, (r) => { const v = chars(r, 16, ALNUM); return { ctx: `mysql -u root --password=${v} prod`, secret: v } }],
  ['docker-login-p', ISSUE15, (r) => { const v = chars(r, 16, ALNUM); return { ctx: `docker login -u deploy -p ${v} registry.example.com`, secret: v } }],
  ['redis-cli-a', ISSUE15, (r) => { const v = chars(r, 16, ALNUM); return { ctx: `redis-cli -h cache.internal -a ${v} ping`, secret: v } }],
  ['sshpass-p', ISSUE15, (r) => { const v = chars(r, 16, ALNUM); return { ctx: `sshpass -p ${v} ssh deploy@host`, secret: v } }],
  ['az-login-p', ISSUE15, (r) => { const v = chars(r, 16, ALNUM); return { ctx: `az login --service-principal -u http://acme-ci -p ${v} --tenant acme`, secret: v } }],
  ['openssl-passin', ISSUE15, (r) => { const v = chars(r, 16, ALNUM); return { ctx: `openssl rsa -in key.pem -passin pass:${v} -out plain.pem`, secret: v } }],
  ['openssl-passout', ISSUE15, (r) => { const v = chars(r, 16, ALNUM); return { ctx: `openssl genrsa -aes256 -passout pass:${v} 4096`, secret: v } }],
  ['curl-u-attached', ISSUE15, (r) => { const v = chars(r, 16, ALNUM); return { ctx: `curl -uadmin:${v} https://ci.example.com/api`, secret: v } }],
  ['docker-config-auth', ISSUE15, (r) => { const v = b64(`deploy:${chars(r, 16, ALNUM)}`); return { ctx: `{"auths": {"registry.example.com": {"auth": "${v}"}}}`, secret: v } }],
  ['npmrc-auth', ISSUE15, (r) => { const v = b64(`deploy:${chars(r, 16, ALNUM)}`); return { ctx: `_auth=${v}`, secret: v } }],
  ['npmrc-password', ISSUE15, (r) => { const v = b64(chars(r, 16, ALNUM)); return { ctx: `//npm.example.com/:_password=${v}`, secret: v } }],
  ['datadog-application-key', ISSUE15, (r) => { const v = chars(r, 40, HEX); return { ctx: `DD-APPLICATION-KEY: ${v}`, secret: v } }],
  ['datadog-api-key', ISSUE15, (r) => { const v = chars(r, 32, HEX); return { ctx: `DD-API-KEY: ${v}`, secret: v } }],
  ['s3-presigned-credential', ISSUE15, (r) => { const v = `${chars(r, 16, UPNUM)}%2F20261202%2Fus-east-1%2Fs3%2Faws4_request`; return { ctx: `https://acme.s3.amazonaws.com/r.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${v}&X-Amz-Expires=3600`, secret: v.slice(0, 16) } }],
  ['gcs-signed-url', ISSUE15, (r) => { const v = chars(r, 64, HEX); return { ctx: `https://storage.googleapis.com/acme/r.pdf?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature=${v}`, secret: v } }],
  ['session-cookie', ISSUE15, (r) => { const v = chars(r, 32, ALNUM); return { ctx: `Cookie: theme=dark; sessionid=${v}`, secret: v } }],
  ['set-cookie-session', ISSUE15, (r) => { const v = chars(r, 32, URLSAFE); return { ctx: `Set-Cookie: connect.sid=s%3A${v}; Path=/; HttpOnly`, secret: v } }],
  ['pgpass-line', ISSUE15, (r) => { const v = chars(r, 16, ALNUM); return { ctx: `db.internal:5432:prod:app:${v}`, secret: v } }],
  ['gcp-private-key-id', ISSUE15, (r) => { const v = chars(r, 40, HEX); return { ctx: `{"type": "service_account", "private_key_id": "${v}"}`, secret: v } }],
  ['kubernetes-secret-data', ISSUE15, (r) => { const v = b64(chars(r, 24, ALNUM)); return { ctx: `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  DB_PASSWORD: ${v}`, secret: v } }],
  ['nuget-cleartext-password', ISSUE15, (r) => { const v = chars(r, 16, ALNUM); return { ctx: `<add key="ClearTextPassword" value="${v}" />`, secret: v } }],
  // more gitleaks formats (its default rule set, checked family by family in docs/REDACTION.md)
  ['onepassword-secret-key', false, (r) => { const v = `A3-${chars(r, 6, UPNUM)}-${chars(r, 11, UPNUM)}-${chars(r, 5, UPNUM)}-${chars(r, 5, UPNUM)}-${chars(r, 5, UPNUM)}`; return { ctx: v, secret: v } }],
  ['alibaba-access-key-id', false, (r) => { const v = `LTAI${chars(r, 20, ALNUM)}`; return { ctx: v, secret: v } }],
  ['artifactory-api-key', false, (r) => { const v = `AKCp${chars(r, 69, ALNUM)}`; return { ctx: v, secret: v } }],
  ['clojars-token', false, (r) => { const v = `CLOJARS_${chars(r, 60, LOWER + DIGITS)}`; return { ctx: v, secret: v } }],
  ['easypost-key', false, (r) => { const v = `EZAK${chars(r, 54, ALNUM)}`; return { ctx: v, secret: v } }],
  ['facebook-page-token', false, (r) => { const v = `EAAC${chars(r, 120, ALNUM)}`; return { ctx: v, secret: v } }],
  ['infracost-token', false, (r) => { const v = `ico-${chars(r, 32, ALNUM)}`; return { ctx: v, secret: v } }],
  ['mailchimp-key', false, (r) => { const v = `${chars(r, 32, HEX)}-us14`; return { ctx: v, secret: v } }],
  ['openshift-token', false, (r) => { const v = `sha256~${chars(r, 43, URLSAFE)}`; return { ctx: v, secret: v } }],
  ['prefect-token', false, (r) => { const v = `pnu_${chars(r, 36, ALNUM)}`; return { ctx: v, secret: v } }],
  ['rubygems-token', false, (r) => { const v = `rubygems_${chars(r, 48, HEX)}`; return { ctx: v, secret: v } }],
  ['sendinblue-key', false, (r) => { const v = `xkeysib-${chars(r, 64, HEX)}-${chars(r, 16, ALNUM)}`; return { ctx: v, secret: v } }],
  ['shippo-token', false, (r) => { const v = `shippo_live_${chars(r, 40, HEX)}`; return { ctx: v, secret: v } }],
  ['sonarqube-token', false, (r) => { const v = `squ_${chars(r, 40, HEX)}`; return { ctx: v, secret: v } }],
  ['typeform-token', false, (r) => { const v = `tfp_${chars(r, 59, URLSAFE)}`; return { ctx: v, secret: v } }],
  ['teams-webhook', false, (r) => { const v = `${chars(r, 8, HEX)}-${chars(r, 4, HEX)}-${chars(r, 4, HEX)}-${chars(r, 4, HEX)}-${chars(r, 12, HEX)}@${chars(r, 8, HEX)}/IncomingWebhook/${chars(r, 32, HEX)}`; return { ctx: `https://acme.webhook.office.com/webhookb2/${v}`, secret: v } }],
]

/** Every kind with its value for one seed: `[{kind, documented, ctx, secret, probes}]`. */
export function plant(r) {
  return KINDS.map(([kind, documented, make]) => {
    const { ctx, secret } = make(r)
    return { kind, documented, ctx, secret, probes: probes(secret) }
  })
}

/**
 * Fragments whose presence means the secret leaked, whole or in part: every 8-character window at a stride
 * of 8 over each line of it (random bodies: 8 characters never occur by chance). Windows that are not random
 * (a fixed prefix such as `sk-ant-api03-`) are dropped by `uniqueProbes` when the same window occurs in two
 * planted values.
 */
export function probes(secret) {
  const out = []
  for (const line of secret.split('\n')) for (let i = 0; i + 8 <= line.length; i += 8) out.push(line.slice(i, i + 8))
  if (secret.length >= 8) out.push(secret.slice(-8))
  return [...new Set(out)]
}

/** Keeps only the probes that belong to one planted value (drops constant prefixes shared by a kind). */
export function uniqueProbes(values) {
  const count = new Map()
  for (const v of values) for (const p of v.probes) count.set(p, (count.get(p) ?? 0) + 1)
  for (const v of values) v.probes = v.probes.filter((p) => count.get(p) === 1 && !/^(.)\1*$/.test(p))
  return values
}
