/** Names shared by every layer. */

/** The per-project store folder. */
export const STORE_DIR = '.bookmark'
