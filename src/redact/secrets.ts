/**
 * Secret redaction, applied by the store to everything it writes and by restore to everything it injects.
 *
 * Pure: no fs, no env, no clock. `redact` replaces each secret with `[REDACTED:<kind>]`; for assignments,
 * headers and URLs only the secret part is replaced so the text stays readable (`DB_PASSWORD=[REDACTED:password]`,
 * `postgres://app:[REDACTED:url-credentials]@db/prod`). Four families of rules, in this order:
 * - shapes: PEM private key blocks and tokens with a known prefix (`ghp_`, `sk-ant-`, `AKIA`, JWTs...);
 * - context: credentials in URLs, `Authorization` headers, `Bearer`/`Basic`, signed URL parameters;
 * - names: the value of a key that names a secret (`password=`, `"api_key": "..."`, `--token x`), unless the
 *   value is a placeholder (`<your-token>`, `${VAR}`, `****`) or code (`process.env.X`, `password: string`);
 * - free text: a high-entropy value a few words after such a word, with no operator (`my token is …`).
 *
 * Performance rules for every pattern here (this runs on every string we write, some of them megabytes):
 * - a pattern that starts with a repeated class starts with a negative lookbehind of that class, so the engine
 *   only tries it at the start of a run and a long run costs one scan, not one scan per position;
 * - no nested quantifiers over overlapping alternatives; repeated groups start with a separator that the
 *   preceding class cannot match;
 * - work that a regex would do quadratically (PEM blocks without an END) is done by a cursor loop.
 *
 * Idempotent: `redact(redact(x)) === redact(x)`. Every rule leaves values that start with `[REDACTED` alone, and
 * `redact` repeats its rules until the text stops changing.
 *
 * This module is the public face (other code imports it lazily by this path); the rules live beside it:
 * kinds.ts (marker names), values.ts (value heuristics), pem.ts, tokens.ts, context.ts (URLs, headers),
 * assignments.ts, commands.ts, prose.ts (free text), needles.ts (the cheap pre-scan), engine.ts (the passes and cuts),
 * deep.ts (the walk over parsed JSON).
 */

export { SECRET_KINDS, type SecretKind } from './kinds.js'
export { cutRedacted, cutRedactedTwice, mayRedactTo, redact } from './engine.js'
export { type KnownRedacted, TOO_DEEP_MARKER, redactDeep, redactOver } from './deep.js'
export { SENSITIVE_WORDS } from './assignments.js'
export { NEEDLES, needlesIn } from './needles.js'
