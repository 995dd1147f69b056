/** Text helpers shared by the renderers and the identity header (kept apart so neither loads the other). */

/** One line of at most `max` characters (whitespace runs collapsed, an ellipsis when cut). */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/**
 * Orders strings by their UTF-16 code units: stable, the same everywhere, and cheap. (`localeCompare`
 * loads the ICU collator on first use, several milliseconds a hook cannot spare; our ids and times are
 * ASCII, where both orders agree.)
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
