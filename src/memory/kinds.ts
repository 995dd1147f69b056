/** The kinds of search events, apart from events.ts so that a search loads none of the extraction and redaction code. */
export const EVENT_KINDS = ['request', 'reply', 'command', 'file', 'tool', 'commit', 'error', 'subagent', 'compaction', 'title', 'wrapup'] as const
export type EventKind = (typeof EVENT_KINDS)[number]
