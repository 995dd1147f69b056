/** Opens a URL in the person's browser with the platform's opener; a missing opener is no failure. */
import { spawn } from 'node:child_process'

export function openBrowser(url: string, platform: NodeJS.Platform = process.platform): void {
  const [cmd, args] =
    platform === 'darwin' ? ['open', [url]] : platform === 'win32' ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]] : ['xdg-open', [url]]
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true, windowsHide: true })
    child.on('error', () => undefined)
    child.unref()
  } catch {
    // No opener here: the printed address is enough.
  }
}
