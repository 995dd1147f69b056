import { describe, expect, it } from 'vitest'
import { codexHookHash, headerOf, hookStates, keysNamedElsewhere, ourCodexHooks, planToml, trustHeader, trustLine, trustOf, undoToml } from './codex.js'

describe('Codex hook trust', () => {
  it('hashes a hook as Codex 0.171 does (values reported by the real binary, app-server hooks/list)', () => {
    expect(codexHookHash('SessionStart', undefined, { command: `'/usr/bin/node' -e 'x' /a/bin/bookmark.cjs restore --host codex`, timeout: 15 })).toBe(
      'sha256:8e1131d2e74402080c667803d6f7db6041c6959ced2eec8866fedb840c77dc51',
    )
    expect(codexHookHash('Stop', undefined, { command: `echo 'hi "there"' stop`, timeout: 60 })).toBe(
      'sha256:f57b058c32d40eee6763bf4b110f93dd3ecace34a126614efaded9b598090284',
    )
    expect(codexHookHash('PreCompact', 'auto', { command: 'echo pc', timeout: 60, statusMessage: 'saving' })).toBe(
      'sha256:2eed37b04ceaaf0f951cb57335f3631ef0324eeb672a4a659357d80e38bde4a6',
    )
    // Codex ignores a matcher on Stop and UserPromptSubmit, and fills in the default timeout.
    expect(codexHookHash('Stop', 'x', { command: 'c' })).toBe(codexHookHash('Stop', undefined, { command: 'c', timeout: 600 }))
    expect(codexHookHash('SessionStart', 'x', { command: 'c' })).not.toBe(codexHookHash('SessionStart', undefined, { command: 'c' }))
  })

  it('finds our hooks with the key Codex trusts them by: hooks.json path, event, group and handler index', () => {
    const line = (h: string) => `/usr/bin/node -e 'G' /p/bin/bookmark.cjs ${h} --host codex`
    const text = JSON.stringify({
      hooks: {
        Stop: [
          { hooks: [{ type: 'command', command: 'echo user' }] },
          {
            hooks: [
              { type: 'command', command: 'echo 2' },
              { type: 'command', command: line('stop'), timeout: 60 },
            ],
          },
        ],
        SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: line('restore'), timeout: 15 }] }],
      },
    })
    expect(ourCodexHooks('/c/hooks.json', text)).toEqual([
      {
        event: 'SessionStart',
        hook: 'restore',
        key: '/c/hooks.json:session_start:0:0',
        hash: codexHookHash('SessionStart', 'startup', { command: line('restore'), timeout: 15 }),
        command: line('restore'),
        timeout: 15,
      },
      {
        event: 'Stop',
        hook: 'stop',
        key: '/c/hooks.json:stop:1:1',
        hash: codexHookHash('Stop', undefined, { command: line('stop'), timeout: 60 }),
        command: line('stop'),
        timeout: 60,
      },
    ])
  })
})

describe('config.toml edits', () => {
  const want = [
    { header: trustHeader('/c/hooks.json:stop:0:0'), lines: [trustLine('sha256:aa')], key: 'trusted_hash' },
    { header: '[mcp_servers.bookmark]', lines: ['command = "/n"', 'args = ["/e", "mcp"]'] },
  ]

  it.each([
    ['no file', undefined],
    ['an empty file', ''],
    ['a file without a final newline', 'model = "gpt-5.5"\n[projects."/x"]\ntrust_level = "trusted"'],
    ['a file with comments and blank lines', '# mine\n\nmodel = "o3"   # why\n\n\n[features]\nhooks = true\n\n'],
  ])('appends our tables to %s and takes them out to the same bytes', (_name, text) => {
    const plan = planToml(text, want, undefined)
    expect(plan.changed).toBe(true)
    expect(
      plan.after.endsWith(
        `${trustHeader('/c/hooks.json:stop:0:0')}\ntrusted_hash = "sha256:aa"\n\n[mcp_servers.bookmark]\ncommand = "/n"\nargs = ["/e", "mcp"]\n`,
      ),
    ).toBe(true)
    expect(planToml(plan.after, want, plan.created)).toMatchObject({ changed: false, after: plan.after })
    const undo = undoToml(plan.after, plan.created)
    expect(undo.deleteFile).toBe(text === undefined) // an empty file of the user's stays
    expect(undo.after).toBe(text ?? '')
  })

  it("sets only the hash line of a trust table that was there, puts it back on undo, and leaves another's MCP table", () => {
    const text = `${trustHeader('/c/hooks.json:stop:0:0')}\nenabled = true\ntrusted_hash = "sha256:old"\n\n[mcp_servers.bookmark]\ncommand = "mine"\n`
    const plan = planToml(text, want, undefined)
    expect(plan.after).toBe(
      `${trustHeader('/c/hooks.json:stop:0:0')}\nenabled = true\ntrusted_hash = "sha256:aa"\n\n[mcp_servers.bookmark]\ncommand = "mine"\n`,
    )
    expect(plan.notes).toEqual(["[mcp_servers.bookmark] is already in the file and is not bookmark's: left as it is"])
    expect(undoToml(plan.after, plan.created).after).toBe(text)
  })

  it('moves a trust table when the hook moved, and the user’s lines added after ours stay', () => {
    const first = planToml('a = 1\n', want, undefined)
    const moved = [{ ...want[0]!, header: trustHeader('/c/hooks.json:stop:1:0') }, want[1]!]
    const withUser = `${first.after}\n[profiles.x]\nmodel = "m"\n`
    const second = planToml(withUser, moved, first.created)
    expect(second.after).toBe(
      `a = 1\n\n[mcp_servers.bookmark]\ncommand = "/n"\nargs = ["/e", "mcp"]\n\n[profiles.x]\nmodel = "m"\n\n${trustHeader('/c/hooks.json:stop:1:0')}\ntrusted_hash = "sha256:aa"\n`,
    )
    expect(undoToml(second.after, second.created).after).toBe('a = 1\n\n[profiles.x]\nmodel = "m"\n')
  })

  it('reads the trust states, one table spelled several ways, and keys named in forms it does not edit', () => {
    expect(headerOf(' [ hooks . state . "/c/h.json:stop:0:0" ]  # x')).toBe(trustHeader('/c/h.json:stop:0:0'))
    expect([headerOf("[mcp_servers.'bookmark']"), headerOf('[ mcp_servers."bookmark" ]')]).toEqual(['[mcp_servers.bookmark]', '[mcp_servers.bookmark]'])
    const text = `[hooks.state."/c/h.json:stop:0:0"]\ntrusted_hash = "sha256:aa"\n[hooks.state."/c/h.json:session_start:0:0"]\nenabled = false\ntrusted_hash = "sha256:bb"\n[hooks]\nstate."/c/h.json:pre_compact:0:0".trusted_hash = "sha256:cc"\n`
    const states = hookStates(text)
    const hook = (key: string, hash: string) => ({ event: 'Stop' as const, hook: 'stop' as const, key, hash, command: '' })
    expect(trustOf(hook('/c/h.json:stop:0:0', 'sha256:aa'), states)).toBe('trusted')
    expect(trustOf(hook('/c/h.json:stop:0:0', 'sha256:zz'), states)).toBe('modified')
    expect(trustOf(hook('/c/h.json:session_start:0:0', 'sha256:bb'), states)).toBe('disabled')
    expect(trustOf(hook('/c/h.json:user_prompt_submit:0:0', 'sha256:bb'), states)).toBe('untrusted')
    expect(keysNamedElsewhere(text, ['/c/h.json:stop:0:0', '/c/h.json:pre_compact:0:0', '/c/h.json:new:0:0'])).toEqual(['/c/h.json:pre_compact:0:0'])
  })
})
