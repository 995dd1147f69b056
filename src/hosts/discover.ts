/**
 * A session of a folder found in every host's store when nobody said whose it is (`bookmark snapshot` without
 * `--transcript` or `--host`): Claude Code's projects folder, Codex's sessions and archived sessions, Gemini's chats.
 */
import { stat } from 'node:fs/promises'
import { DiscoveryError } from '../shared/errors.js'
import type { Discovery, Host } from './host.js'
import { hostOf } from './index.js'

const ALL: readonly Host[] = [hostOf('claude'), hostOf('codex'), hostOf('gemini')]

const PASS = /;\s*pass --transcript PATH\s*$/

/**
 * The session of `sessionId` in whichever host has it, or else the most recently written session of `cwd` of all
 * hosts. Throws a DiscoveryError saying where each host was looked in when none has one.
 */
export async function discoverAnyHost(
  cwd: string,
  sessionId: string | undefined,
  env: NodeJS.ProcessEnv,
  hosts: readonly Host[] = ALL,
): Promise<{ host: Host; found: Discovery }> {
  const tried = await Promise.all(
    hosts.map(async (host) => {
      try {
        const found = await host.findTranscript(cwd, sessionId, env)
        const mtime = await stat(found.path).then(
          (s) => s.mtimeMs,
          () => 0,
        )
        return { host, found, mtime }
      } catch (e) {
        if (!(e instanceof DiscoveryError)) throw e
        return { host, error: e.message.replace(PASS, '') }
      }
    }),
  )
  const hits = tried.flatMap((t) => ('found' in t && t.found ? [t as { host: Host; found: Discovery; mtime: number }] : []))
  if (hits.length === 0) {
    const why = tried.map((t) => ('error' in t ? t.error : '')).filter((m) => m !== '')
    throw new DiscoveryError(`${why.join('; ')}; pass --transcript PATH`)
  }
  // The newest file; on a tie, the host listed first.
  const best = hits.reduce((a, b) => (b.mtime > a.mtime ? b : a))
  if (hits.length === 1 || sessionId !== undefined) return { host: best.host, found: best.found }
  const others = hits.filter((h) => h !== best).map((h) => h.host.name)
  const note = `${best.found.note ?? `picked ${best.found.path}`} (${best.host.name}: newer than the latest ${others.join(' and ')} session of this folder)`
  return { host: best.host, found: { ...best.found, note } }
}
