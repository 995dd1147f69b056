import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { aliasTarget, aliasesOf, expandAlias, homeAliases, isAliasName } from './aliases.js'
import { globalConfigPath } from './resolve.js'
import { editConfigFile } from './write.js'
import { tempDir } from '../../test/helpers/tmp.js'
import { projectMatches } from '../memory/projects.js'

describe('project aliases', () => {
  it('takes names of letters, digits, dot, dash and underscore', () => {
    expect(['posh', 'web-2', 'a.b_c'].map(isAliasName)).toEqual([true, true, true])
    expect(['', '.hidden', 'a/b', 'x y', 'a'.repeat(65)].map(isAliasName)).toEqual([false, false, false, false, false])
  })

  it('stores absolute paths as given, relative ones from the folder it runs in, and names', () => {
    expect(aliasTarget('/src/app', '/w')).toBe('/src/app')
    expect(aliasTarget('D:\\oh-my-posh', '/w')).toBe('D:\\oh-my-posh')
    expect(aliasTarget('../web', '/w/app')).toBe('/w/web')
    expect(aliasTarget('oh-my-posh', '/w')).toBe('oh-my-posh')
    expect(aliasTarget('two words', '/w')).toBeUndefined()
    expect(aliasTarget('', '/w')).toBeUndefined()
  })

  it('reads only well-formed entries, names lower-cased, and splits targets into paths and names', () => {
    const a = aliasesOf({ Posh: ['D:\\oh-my-posh', 'posh-fork', 7, ''], 'bad name': ['/x'], none: [], notalist: '/x' })
    expect({ ...a }).toEqual({ posh: ['D:\\oh-my-posh', 'posh-fork'] })
    expect(expandAlias(a, 'POSH')).toEqual({ paths: ['D:\\oh-my-posh'], names: ['posh-fork'] })
    expect(expandAlias(a, 'other')).toBeUndefined()
  })

  it('lives in the global config file, kept through other edits, and is removed by name', async () => {
    const home = tempDir('bm-alias-')
    const path = globalConfigPath(home)
    expect(path).toBe(join(home, 'config.json')) // homeAliases reads this same file
    await editConfigFile(path, {
      aliasAdd: [
        ['web', '/w/site'],
        ['web', '/w/api'],
        ['web', '/w/api'],
      ],
    })
    await editConfigFile(path, { set: { interval: 7 } })
    expect({ ...homeAliases(home) }).toEqual({ web: ['/w/site', '/w/api'] })
    await editConfigFile(path, { aliasRemove: ['WEB'] })
    expect({ ...homeAliases(home) }).toEqual({})
    await expect(editConfigFile(path, { aliasRemove: ['web'] })).rejects.toThrow('no alias "web"')
  })

  it('makes a project match by an alias path (either separator) or an alias name', () => {
    const alias = { paths: ['D:\\oh-my-posh', '/w/site/'], names: ['cli'] }
    expect(projectMatches('D:\\oh-my-posh\\.claude\\worktrees\\x', { name: 'posh', alias })).toBe(true)
    expect(projectMatches('/w/site/docs', { name: 'posh', alias })).toBe(true)
    expect(projectMatches('/Users/a/cli/.worktrees/b', { name: 'posh', alias })).toBe(true)
    expect(projectMatches('/w/sitemap', { name: 'posh', alias })).toBe(false)
    expect(projectMatches('/w/posh', { name: 'posh', alias })).toBe(true) // the name itself still matches
    expect(projectMatches('/w/other', { name: 'posh', alias })).toBe(false)
  })
})
