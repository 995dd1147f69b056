/**
 * Random hex for names that must not collide by chance (temp files, lock nonces, snapshot id
 * suffixes), never for secrets. Math.random instead of node:crypto: loading crypto costs a hook a
 * measurable share of its run, and these names are also checked (temp files and locks are created
 * exclusively; snapshot ids carry the time).
 */
export function randomHex(bytes: number): string {
  let out = ''
  for (let i = 0; i < bytes; i++)
    out += Math.floor(Math.random() * 256)
      .toString(16)
      .padStart(2, '0')
  return out
}
