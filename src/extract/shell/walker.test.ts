import { describe, expect, it } from 'vitest'
import { forEachCommand } from './walker.js'

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
})
