/**
 * Projects as a search names them: a project is the working directory of its sessions (any host, any platform:
 * `/src/app`, `D:\\repo`). A name matches the folder's name, the repository a worktree belongs to, or a configured
 * alias (config/aliases.ts), which stands for project paths or other names.
 */

/** What `--project` asks for: a path (that folder and its subfolders), or a name and what its alias stands for. */
export interface ProjectWant {
  path?: string
  name?: string
  /** The paths and names a configured alias of `name` stands for. */
  alias?: { paths: string[]; names: string[] }
}

const parts = (project: string): string[] => project.split(/[\\/]/).filter((x) => x !== '')

/** A project's folder name, whichever separator its path uses (a Windows session's `D:\\repo`). */
export function projectName(project: string): string {
  const p = parts(project)
  return p[p.length - 1] ?? ''
}

/**
 * The repository a worktree belongs to, by its folder name: `/src/cli/.worktrees/ent-95` and
 * `D:\\oh-my-posh\\.claude\\worktrees\\x` are worktrees of `cli` and `oh-my-posh`. The project's own name otherwise.
 */
export function repoName(project: string): string {
  const p = parts(project)
  const at = p.findIndex((x, i) => x === '.worktrees' || (x === 'worktrees' && p[i - 1] === '.claude'))
  if (at > 0) return p[p[at - 1] === '.claude' ? at - 2 : at - 1] ?? ''
  return p[p.length - 1] ?? ''
}

/** `project` is `root` or inside it, with either separator (a root given with a trailing one too). */
export function isUnder(project: string, root: string): boolean {
  const r = root.replace(/[\\/]+$/, '')
  return project !== '' && (project === r || project.startsWith(`${r}/`) || project.startsWith(`${r}\\`))
}

const named = (project: string, name: string): boolean => {
  const n = name.toLowerCase()
  // Either name is a part of the path (lower-casing a part between separators gives what it gives in the path): most
  // projects are ruled out without splitting their paths, which orientation did for each segment's hundred-odd.
  if (!project.toLowerCase().includes(n)) return false
  return projectName(project).toLowerCase() === n || repoName(project).toLowerCase() === n
}

/** A project wanted by path (that folder and its subfolders) or by name (its folder name, its repository's, an alias). */
export function projectMatches(project: string, want: ProjectWant): boolean {
  if (want.path !== undefined && isUnder(project, want.path)) return true
  if (want.name !== undefined && named(project, want.name)) return true
  if (want.alias) {
    if (want.alias.paths.some((p) => isUnder(project, p))) return true
    if (want.alias.names.some((n) => named(project, n))) return true
  }
  return false
}
