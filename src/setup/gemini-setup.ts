/** Setup's words for Gemini CLI, and whether it is installed (a `gemini` on PATH, or its folder). */
import { stat } from 'node:fs/promises'
import { onPath } from '../shared/which.js'
import { MCP_NAME, geminiDir } from './gemini.js'

/** Why setup takes Gemini CLI to be installed (a `gemini` on PATH, or `~/.gemini` / `$GEMINI_CLI_HOME/.gemini`), or undefined. */
export async function geminiFound(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const bin = await onPath('gemini', env)
  if (bin) return `\`gemini\` on PATH (${bin})`
  const dir = geminiDir(env)
  if ((await stat(dir).catch(() => undefined))?.isDirectory()) return dir
  return undefined
}

/** `base` (the hooks lines) and the MCP server. */
export function geminiSetupLines(r: { dryRun: boolean; mcp?: boolean }, base: string): string[] {
  const lines = [base]
  if (r.mcp) lines.push(`${r.dryRun ? 'would register' : 'registered'} \`bookmark mcp\` as Gemini's MCP server "${MCP_NAME}" (mcpServers, user scope)`)
  return lines
}

export function geminiUninstallLine(path: string, dryRun: boolean): string {
  return `${dryRun ? 'would take' : 'took'} the MCP server "${MCP_NAME}" out of ${path}`
}
