/**
 * Every transcript on the machine, by host: Claude Code's `projects/<folder>/<session>.jsonl` (and a session's
 * subagent files, `projects/<folder>/<session>/subagents/*.jsonl`, counted under that session) and Codex's
 * rollouts in `sessions/YYYY/MM/DD/` and `archived_sessions/`.
 */
import { basename, join, sep } from 'node:path'
import { nodeModule } from '../shared/builtin.js'
import { claudeConfigDir } from '../hosts/claude/transcripts.js'
import { codexHome, readHead } from '../hosts/codex/transcripts.js'
import { codexSessionId } from '../hosts/codex/sniff.js'
import type { HostId } from '../hosts/host.js'

export interface TranscriptSource {
  path: string
  host: HostId
  session: string
}

function fastGlob(): typeof import('fast-glob') {
  const req = typeof require === 'function' ? require : nodeModule().createRequire(import.meta.url)
  return req('fast-glob') as typeof import('fast-glob')
}

const glob = (pattern: string, cwd: string, deep: number): Promise<string[]> =>
  fastGlob()(pattern, { cwd, absolute: true, onlyFiles: true, suppressErrors: true, followSymbolicLinks: false, deep })

export async function claudeSources(env: NodeJS.ProcessEnv): Promise<TranscriptSource[]> {
  const root = join(claudeConfigDir(env), 'projects')
  const out: TranscriptSource[] = []
  for (const path of await glob('**/*.jsonl', root, 5)) {
    const parts = path.slice(root.length + 1).split(sep)
    if (parts.length === 2) out.push({ path, host: 'claude', session: basename(path, '.jsonl') })
    else if (parts.length >= 4 && parts[2] === 'subagents') out.push({ path, host: 'claude', session: parts[1]! })
  }
  return out.sort((a, b) => a.path.localeCompare(b.path))
}

export async function codexSources(env: NodeJS.ProcessEnv): Promise<TranscriptSource[]> {
  const home = codexHome(env)
  const out: TranscriptSource[] = []
  for (const dir of ['sessions', 'archived_sessions']) {
    for (const path of await glob('**/*.jsonl', join(home, dir), 5)) {
      let session = codexSessionId(path)
      if (session === undefined) {
        try {
          session = codexSessionId(path, await readHead(path))
        } catch {
          session = undefined
        }
      }
      out.push({ path, host: 'codex', session: session ?? basename(path, '.jsonl') })
    }
  }
  return out.sort((a, b) => a.path.localeCompare(b.path))
}

export async function allSources(env: NodeJS.ProcessEnv): Promise<TranscriptSource[]> {
  return [...(await claudeSources(env)), ...(await codexSources(env))]
}
