/// <reference types="vite/client" />

/** Build-time settings of the web app; both are optional. */
interface ImportMetaEnv {
  /** Where a signed-in user lands; defaults to the partner build's path from contracts. */
  readonly VITE_DEFAULT_LANDING_PATH?: string;
  /** The language used when the user has not chosen one; `id` or `en`. */
  readonly VITE_DEFAULT_LANGUAGE?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
