/**
 * One row per credential form of issue 15 ("Credentials": 26 forms an adversarial review found stored and
 * re-injected unredacted) and per kind added from gitleaks' rule set. Values come from their own seeds, so the
 * rows of fake-secrets.ts keep theirs.
 */
import { ALNUM, B64, DIGITS, HEX, LOWER, type Row, UPPER, URLSAFE, mark, prng, row } from './fake-secrets.js'

let seed = 300_000
function gen(alphabet: string, length: number): string {
  const next = prng(seed++ * 7919)
  let out = ''
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)] ?? 'x'
  return out
}

/** A password-looking value: letters and digits, so that every rule that needs a digit sees one. */
const pw = (): string => `${gen(ALNUM, 10)}${gen(DIGITS, 2)}${gen(UPPER, 2)}`
/** 40 base64 characters with all three classes and no run of 7 lower-case letters: an AWS secret access key. */
const awsSecret40 = (): string => `${gen(UPPER, 2)}${gen(DIGITS, 2)}${gen(B64, 16)}/${gen(UPPER + DIGITS, 5)}${gen(B64, 14)}`
const b64 = (s: string): string => Buffer.from(s).toString('base64')

const pemKey = `-----BEGIN RSA PRIVATE KEY-----\nMIIEow${gen(B64, 58)}\n${gen(B64, 64)}\n-----END RSA PRIVATE KEY-----\n`
const keyData = b64(pemKey)
const certData = b64(`-----BEGIN CERTIFICATE-----\nMIIC${gen(B64, 60)}\n-----END CERTIFICATE-----\n`)
const ppkPrivate = [gen(B64, 64), gen(B64, 64), `${gen(B64, 20)}==`]
const ppkMac = gen(HEX, 64)
const telegram = `${gen(DIGITS, 9)}:AA${gen(URLSAFE, 33)}`
const csvSecret = awsSecret40()
const csvPassword = `${gen(ALNUM, 8)}!${gen(DIGITS, 2)}`

export const CREDENTIAL_ROWS: Row[] = [
  // quoted words and letters-only values under password / secret / token keys
  row('password', '.env quoted passphrase', (s) => `PASSWORD="${s}"`, 'correct horse battery staple'),
  row('secret', 'JSON secret of two words', (s) => `{"secret": "${s}"}`, 'hunter two'),
  row('token', 'YAML api_token of letters only', (s) => `api_token: '${s}'`, gen(LOWER, 10)),
  // private keys in config files
  {
    kind: 'private-key',
    name: 'kubeconfig client-key-data (base64 of a PEM key)',
    secrets: [keyData],
    input: `users:\n- name: admin\n  user:\n    client-certificate-data: ${certData}\n    client-key-data: ${keyData}\n`,
    expected: `users:\n- name: admin\n  user:\n    client-certificate-data: ${certData}\n    client-key-data: ${mark('private-key')}\n`,
  },
  row('private-key', 'base64 PEM key in a Kubernetes Secret (tls.key)', (s) => `  tls.key: ${s}`, keyData, `  tls.key: ${mark('private-key')}`),
  {
    kind: 'private-key',
    name: 'PuTTY .ppk private lines and MAC',
    secrets: [...ppkPrivate, ppkMac],
    input: `PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nComment: rsa-key-20261202\nPublic-Lines: 1\nAAAAB3NzaC1yc2EAAAADAQAB\nPrivate-Lines: 3\n${ppkPrivate.join('\n')}\nPrivate-MAC: ${ppkMac}\n`,
    expected: `PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nComment: rsa-key-20261202\nPublic-Lines: 1\nAAAAB3NzaC1yc2EAAAADAQAB\nPrivate-Lines: 3\n${mark('private-key')}\nPrivate-MAC: ${mark('private-key')}\n`,
  },
  // Telegram
  row('telegram-bot-token', 'Telegram token inside its Bot API URL', (s) => `curl "https://api.telegram.org/bot${s}/sendMessage?chat_id=42"`, telegram),
  // AWS secret access keys without `=`
  row('aws-secret-access-key', 'aws configure set', (s) => `aws configure set aws_secret_access_key ${s} --profile prod`, awsSecret40()),
  row(
    'aws-secret-access-key',
    'the aws configure prompt',
    (s) => `AWS Access Key ID [None]: \nAWS Secret Access Key [None]: ${s}\nDefault region name [None]: eu-west-1`,
    awsSecret40(),
  ),
  {
    kind: 'aws-secret-access-key',
    name: 'credentials CSV (header, then a row)',
    secrets: [csvSecret, csvPassword],
    input: `User name,Password,Access key ID,Secret access key,Console login link\ndeploy,${csvPassword},AKIA${gen(UPPER + DIGITS, 16).replace(/^/, '')},${csvSecret},https://acme.signin.aws.amazon.com/console`,
    expected: `User name,Password,Access key ID,Secret access key,Console login link\ndeploy,${mark('password')},${mark('aws-access-key-id')},${mark('aws-secret-access-key')},https://acme.signin.aws.amazon.com/console`,
  },
  row('aws-secret-access-key', '40 characters near "secret key" in prose', (s) => `the AWS secret key is ${s} (rotate it tomorrow)`, awsSecret40()),
  // short password flags
  row('password', 'mysql -pX', (s) => `mysql -h db.internal -u root -p${s} prod`, pw()),
  row('password', 'mysql -pX inside prose', (s) => `Wire up the database, it is mysql -u root -p${s} prod, and keep it out of git.`, pw()),
  row('password', 'mysqldump --password=X', (s) => `mysqldump -u root --password=${s} prod > dump.sql`, pw()),
  row('password', 'docker login -p X', (s) => `docker login -u deploy -p ${s} registry.example.com`, pw()),
  row('password', 'redis-cli -a X', (s) => `redis-cli -h cache.internal -a ${s} ping`, pw()),
  row('password', 'sshpass -p X', (s) => `sshpass -p '${s}' ssh deploy@host`, pw()),
  row('password', 'az login -p X', (s) => `az login --service-principal -u http://acme-ci -p ${s} --tenant acme.onmicrosoft.com`, pw()),
  row('password', 'openssl -passin pass:X', (s) => `openssl rsa -in key.pem -passin pass:${s} -out plain.pem`, pw()),
  row('password', 'openssl -passout pass:X', (s) => `openssl genrsa -aes256 -passout pass:${s} 4096`, pw()),
  row('password', 'keytool -storepass X', (s) => `keytool -list -keystore app.jks -storepass ${s}`, pw()),
  row('password', 'curl -u user:pass', (s) => `curl -u admin:${s} https://ci.example.com/api`, pw()),
  row('password', 'curl -uuser:pass (attached)', (s) => `curl -uadmin:${s} https://ci.example.com/api`, pw()),
  row('password', 'ldapsearch -w X', (s) => `ldapsearch -x -D cn=admin,dc=acme -w ${s} -b dc=acme`, pw()),
  // registry auth, API key headers, signed URLs, cookies, .pgpass, service account files
  row('registry-auth', 'docker config.json "auth"', (s) => `{"auths": {"https://index.docker.io/v1/": {"auth": "${s}"}}}`, b64(`deploy:${pw()}`)),
  row('registry-auth', '.npmrc _auth=', (s) => `_auth=${s}\nalways-auth=true`, b64(`deploy:${pw()}`)),
  row(
    'token',
    '.npmrc _authToken=',
    (s) => `//registry.npmjs.org/:_authToken=${s}`,
    `${gen(HEX, 8)}-${gen(HEX, 4)}-4${gen(HEX, 3)}-a${gen(HEX, 3)}-${gen(HEX, 12)}`,
  ),
  row('password', '.npmrc _password=', (s) => `//npm.acme.dev/:_password=${s}`, `${b64(pw())}`),
  row('api-key', 'Datadog DD-APPLICATION-KEY header', (s) => `curl -H "DD-APPLICATION-KEY: ${s}" https://api.datadoghq.com/api/v1/validate`, gen(HEX, 40)),
  row('api-key', 'Datadog DD-API-KEY header', (s) => `-H "DD-API-KEY: ${s}"`, gen(HEX, 32)),
  row(
    'url-signature',
    'S3 presigned X-Amz-Credential',
    (s) => `https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${s}&X-Amz-Date=20261202T000000Z`,
    `${gen(UPPER + DIGITS, 20)}%2F20261202%2Fus-east-1%2Fs3%2Faws4_request`,
  ),
  row(
    'url-signature',
    'S3 v2 presigned Signature',
    (s) => `https://b.s3.amazonaws.com/k?AWSAccessKeyId=x&Expires=1764000000&Signature=${s}`,
    `${gen(B64, 27)}%3D`,
  ),
  row('session-cookie', 'Cookie header', (s) => `Cookie: theme=dark; sessionid=${s}; lang=en`, gen(ALNUM, 32)),
  row('session-cookie', 'Set-Cookie header', (s) => `Set-Cookie: connect.sid=${s}; Path=/; HttpOnly`, `s%3A${gen(URLSAFE, 32)}.${gen(B64, 20)}`),
  row('session-cookie', 'curl --cookie', (s) => `curl --cookie "_gitlab_session=${s}" https://gitlab.example.com`, gen(HEX, 32)),
  row('password', '.pgpass line', (s) => `db.internal:5432:prod:app:${s}`, pw()),
  row('secret', 'GCP service account private_key_id', (s) => `{"type": "service_account", "project_id": "acme", "private_key_id": "${s}"}`, gen(HEX, 40)),
  row(
    'secret',
    'Kubernetes Secret data',
    (s) => `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  DB_URL: ${s}\n`,
    b64(`postgres://app:${pw()}@db/prod`),
  ),
  row('password', 'NuGet.config ClearTextPassword', (s) => `<add key="ClearTextPassword" value="${s}" />`, pw()),
  // prefixed formats from gitleaks' rule set
  row(
    'onepassword-key',
    '1Password secret key',
    (s) => s,
    `A3-${gen(UPPER + DIGITS, 6)}-${gen(UPPER + DIGITS, 11)}-${gen(UPPER + DIGITS, 5)}-${gen(UPPER + DIGITS, 5)}-${gen(UPPER + DIGITS, 5)}`,
  ),
  row('adobe-secret', 'Adobe client secret', (s) => s, `p8e-${gen(ALNUM, 30)}1a`),
  row('airtable-token', 'Airtable PAT', (s) => s, `pat${gen(ALNUM, 14)}.${gen(HEX, 64)}`),
  row('alibaba-key-id', 'Alibaba access key id', (s) => s, `LTAI${gen(ALNUM, 20)}`),
  row('artifactory-token', 'Artifactory API key', (s) => s, `AKCp${gen(ALNUM, 69)}`),
  row('authress-key', 'Authress service client key', (s) => s, `sc_${gen(LOWER + DIGITS, 12)}.${gen(LOWER, 5)}.acc_${gen(LOWER + DIGITS, 16)}.${gen(B64, 40)}`),
  row('bedrock-key', 'Amazon Bedrock API key', (s) => s, `ABSK${gen(B64, 130)}`),
  row('clickhouse-key', 'ClickHouse Cloud secret', (s) => s, `4b1d${gen(ALNUM, 38)}`),
  row('clojars-token', 'Clojars token', (s) => s, `CLOJARS_${gen(LOWER + DIGITS, 60)}`),
  row('cloudflare-ca-key', 'Cloudflare origin CA key', (s) => s, `v1.0-${gen(HEX, 24)}-${gen(HEX, 146)}`),
  row('duffel-token', 'Duffel token', (s) => s, `duffel_live_${gen(URLSAFE, 43)}`),
  row('easypost-token', 'EasyPost key', (s) => s, `EZAK${gen(ALNUM, 54)}`),
  row('facebook-token', 'Facebook page token', (s) => s, `EAAC${gen(ALNUM, 120)}`),
  row('flutterwave-key', 'Flutterwave secret key', (s) => s, `FLWSECK_TEST-${gen('abcdefgh0123456789', 32)}-X`),
  row('frameio-token', 'Frame.io token', (s) => s, `fio-u-${gen(URLSAFE, 64)}`),
  row('harness-key', 'Harness PAT', (s) => s, `pat.${gen(URLSAFE, 22)}.${gen(ALNUM, 24)}.${gen(ALNUM, 20)}`),
  row('infracost-token', 'Infracost token', (s) => s, `ico-${gen(ALNUM, 32)}`),
  row('intra42-secret', '42 intra client secret', (s) => s, `s-s4t2ud-${gen(HEX, 64)}`),
  row('maxmind-key', 'MaxMind license key', (s) => s, `${gen(ALNUM, 6)}_${gen(ALNUM, 29)}_mmk`),
  row('mailchimp-key', 'Mailchimp API key', (s) => s, `${gen(HEX, 32)}-us14`),
  row(
    'teams-webhook',
    'Microsoft Teams webhook',
    (s) => `https://acme.webhook.office.com/webhookb2/${s}`,
    `${gen(HEX, 8)}-${gen(HEX, 4)}-${gen(HEX, 4)}-${gen(HEX, 4)}-${gen(HEX, 12)}@${gen(HEX, 8)}/IncomingWebhook/${gen(HEX, 32)}`,
  ),
  row('octopus-key', 'Octopus Deploy key', (s) => s, `API-${gen(UPPER + DIGITS, 24)}7Q`),
  row('openshift-token', 'OpenShift user token', (s) => s, `sha256~${gen(URLSAFE, 43)}`),
  row('plaid-token', 'Plaid access token', (s) => s, `access-production-${gen(HEX, 8)}-${gen(HEX, 4)}-${gen(HEX, 4)}-${gen(HEX, 4)}-${gen(HEX, 12)}`),
  row('prefect-token', 'Prefect token', (s) => s, `pnu_${gen(ALNUM, 36)}`),
  row('readme-token', 'ReadMe token', (s) => s, `rdme_${gen(LOWER + DIGITS, 70)}`),
  row('rubygems-token', 'RubyGems token', (s) => s, `rubygems_${gen(HEX, 48)}`),
  row('scalingo-token', 'Scalingo token', (s) => s, `tk-us-${gen(URLSAFE, 48)}`),
  row('sendinblue-key', 'Brevo (Sendinblue) key', (s) => s, `xkeysib-${gen(HEX, 64)}-${gen(ALNUM, 16)}`),
  row('settlemint-token', 'SettleMint token', (s) => s, `sm_pat_${gen(ALNUM, 16)}`),
  row('shippo-token', 'Shippo token', (s) => s, `shippo_live_${gen(HEX, 40)}`),
  row('sonar-token', 'SonarQube token', (s) => s, `squ_${gen(HEX, 40)}`),
  row('twitter-bearer-token', 'Twitter bearer token', (s) => s, `${'A'.repeat(22)}${gen(ALNUM, 90)}`),
  row('typeform-token', 'Typeform token', (s) => s, `tfp_${gen(URLSAFE, 59)}`),
  row('yandex-key', 'Yandex API key', (s) => s, `AQVN${gen(URLSAFE, 36)}`),
  row('dropbox-token', 'Dropbox short-lived token', (s) => s, `sl.${gen(URLSAFE, 138)}`),
  row('gitlab-token', 'GitLab runner registration token', (s) => s, `GR1348941${gen(URLSAFE, 20)}`),
  row('huggingface-token', 'Hugging Face org token', (s) => s, `api_org_${gen(LOWER + UPPER, 34)}`),
  row('newrelic-key', 'New Relic insert key', (s) => s, `NRII-${gen(ALNUM, 32)}`),
  row('grafana-token', 'Grafana API key', (s) => s, `eyJrIjoi${gen(ALNUM, 80)}`),
  row('jwt', 'JWT in base64', (s) => s, b64(`eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIx${gen(URLSAFE, 20)}.${gen(URLSAFE, 43)}`).replace(/=+$/, '')),
  row('aws-access-key-id', 'AWS key id with the A3T prefix', (s) => s, `A3TX${gen(UPPER + DIGITS, 16)}`),
  row('stripe-key', 'Stripe prod key', (s) => s, `sk_prod_${gen(ALNUM, 24)}`),
  row('auth-header', 'Okta SSWS authorization', (s) => `Authorization: SSWS ${s}`, `00${gen(URLSAFE, 40)}`),
]
