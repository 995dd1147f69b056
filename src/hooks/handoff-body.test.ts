import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ALNUM, fake2 } from '../../test/helpers/fake-secrets.js'
import { tempDir } from '../../test/helpers/tmp.js'
import { redact } from '../redact/secrets.js'
import { bodyHash, handoffBodies } from './handoff-body.js'

const secret = `ghp_${fake2(ALNUM, 36)}`
const body = `## Task\nRotate the deploy token.\n\n## Progress\n- GITHUB_TOKEN=${secret} was in .env; moved to the vault.\n`

/** `redact`, counting its calls. */
function counted(): { calls: number; redact: (text: string) => string } {
  const c = { calls: 0, redact: (text: string) => (c.calls++, redact(text)) }
  return c
}

describe('the handoff body kept redacted for the next prepared restore', () => {
  it('gives what redact gives, keeps only the redacted text, and redacts an unchanged body once', async () => {
    const path = join(tempDir('bm-body-'), 'narrative.body.json')
    const first = counted()
    const a = handoffBodies(path, first.redact)
    expect(await a.redacted(body)).toBe(redact(body))
    await a.keep()
    expect(first.calls).toBe(1)
    const file = readFileSync(path, 'utf8')
    expect(file).not.toContain(secret)
    expect(file).toContain('[REDACTED:')

    const second = counted()
    const b = handoffBodies(path, second.redact)
    expect(await b.redacted(body)).toBe(redact(body))
    expect(second.calls).toBe(0)
    await b.keep() // nothing new: the file stays as it is
    expect(readFileSync(path, 'utf8')).toBe(file)
  })

  it('redacts again a body that changed (even to the same length) and one kept by another build', async () => {
    const path = join(tempDir('bm-body-'), 'narrative.body.json')
    const a = handoffBodies(path, redact)
    await a.redacted(body)
    await a.keep()
    const other = body.replace('Rotate', 'Rotatf')
    expect(other.length).toBe(body.length)
    const c = counted()
    expect(await handoffBodies(path, c.redact).redacted(other)).toBe(redact(other))
    expect(c.calls).toBe(1)

    const kept = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
    writeFileSync(path, JSON.stringify({ ...kept, build: 'another', text: 'not what this build makes' }))
    const d = counted()
    expect(await handoffBodies(path, d.redact).redacted(body)).toBe(redact(body))
    expect(d.calls).toBe(1)
  })

  it('redacts as before when the file is missing, damaged or cannot be written', async () => {
    const dir = tempDir('bm-body-')
    const damaged = join(dir, 'narrative.body.json')
    writeFileSync(damaged, '{"version": 1, "text": ')
    expect(await handoffBodies(damaged, redact).redacted(body)).toBe(redact(body))
    const nowhere = handoffBodies(join(dir, 'no-such-folder', 'narrative.body.json'), redact)
    expect(await nowhere.redacted(body)).toBe(redact(body))
    await expect(nowhere.keep()).rejects.toThrow() // prepareRestore catches it
  })

  it('hashes UTF-16 text to 53 bits, differently for nearby texts', () => {
    expect(bodyHash('')).toMatch(/^[0-9a-f]{1,14}$/)
    expect(bodyHash('a→b')).not.toBe(bodyHash('a-b'))
    expect(bodyHash(body)).toBe(bodyHash(`${body}`))
  })
})
