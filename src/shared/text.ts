/** Text helpers shared by the renderers and the identity header (kept apart so neither loads the other). */

/** One line of at most `max` characters (whitespace runs collapsed, an ellipsis when cut). */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}
