/** Guards for untrusted JSON values (transcript lines, payloads, our own stored files). */
export type Json = Record<string, unknown>

/** `JSON.parse(text)`, or undefined when the text is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined
}

/** A string, or a number written as a string (task ids come both ways). */
export function idString(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined
}

/**
 * A dictionary keyed by strings from the transcript (file paths, tool names, task ids): no prototype, so a
 * key such as `constructor` or `__proto__` is just a key.
 */
export function dict<T>(from?: Record<string, T>): Record<string, T> {
  const out = Object.create(null) as Record<string, T>
  if (from) for (const [k, v] of Object.entries(from)) out[k] = v
  return out
}
