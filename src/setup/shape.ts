/** Settings shapes setup refuses to edit, and the small helpers every settings edit shares. Pure. */
import { type MemberNode, type ObjectNode, membersNamed, parseJson } from './jsonedit.js'

/** The settings have a shape setup cannot edit safely (the top level is not an object, "hooks" is a string...). */
export class SettingsShapeError extends Error {}

/** A JSON pointer (RFC 6901) from keys: where a container sits, as the setup record names it. */
export const pointer = (...parts: string[]): string => parts.map((p) => `/${p.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')

export const kindName = (kind: string): string => (/^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`)

export function rootObject(text: string): ObjectNode {
  const root = parseJson(text)
  if (root.kind !== 'object') throw new SettingsShapeError(`the top level is ${kindName(root.kind)}, not an object`)
  return root
}

/** The one member named `key`; two of them is legal JSON, but which one Claude Code reads is unclear: refused. */
export function single(obj: ObjectNode, key: string, where: string): MemberNode | undefined {
  const all = membersNamed(obj, key)
  if (all.length > 1) throw new SettingsShapeError(`"${key}" appears ${all.length} times in ${where} (legal JSON, but which one counts is unclear): keep one`)
  return all[0]
}
