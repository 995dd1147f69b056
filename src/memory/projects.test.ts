import { describe, expect, it } from 'vitest'
import { projectMatches, projectName, repoName } from './projects.js'

/** The plain way: a name matches the folder's name or its repository's, lower-cased, the paths split first. */
const plain = (project: string, name: string): boolean =>
  projectName(project).toLowerCase() === name.toLowerCase() || repoName(project).toLowerCase() === name.toLowerCase()

describe('project names', () => {
  it('match as splitting every path does, though most paths are ruled out without splitting', () => {
    const projects = [
      '/src/cli',
      '/src/cli-r7',
      '/src/cli/.worktrees/ent-95',
      'D:\\oh-my-posh\\.claude\\worktrees\\x',
      'C:\\Users\\Me\\Code\\App',
      '/home/me/ΟΔΥΣΣΕΑΣ',
      '/home/me/ΟΔΥΣΣΕΑΣ/sub',
      '/home/me/İstanbul',
      '/w/a.b/Σ',
      '',
    ]
    const names = [
      'cli',
      'CLI',
      'cli-r7',
      'ent-95',
      'oh-my-posh',
      'x',
      'app',
      'code',
      'οδυσσεας',
      'ΟΔΥΣΣΕΑΣ',
      'οδυσσεασ',
      'istanbul',
      'i̇stanbul',
      'σ',
      'ς',
      'me',
      'src',
    ]
    for (const p of projects) for (const n of names) expect(projectMatches(p, { name: n }), `${p} ${n}`).toBe(plain(p, n))
    expect(projectMatches('/src/cli/.worktrees/ent-95', { name: 'CLI' })).toBe(true)
    expect(projectMatches('/src/cli-r7', { name: 'cli' })).toBe(false)
  })
})
