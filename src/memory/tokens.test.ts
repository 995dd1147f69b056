import { describe, expect, it } from 'vitest'
import { exactTokens, queryTerms, termHash, words } from './tokens.js'

describe('tokens', () => {
  it('reads words, camelCase parts, and leaves stop words out', () => {
    expect(words('The parseLine of resume.go failed')).toEqual(['parseline', 'parse', 'line', 'resume', 'go', 'failed'])
  })

  it('keeps paths and identifiers whole, with the last parts of a path', () => {
    expect(exactTokens('edit src/cmd/resume.go, then run parseLine.')).toEqual(['src/cmd/resume.go', 'resume.go', 'cmd/resume.go', 'parseline'])
    expect(exactTokens('plain words only')).toEqual([])
    expect(queryTerms('resume.go resume')).toEqual({ words: ['resume', 'go'], exact: ['resume.go'] })
  })

  it('reads letters and digits of any script (the Unicode forms, made on first use)', () => {
    expect(words('überprüfe café zähler2 日本語')).toEqual(['überprüfe', 'café', 'zähler2', '日本語'])
    expect(exactTokens('öffne src/zähler/main.go')).toEqual(['src/zähler/main.go', 'main.go', 'zähler/main.go'])
    expect(words('plain ascii again')).toEqual(['plain', 'ascii', 'again'])
  })

  it('hashes the two channels apart', () => {
    expect(termHash('resume', false)).not.toBe(termHash('resume', true))
    expect(Number.isSafeInteger(termHash('resume.go', true))).toBe(true)
  })
})
