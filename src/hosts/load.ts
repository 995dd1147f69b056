/**
 * A host by id with only its own code loaded: the Codex and Gemini hosts are chunks of their own in a hook's build,
 * read and compiled only by the hooks and captures of that host (hosts/index.ts imports all three: for commands).
 */
import { claudeHost } from './claude/host.js'
import type { Host, HostId } from './host.js'

export async function loadHost(id: HostId): Promise<Host> {
  switch (id) {
    case 'claude':
      return claudeHost
    case 'codex':
      return (await import('./codex/host.js')).codexHost
    case 'gemini':
      return (await import('./gemini/host.js')).geminiHost
  }
}
