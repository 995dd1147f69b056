/**
 * scripts/check-structure.mjs, the CI check of issue 17 (no source file over 600 lines, no import cycle in src/),
 * run as CI runs it on small trees made in a temp folder.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { tempDir } from './helpers/tmp.js'

const script = join(dirname(fileURLToPath(import.meta.url)), '..', 'scripts', 'check-structure.mjs')

function tree(files: Record<string, string>): string {
  const root = tempDir('bookmark-structure-')
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

function check(root: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [script, root], { encoding: 'utf8' })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `export const v${i} = ${i}`).join('\n') + '\n'

describe('check-structure', () => {
  it('passes a clean tree: a file of exactly 600 lines, type-only and commented imports back, node_modules ignored', () => {
    const root = tree({
      'src/a.ts': `import { b } from './b.js'\nexport const a = b + 1\n`,
      'src/b.ts': [
        `import type { A } from './a.js'`,
        `import { type A as A2 } from './a.js'`,
        `// a later version may import('./a.js') lazily`,
        `export const b = 1`,
        `export type B = A | A2`,
        '',
      ].join('\n'),
      'test/exact.test.ts': lines(600),
      'scripts/node_modules/dep/huge.js': lines(2000),
      'bench/notes.md': lines(900),
    })
    const r = check(root)
    expect(r.stderr).toBe('')
    expect(r.stdout).toMatch(/^check-structure: ok: 3 files, none over 600 lines; 2 modules in src\/, no import cycle\n$/)
    expect(r.status).toBe(0)
  })

  it('finds a file over 600 lines in any source folder, with its count', () => {
    const root = tree({
      'src/ok.ts': lines(10),
      'stress/cases/long.mjs': lines(601),
      'bin/shim.cjs': lines(700),
    })
    const r = check(root)
    expect(r.status).toBe(1)
    expect(r.stderr).toContain('2 files over 600 lines')
    expect(r.stderr).toContain('  bin/shim.cjs: 700 lines\n')
    expect(r.stderr).toContain('  stress/cases/long.mjs: 601 lines\n')
    expect(r.stderr).not.toContain('src/ok.ts')
    expect(r.stderr).not.toContain('import cycle')
  })

  it('finds an import cycle through a multi-line import, an export-from and a dynamic import, as a chain of files', () => {
    const root = tree({
      'src/hooks/a.ts': `import {\n  b,\n  type B,\n} from '../ops/b.js'\nexport const a = (x: B) => b(x)\n`,
      'src/ops/b.ts': `export { c as b } from './c.js'\nexport type B = number\n`,
      'src/ops/c.ts': `export async function c(n: number) {\n  return (await import('../hooks/a.js')).a(n)\n}\n`,
      'src/ops/d.ts': `import { c } from './c.js'\nexport const d = c\n`,
    })
    const r = check(root)
    expect(r.status).toBe(1)
    expect(r.stderr).toContain('1 import cycle in src/')
    expect(r.stderr).toContain('  src/hooks/a.ts -> src/ops/b.ts -> src/ops/c.ts -> src/hooks/a.ts\n')
    expect(r.stderr).toContain(`    src/hooks/a.ts:1 import ... from '../ops/b.js'\n`)
    expect(r.stderr).toContain(`    src/ops/b.ts:1 export ... from './c.js'\n`)
    expect(r.stderr).toContain(`    src/ops/c.ts:2 import('../hooks/a.js')\n`)
    expect(r.stderr).not.toContain('src/ops/d.ts')
    expect(r.stderr).not.toContain('over 600 lines')
  })
})
