/** The hosts by id: what a worker thread or a stored record names a host by. */
import { claudeHost } from './claude/host.js'
import { codexHost } from './codex/host.js'
import { geminiHost } from './gemini/host.js'
import type { Host, HostId } from './host.js'

export function hostOf(id: HostId): Host {
  switch (id) {
    case 'claude':
      return claudeHost
    case 'codex':
      return codexHost
    case 'gemini':
      return geminiHost
  }
}
