// `dist/integrity.json`: every file of the package that a browser may load, with its
// subresource-integrity hash, its size, when it loads and why it is needed (the inventory a
// payment page's scripts need, and what widgetTags() and `payment-widget check-page` check
// against). The build writes it (scripts/integrity.ts).

/** Who checks a file's bytes before the browser runs them. */
export type CheckedBy =
  /** The browser, against the `integrity` of the page's own <script> tag (widgetTags()). */
  | 'page'
  /** The widget, against the hash built into the file that loads it. */
  | 'widget'
  /** Nobody of ours: a bundler reads the file, and the page serves the bundler's output. */
  | 'your-build'
  /** Nobody: the sandbox's own page loads it, with no `integrity`. */
  | 'sandbox';

export interface ManifestFile {
  /** Its path under `dist/`: `parts/pay.js`. */
  path: string;
  /** `sha384-` and the base64 of its bytes' SHA-384, as a <script integrity> takes it. */
  integrity: string;
  bytes: number;
  /** When a browser loads it. */
  when: string;
  /** Why the widget needs it. */
  why: string;
  checkedBy: CheckedBy;
}

export interface IntegrityManifest {
  name: string;
  version: string;
  files: ManifestFile[];
}

/**
 * What the package's own checks read of integrity.json (widgetTags(), `check-page`): each
 * file's path, hash and checker. The Node build carries only this much, and only for the files
 * the page checks, for widgetTags() (vite.node.config.ts); the words for people, `when` and
 * `why`, and the other files stay in dist/integrity.json, which `check-page` reads.
 */
export interface BuiltFiles {
  name: string;
  version: string;
  files: Pick<ManifestFile, 'path' | 'integrity' | 'checkedBy'>[];
}

/** The two self-contained builds a page loads with a tag of its own: the script tag's, and the ES module. */
export const BUNDLES = {
  script: 'payment-widget.iife.js',
  module: 'payment-widget.js',
} as const;
