/** In-process Deps for operation tests: a temp bookmark home, a fixed clock that advances per call. */
import { join } from 'node:path'
import type { Deps } from '../../src/shared/deps.js'
import { tempDir } from './tmp.js'

export async function testDeps(overrides: Partial<Deps> = {}): Promise<Deps & { dir: string; logs: string[] }> {
  const dir = tempDir('bm-ops-')
  const logs: string[] = []
  let tick = Date.parse('2026-11-28T10:00:00.000Z')
  let n = 0
  return {
    dir,
    logs,
    env: { HOME: join(dir, 'home'), CLAUDE_CONFIG_DIR: join(dir, 'home', '.claude') },
    bookmarkHome: join(dir, 'home', '.bookmark'),
    now: () => new Date((tick += 1_000)),
    random4: () => (n++ % 0x10000).toString(16).padStart(4, '0'),
    log: (m) => logs.push(m),
    indexCap: 50,
    registryCap: 500,
    subagents: true,
    ...overrides,
  }
}
