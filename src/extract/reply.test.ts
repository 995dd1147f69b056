import { describe, expect, it } from 'vitest'
import { closingQuestion, endsWithQuestion, headAndTail, nextBlock, nextStep } from './reply.js'

describe('headAndTail', () => {
  it('keeps a text that fits as it is (trimmed)', () => {
    expect(headAndTail('  Done.\n', 100)).toBe('Done.')
  })

  it('keeps the head and the tail around a … line, cut at line breaks', () => {
    const text = ['First line of the reply.', 'x'.repeat(300), 'y'.repeat(300), 'Shall I commit, or leave it as is?'].join('\n')
    expect(headAndTail(text, 103, 40, 60)).toBe('First line of the reply.\n…\nShall I commit, or leave it as is?')
  })

  it('cuts inside one long line at a sentence end or white space, never inside a word', () => {
    const text = `${'Alpha beta. '.repeat(30)}Gamma [REDACTED:github-token] delta? End here.`
    const out = headAndTail(text, 80, 30, 47)
    expect(out.length).toBeLessThanOrEqual(80)
    const [head, tail] = out.split('\n…\n')
    expect(head).toMatch(/^Alpha beta\.( Alpha beta\.)*$/)
    expect(tail).toMatch(/End here\.$/)
    // The tail starts at a word: no piece of a marker or token.
    expect(tail).not.toMatch(/^[^\s[]*\]/)
  })
})

describe('the closing question', () => {
  it.each([
    ['Which approach would you prefer?', 'Which approach would you prefer?'],
    ['All green.\n\nReady to commit?', 'Ready to commit?'],
    ['Tests pass. Should I finish wiring up the `--model` flag, or leave it?', 'Should I finish wiring up the `--model` flag, or leave it?'],
    ['Summary.\n\n**Want me to post this to the PR now?**', 'Want me to post this to the PR now?'],
    ['Options:\n- A\n- B\n\nWhich one?\n\n---', 'Which one?'],
  ])('%j', (text, question) => {
    expect(endsWithQuestion(text)).toBe(true)
    expect(closingQuestion(text)).toBe(question)
  })

  it.each([
    'Done! I added the log line.',
    'Is it fine? I checked it twice.',
    "If you'd like, I can note it in the release workflow, but otherwise the repo side is complete.",
    '',
  ])('none in %j', (text) => {
    expect(endsWithQuestion(text)).toBe(false)
    expect(closingQuestion(text)).toBeUndefined()
  })
})

describe('the next step', () => {
  it.each([
    ['Fixed the parser.\n\nNext: quote fields that contain commas.', 'quote fields that contain commas.'],
    ['Done.\n\n**Next steps:**\n- add the CLI flag\n- update the docs\n\nThat is all.', '- add the CLI flag\n- update the docs'],
    ['Done.\n\n## Remaining\n\n1. tests\n2. changelog', '1. tests\n2. changelog'],
    ['TODO: wire the flag', 'wire the flag'],
    ['**Remaining:** the Windows build', 'the Windows build'],
  ])('%j', (text, step) => {
    expect(nextBlock(text)).toBe(step)
  })

  it('is not a word that merely starts a line ("Remaining `[:7]` usages …")', () => {
    expect(nextBlock('**Remaining `[:7]` usages (intentionally left as-is):**\n\n- Display strings')).toBeUndefined()
    expect(nextBlock('Next, I ran the tests.')).toBeUndefined()
  })

  it('gives the block and then the closing question, or either alone', () => {
    expect(nextStep('Next: the docs.\n\nShall I start?')).toBe('the docs.\nShall I start?')
    expect(nextStep('All done. Ready to commit?')).toBe('Ready to commit?')
    expect(nextStep('All done.')).toBeUndefined()
  })
})
