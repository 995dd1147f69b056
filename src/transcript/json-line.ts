/** The part every host's line parser shares: one JSON object a line, read without ever throwing. */
import { type Json, isObject } from '../shared/json.js'
import type { ParsedLine } from './types.js'

export const SKIPPED: ParsedLine = { entries: [], ok: false }

/** A LineParser from what a host makes of one record: blank lines are fine, anything else not an object is skipped. */
export function jsonLineParser(parseRecord: (record: Json, line: number) => ParsedLine): (text: string, line: number) => ParsedLine {
  return (text, line) => {
    const trimmed = text.trim()
    if (trimmed === '') return { entries: [], ok: true }
    if (trimmed[0] !== '{') return SKIPPED
    let record: unknown
    try {
      record = JSON.parse(trimmed)
    } catch {
      return SKIPPED
    }
    if (!isObject(record)) return SKIPPED
    try {
      return parseRecord(record, line)
    } catch {
      return SKIPPED
    }
  }
}
