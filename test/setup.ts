/** Runs in every test file (vitest.config.ts, setupFiles): the temp folders of the helpers go when the file ends. */
import { afterAll } from 'vitest'
import { removeTempDirs } from './helpers/tmp.js'

afterAll(() => {
  const failed = removeTempDirs()
  if (failed.length > 0) console.warn(`temp folders not removed:\n${failed.join('\n')}`)
})
