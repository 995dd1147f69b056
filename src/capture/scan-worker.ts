/** The worker of scan.ts, built alone as dist/cli/scan-worker.cjs: one scan, its result posted back. */
import { parentPort, workerData } from 'node:worker_threads'
import { reviveState } from '../extract/model.js'
import { type ScanInput, type ScanReply, scanHere } from './scan.js'

async function main(input: ScanInput): Promise<ScanReply> {
  try {
    const state = input.state ? reviveState(input.state) : undefined
    return { ok: true, scan: await scanHere({ ...input, state }) }
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e))
    const { code, errno, syscall, path } = err as NodeJS.ErrnoException
    return { ok: false, error: { name: err.name, message: err.message, code, errno, syscall, path } }
  }
}

void main(workerData as ScanInput).then((reply) => parentPort!.postMessage(reply))
