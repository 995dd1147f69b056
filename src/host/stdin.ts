/**
 * Reading a hook payload from stdin without ever waiting on it forever: an open pipe with no data, an
 * empty stdin or a huge payload all end within `timeoutMs`, and the stream is released so the process
 * can exit.
 */
import type { Readable } from 'node:stream'

export interface StdinResult {
  text: string
  /** The payload was larger than `maxBytes`: only its head was kept. */
  truncated: boolean
  /** The pipe stayed open past the timeout. */
  timedOut: boolean
}

export function readStdin(stream: Readable & { isTTY?: boolean }, opts: { timeoutMs?: number; maxBytes?: number } = {}): Promise<StdinResult> {
  const timeoutMs = opts.timeoutMs ?? 1_000
  const maxBytes = opts.maxBytes ?? 16 * 1024 * 1024
  if (stream.isTTY) return Promise.resolve({ text: '', truncated: false, timedOut: false })
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    let truncated = false
    let done = false
    const finish = (timedOut: boolean): void => {
      if (done) return
      done = true
      clearTimeout(timer)
      stream.removeListener('data', onData)
      stream.removeListener('end', onEnd)
      stream.removeListener('error', onEnd)
      if (timedOut || truncated) {
        stream.pause()
        stream.destroy()
      }
      resolve({ text: Buffer.concat(chunks, Math.min(size, maxBytes)).toString('utf8'), truncated, timedOut })
    }
    const onData = (chunk: Buffer | string): void => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      if (size + buf.length > maxBytes) {
        chunks.push(buf.subarray(0, maxBytes - size))
        size = maxBytes
        truncated = true
        finish(false)
        return
      }
      chunks.push(buf)
      size += buf.length
    }
    const onEnd = (): void => finish(false)
    const timer = setTimeout(() => finish(true), timeoutMs)
    timer.unref?.()
    stream.on('data', onData)
    stream.on('end', onEnd)
    stream.on('error', onEnd)
  })
}
