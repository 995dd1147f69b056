import { describe, expect, it } from 'vitest'
import { parseScript } from './lexer.js'
import { type ShellCommand, forEachCommand, walkScript } from './walker.js'

describe('forEachCommand', () => {
  it('reports the directory each command runs in', () => {
    const seen: [string, string | null][] = []
    forEachCommand('cd a && git status; (cd /b && ls); cd "$X"; pwd', 'bash', (c) => seen.push([c.name, c.cwd]))
    expect(seen).toEqual([
      ['cd', ''],
      ['git', 'a'],
      ['cd', 'a'],
      ['ls', '/b'],
      ['cd', 'a'],
      ['pwd', null],
    ])
  })

  // A parse's walk is kept for the rule families that walk it after the first: each must see what a walk gives.
  it('gives the same commands and directory when a parse is walked again', () => {
    const lines = ['cd a && git status; (cd /b && ls); cd "$X"; pwd', 'bash -c "cd x && make test" | tail -5', 'echo $(cd c; git log)']
    for (const line of lines) {
      const parsed = parseScript(line, 'bash')
      const walks: [ShellCommand[], string | null][] = []
      for (const nodes of [parsed, parsed, parseScript(line, 'bash')]) {
        const seen: ShellCommand[] = []
        walks.push([seen, walkScript(nodes, 'bash', (c) => seen.push(c))])
      }
      expect(walks[0]![0].length).toBeGreaterThan(1)
      expect(walks[1]).toEqual(walks[0])
      expect(walks[2]).toEqual(walks[0])
    }
  })
})
