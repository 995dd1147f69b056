import { describe, expect, it } from 'vitest'
import { type Here, type Identity, type IdentityVerdict, checkIdentity, parseNarrative, renderIdentity } from './identity.js'

const HEADER = [
  '<!-- BOOKMARK_IDENTITY',
  'scope: repo',
  'project: acme-notes',
  'repo_path: /home/dev/acme-notes',
  'branch: feature/export-csv',
  'head: 3f9c2a1d0b7e4c55aa10ffee00112233deadbeef',
  'session_id: 5e551011-aaaa-bbbb-cccc-000000000001',
  'written: 2026-11-29T20:00:00Z',
  '-->',
].join('\n')

const FULL: Identity = {
  scope: 'repo',
  project: 'acme-notes',
  repo_path: '/home/dev/acme-notes',
  branch: 'feature/export-csv',
  head: '3f9c2a1d0b7e4c55aa10ffee00112233deadbeef',
  session_id: '5e551011-aaaa-bbbb-cccc-000000000001',
  written: '2026-11-29T20:00:00Z',
}

const BODY = '## Where I stopped\n\nExport works for notes; tags are next.'

describe('parseNarrative: accepted', () => {
  const rows: Array<{ name: string; text: string; identity: Identity; body: string }> = [
    { name: 'the canonical header', text: `${HEADER}\n\n${BODY}\n`, identity: FULL, body: BODY },
    { name: 'CRLF line endings', text: `${HEADER}\n\n${BODY}\n`.replace(/\n/g, '\r\n'), identity: FULL, body: BODY },
    { name: 'BOM and blank lines before the header', text: `\uFEFF\n  \n\n${HEADER}\n${BODY}`, identity: FULL, body: BODY },
    {
      name: 'keys in any case, spaces around colons, extra keys, reordered',
      text: '<!-- bookmark_identity\n  Written :2026-11-29T20:00:00Z\nSCOPE: Repo\nmood: good\nRepo-Path: /r\n-->\nbody',
      identity: { scope: 'repo', written: '2026-11-29T20:00:00Z', repo_path: '/r' },
      body: 'body',
    },
    {
      name: 'home pointer',
      text: '<!-- BOOKMARK_IDENTITY\nscope: home\nproject: acme-notes\npoints_to_canonical: /home/dev/acme-notes/.bookmark/bookmark.context.md\n-->\n',
      identity: { scope: 'home', project: 'acme-notes', points_to_canonical: '/home/dev/acme-notes/.bookmark/bookmark.context.md' },
      body: '',
    },
    {
      name: 'values containing colons (Windows path, time) keep them',
      text: '<!-- BOOKMARK_IDENTITY\nscope: repo\nrepo_path: C:\\dev\\acme\nwritten: 2026-11-29 20:00\n-->\nx',
      identity: { scope: 'repo', repo_path: 'C:\\dev\\acme', written: '2026-11-29 20:00' },
      body: 'x',
    },
    {
      name: 'closing --> on the last key line; empty values are absent; first duplicate wins',
      text: '<!-- BOOKMARK_IDENTITY\nscope: repo\nbranch:\nproject: a\nproject: b\nhead: abc -->\nbody',
      identity: { scope: 'repo', project: 'a', head: 'abc' },
      body: 'body',
    },
    { name: 'no body', text: HEADER, identity: FULL, body: '' },
    {
      name: 'unfilled template placeholders are absent',
      text: '<!-- BOOKMARK_IDENTITY\nscope: repo\nproject: acme\nrepo_path: {{repo_path}}\nwritten: {{written}}\n-->\n# Handoff',
      identity: { scope: 'repo', project: 'acme' },
      body: '# Handoff',
    },
    {
      name: 'written with an offset',
      text: '<!-- BOOKMARK_IDENTITY\nscope: repo\nwritten: 2026-11-29T21:00:00+01:00\n-->',
      identity: { scope: 'repo', written: '2026-11-29T21:00:00+01:00' },
      body: '',
    },
  ]
  it.each(rows)('$name', (row) => {
    expect(parseNarrative(row.text)).toEqual({ ok: true, identity: row.identity, body: row.body })
  })
})

describe('parseNarrative: rejected with a one-line reason', () => {
  const rows: Array<{ name: string; text: string; reason: RegExp; body: string }> = [
    { name: 'no header at all', text: `${BODY}\n`, reason: /^no BOOKMARK_IDENTITY header at the top of the file$/, body: BODY },
    { name: 'empty file', text: '', reason: /no BOOKMARK_IDENTITY header/, body: '' },
    { name: 'header after other text', text: `# Notes\n${HEADER}\n`, reason: /found on line 2; it must come first/, body: `# Notes\n${HEADER}` },
    { name: 'header never closed', text: '<!-- BOOKMARK_IDENTITY\nscope: repo\nbody', reason: /not closed with -->/, body: 'scope: repo\nbody' },
    { name: 'no scope', text: '<!-- BOOKMARK_IDENTITY\nproject: a\n-->\nbody', reason: /has no scope/, body: 'body' },
    { name: 'bad scope', text: '<!-- BOOKMARK_IDENTITY\nscope: global\n-->\nbody', reason: /scope must be repo or home, found `global`/, body: 'body' },
    {
      name: 'written is not a date',
      text: '<!-- BOOKMARK_IDENTITY\nscope: repo\nwritten: yesterday evening\n-->\nbody',
      reason: /written time is not an ISO date-time: `yesterday evening`/,
      body: 'body',
    },
    {
      name: 'written is an impossible date',
      text: '<!-- BOOKMARK_IDENTITY\nscope: repo\nwritten: 2026-02-31T10:00:00Z\n-->',
      reason: /not an ISO date-time/,
      body: '',
    },
    { name: 'a different comment first', text: '<!-- other -->\n' + HEADER, reason: /found on line 2/, body: '<!-- other -->\n' + HEADER },
  ]
  it.each(rows)('$name', (row) => {
    const got = parseNarrative(row.text)
    expect(got.ok).toBe(false)
    if (got.ok) return
    expect(got.reason).toMatch(row.reason)
    expect(got.reason).not.toContain('\n')
    expect(got.body).toBe(row.body)
  })
})

describe('renderIdentity', () => {
  it('renders the exact header, keys in order, ending with -->\\n', () => {
    expect(renderIdentity(FULL)).toBe(`${HEADER}\n`)
  })

  const rows: Array<{ name: string; id: Identity; text: string }> = [
    {
      name: 'home pointer, absent keys omitted',
      id: { points_to_canonical: '/h/.bookmark/bookmark.context.md', project: 'p', scope: 'home' },
      text: '<!-- BOOKMARK_IDENTITY\nscope: home\nproject: p\npoints_to_canonical: /h/.bookmark/bookmark.context.md\n-->\n',
    },
    { name: 'empty values omitted', id: { scope: 'repo', branch: '', head: '  ' }, text: '<!-- BOOKMARK_IDENTITY\nscope: repo\n-->\n' },
    {
      name: 'newlines and --> inside values cannot break the header',
      id: { scope: 'repo', project: 'a\nb', branch: 'x-->y' },
      text: '<!-- BOOKMARK_IDENTITY\nscope: repo\nproject: a b\nbranch: x-- >y\n-->\n',
    },
  ]
  it.each(rows)('$name', (row) => {
    expect(renderIdentity(row.id)).toBe(row.text)
  })

  it.each([FULL, { scope: 'home', project: 'p', points_to_canonical: '/x/y.md' } as Identity, { scope: 'repo' } as Identity])(
    'round-trips through parseNarrative (%#)',
    (id) => {
      expect(parseNarrative(renderIdentity(id) + '\nbody')).toEqual({ ok: true, identity: id, body: 'body' })
    },
  )
})

describe('checkIdentity', () => {
  const id = (over: Partial<Identity>): Identity => ({ ...FULL, ...over })
  const here: Here = { root: '/home/dev/acme-notes', branch: 'feature/export-csv', head: '3f9c2a1d0b7e4c55aa10ffee00112233deadbeef' }
  const rows: Array<{ name: string; id: Identity; here: Here; want: IdentityVerdict }> = [
    { name: 'same repo, branch and head', id: FULL, here, want: { kind: 'match', notes: [] } },
    {
      name: 'trailing slash on either side',
      id: id({ repo_path: '/home/dev/acme-notes/' }),
      here: { ...here, root: '/home/dev/acme-notes//' },
      want: { kind: 'match', notes: [] },
    },
    { name: 'abbreviated head is the same commit', id: id({ head: '3F9C2A1' }), here, want: { kind: 'match', notes: [] } },
    { name: 'nothing known here: no notes', id: FULL, here: { root: here.root }, want: { kind: 'match', notes: [] } },
    {
      name: 'branch differs',
      id: FULL,
      here: { ...here, branch: 'main' },
      want: { kind: 'match', notes: ['The narrative was written on branch feature/export-csv, now on main.'] },
    },
    {
      name: 'head differs: short shas',
      id: FULL,
      here: { ...here, head: 'aaaabbbbccccddddeeeeffff0000111122223333' },
      want: { kind: 'match', notes: ['The narrative was written at commit 3f9c2a1, HEAD is now aaaabbb.'] },
    },
    {
      name: 'both differ: branch note first',
      id: FULL,
      here: { root: here.root, branch: 'main', head: '0123456789' },
      want: {
        kind: 'match',
        notes: ['The narrative was written on branch feature/export-csv, now on main.', 'The narrative was written at commit 3f9c2a1, HEAD is now 0123456.'],
      },
    },
    {
      name: 'Windows drive path: case, slashes and trailing separator',
      id: id({ repo_path: 'c:\\Users\\Dev\\Acme\\' }),
      here: { root: 'C:/users/dev/acme' },
      want: { kind: 'match', notes: [] },
    },
    {
      name: 'Git Bash spelling of a Windows root',
      id: id({ repo_path: '/c/Users/dev/acme' }),
      here: { root: 'C:\\Users\\dev\\acme' },
      want: { kind: 'match', notes: [] },
    },
    {
      name: 'POSIX paths stay case-sensitive',
      id: id({ repo_path: '/home/dev/Acme-Notes' }),
      here,
      want: {
        kind: 'foreign',
        warning: 'The bookmark narrative was written for another repository (/home/dev/Acme-Notes), not this one (/home/dev/acme-notes); it was not loaded.',
      },
    },
    {
      name: 'a sibling repository is foreign',
      id: id({ repo_path: '/home/dev/acme-notes-old' }),
      here,
      want: {
        kind: 'foreign',
        warning:
          'The bookmark narrative was written for another repository (/home/dev/acme-notes-old), not this one (/home/dev/acme-notes); it was not loaded.',
      },
    },
    { name: 'no repo_path', id: { scope: 'repo', project: 'acme-notes' }, here, want: { kind: 'invalid', reason: 'the identity has no repo_path' } },
    {
      name: 'home scope where a repo narrative is expected',
      id: { scope: 'home', points_to_canonical: '/home/dev/acme-notes/.bookmark/bookmark.context.md' },
      here,
      want: { kind: 'invalid', reason: 'the identity has scope home, expected repo (a home pointer is not a narrative)' },
    },
  ]
  it.each(rows)('$name', (row) => {
    expect(checkIdentity(row.id, row.here)).toEqual(row.want)
  })
})
