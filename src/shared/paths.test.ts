import { describe, expect, it } from 'vitest'
import { isWindowsPath, normalizeAbsolute, relativeInside, resolveAgainst } from './paths.js'

describe('relativeInside', () => {
  it.each([
    ['/proj', '/proj/src/a.ts', 'src/a.ts'],
    ['/proj', '/proj-other/a.ts', undefined], // sibling folder is outside
    ['/proj', '/projX', undefined],
    ['/proj', '/proj', undefined], // the root itself is not a file
    ['/proj/', '/proj/a.ts', 'a.ts'],
    ['/proj', '/elsewhere/proj/a.ts', undefined],
    ['/proj', '/proj/../etc/passwd', undefined],
    ['D:\\repo', 'D:\\repo\\src\\main.go', 'src/main.go'],
    ['D:\\repo', 'd:\\Repo\\src\\main.go', 'src/main.go'], // Windows compares without case
    ['D:\\repo', 'D:\\repo-old\\x.go', undefined],
    ['D:\\repo', '/repo/x.go', undefined],
  ])('%s contains %s -> %s', (root, abs, expected) => {
    expect(relativeInside(root, abs)).toBe(expected)
  })
})

describe('resolveAgainst', () => {
  it.each([
    ['/proj', 'src/a.ts', '/proj/src/a.ts'],
    ['/proj/sub', '../b.ts', '/proj/b.ts'],
    ['/proj', '/abs/c.ts', '/abs/c.ts'],
    ['C:\\work\\app', 'src\\x.ts', 'C:/work/app/src/x.ts'],
    [undefined, 'rel.ts', undefined],
    ['/proj', '', undefined],
  ])('%s + %s -> %s', (base, p, expected) => {
    expect(resolveAgainst(base, p)).toBe(expected)
  })

  it('normalises Windows drive letters and separators', () => {
    expect(isWindowsPath('c:\\x')).toBe(true)
    expect(normalizeAbsolute('c:\\x\\y\\')).toBe('C:/x/y')
    expect(normalizeAbsolute('/a/b/../c/')).toBe('/a/c')
  })
})
