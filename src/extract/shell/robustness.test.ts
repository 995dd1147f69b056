/** The whole pipeline (lexer, walker, rules) on hostile input: never throws, never reports junk paths. */
import { describe, expect, it } from 'vitest'
import { type ShellFileOp, shellFileOps } from './index.js'

const w = (path: string, append = false, content?: string): ShellFileOp =>
  content === undefined ? { op: 'write', path, append } : { op: 'write', path, append, content }

function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const PIECES = [
  'a',
  'b.txt',
  ' ',
  ' ',
  '\n',
  '\t',
  '$',
  '$(',
  '${',
  '$((',
  '`',
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  "'",
  '"',
  '\\',
  '<',
  '>',
  '>>',
  '<<',
  '<<-',
  '<<<',
  '&',
  '&&',
  '|',
  '||',
  ';',
  ';;',
  '#',
  '*',
  '?',
  '~',
  '=',
  '-',
  '--',
  '-rf',
  'EOF',
  "'EOF'",
  'cat',
  'rm',
  'mv',
  'cp',
  'cd',
  'tee',
  'sed -i',
  'git',
  'commit',
  '-m',
  'bash -c',
  '2>&1',
  "@'",
  "'@",
  '`n',
  ',',
  'Remove-Item',
  'Set-Location',
  '-Path',
  '$env:X',
  '\r',
  '\u0000',
  'é',
  '😀',
]

describe('robustness', () => {
  it('never throws and only returns clean paths on random input', () => {
    const rand = mulberry32(20240611)
    for (let n = 0; n < 3000; n++) {
      let cmd = ''
      const len = Math.floor(rand() * 40)
      for (let k = 0; k < len; k++) cmd += PIECES[Math.floor(rand() * PIECES.length)]
      for (const shell of ['bash', 'powershell'] as const) {
        const ops = shellFileOps(cmd, shell)
        for (const op of ops) {
          for (const p of 'from' in op ? [op.path, op.from] : [op.path]) {
            expect(p.length).toBeGreaterThan(0)
            expect(p).not.toMatch(/[$`"'(){}<>|;&*?\n]/)
            expect(p.startsWith('-')).toBe(false)
          }
        }
      }
    }
  })

  it('tolerates non-string input', () => {
    expect(shellFileOps(undefined as unknown as string, 'bash')).toEqual([])
    expect(shellFileOps('', 'powershell')).toEqual([])
  })

  it('tolerates deep nesting', () => {
    expect(() => shellFileOps('echo ' + '$('.repeat(50_000) + 'x' + ')'.repeat(50_000), 'bash')).not.toThrow()
    expect(() => shellFileOps('('.repeat(100_000) + 'touch a', 'bash')).not.toThrow()
    expect(() => shellFileOps('$('.repeat(100_000), 'powershell')).not.toThrow()
  })

  // A guard against quadratic behaviour; the timeout is the assertion (measurements belong in benchmarks).
  it('handles 1 MB commands', { timeout: 10_000 }, () => {
    const mb = 1 << 20
    const body = 'line with $x and `y` and (z) > q\n'.repeat(mb / 32)
    expect(shellFileOps(`cat > big.txt <<'EOF'\n${body}EOF`, 'bash')).toEqual([w('big.txt', false, body)])
    expect(shellFileOps('touch a; '.repeat(mb / 9), 'bash')).toHaveLength(Math.floor(mb / 9))
    expect(shellFileOps('echo "' + 'x'.repeat(mb) + '" > f', 'bash')).toEqual([w('f')])
    expect(shellFileOps("echo '" + 'y'.repeat(mb) + "' > f", 'powershell')).toEqual([w('f')])
    expect(shellFileOps('echo ' + '\\ '.repeat(mb / 2), 'bash')).toEqual([])
    expect(shellFileOps('x'.repeat(mb), 'bash')).toEqual([])
    expect(shellFileOps('"'.repeat(mb), 'bash')).toEqual([])
    expect(shellFileOps('cat <<EOF\n'.repeat(mb / 10), 'bash')).toEqual([])
  })
})
