/** One finding of `bookmark doctor`, with its fix; the report is all of them. */
export type CheckStatus = 'ok' | 'warn' | 'error' | 'info'

export interface Check {
  id: string
  status: CheckStatus
  message: string
  fix?: string
}

export interface DoctorReport {
  ok: boolean
  checks: Check[]
}
