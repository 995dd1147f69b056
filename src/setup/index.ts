/** Wiring our hooks into Claude Code settings, taking them out again, and reporting on them. */
export {
  type SetupHost,
  type SetupOptions,
  type SetupResult,
  type UninstallOptions,
  type UninstallResult,
  runSetup,
  runUninstall,
  setupCommand,
  uninstallCommand,
} from './command.js'
export { HOOK_EVENTS, type HookEvent, type HookName, type Launch, OUR_HOOKS, desiredHandler, ourHookName } from './hooks.js'
export { type HookStatus, type SettingsInspection, inspectSettings } from './inspect.js'
export { currentLaunch, packageEntry, projectSettingsPath, userSettingsPath } from './settings.js'
