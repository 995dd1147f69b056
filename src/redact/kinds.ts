/** The kinds of secret `redact` names in its markers (`[REDACTED:<kind>]`), in the order the rules run. */

const KINDS = [
  'private-key',
  'url-credentials',
  'slack-webhook',
  'discord-webhook',
  'anthropic-key',
  'openai-key',
  'groq-key',
  'xai-key',
  'perplexity-key',
  'replicate-token',
  'github-token',
  'gitlab-token',
  'slack-token',
  'stripe-key',
  'google-api-key',
  'google-oauth-secret',
  'google-oauth-token',
  'npm-token',
  'pypi-token',
  'sendgrid-key',
  'twilio-key',
  'mailgun-key',
  'azure-key',
  'heroku-key',
  'doppler-token',
  'digitalocean-token',
  'huggingface-token',
  'shopify-token',
  'discord-token',
  'telegram-bot-token',
  'databricks-token',
  'linear-key',
  'postman-key',
  'grafana-token',
  'sentry-token',
  'newrelic-key',
  'notion-token',
  'supabase-token',
  'vault-token',
  'age-secret-key',
  'atlassian-token',
  'docker-token',
  'flyio-token',
  'planetscale-token',
  'pulumi-token',
  'terraform-token',
  'dynatrace-token',
  'sourcegraph-token',
  'contentful-token',
  'square-token',
  'azure-client-secret',
  'mapbox-token',
  'aws-access-key-id',
  'onepassword-key',
  'adobe-secret',
  'airtable-token',
  'alibaba-key-id',
  'artifactory-token',
  'authress-key',
  'bedrock-key',
  'clickhouse-key',
  'clojars-token',
  'cloudflare-ca-key',
  'duffel-token',
  'easypost-token',
  'facebook-token',
  'flutterwave-key',
  'frameio-token',
  'harness-key',
  'infracost-token',
  'intra42-secret',
  'maxmind-key',
  'mailchimp-key',
  'teams-webhook',
  'octopus-key',
  'openshift-token',
  'plaid-token',
  'prefect-token',
  'readme-token',
  'rubygems-token',
  'scalingo-token',
  'sendinblue-key',
  'settlemint-token',
  'shippo-token',
  'sonar-token',
  'twitter-bearer-token',
  'typeform-token',
  'yandex-key',
  'dropbox-token',
  'aws-secret-access-key',
  'registry-auth',
  'session-cookie',
  'jwt',
  'bearer-token',
  'basic-auth',
  'auth-header',
  'url-signature',
  'password',
  'token',
  'api-key',
  'secret',
] as const

export type SecretKind = (typeof KINDS)[number]

/** Every kind `redact` can emit, in the order the rules run. */
export const SECRET_KINDS: readonly string[] = KINDS

export const marker = (kind: SecretKind): string => `[REDACTED:${kind}]`

/** A word a rule needs in a text before it can match; `anyCase` for rules that ignore ASCII letter case. */
export interface Needle {
  text: string
  anyCase: boolean
}

/** A rule that rewrites a whole text, run only when one of its needles occurs in it. */
export interface TextRule {
  needles: readonly Needle[]
  apply: (text: string) => string
}

export const word = (text: string, anyCase = false): Needle => ({ text, anyCase })
