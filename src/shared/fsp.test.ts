import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../test/helpers/tmp.js'
import { removeFile } from './fsp.js'

describe('removeFile', () => {
  it('removes a file, does nothing for one that is gone, and never removes a folder', async () => {
    const dir = tempDir('bm-fsp-')
    const file = join(dir, 'f.json')
    writeFileSync(file, '{}')
    await removeFile(file)
    expect(existsSync(file)).toBe(false)
    await expect(removeFile(file)).resolves.toBeUndefined()
    mkdirSync(join(dir, 'sub'))
    writeFileSync(join(dir, 'sub', 'kept'), 'x')
    await expect(removeFile(join(dir, 'sub'))).rejects.toThrow(/EISDIR|EPERM/)
    expect(existsSync(join(dir, 'sub', 'kept'))).toBe(true)
  })
})
