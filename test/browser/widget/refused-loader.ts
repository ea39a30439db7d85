// A bundler's loader of a file on demand, on a page whose Trusted Types refuse the file's
// <script>, as webpack 5's and Rspack 2's chunk loader does (their JSONP runtime, as built): it
// marks the chunk as loading, with a promise, before it sets its <script>'s src, which Trusted
// Types refuse with a throw. The mark stays: every later import() of the chunk is handed that
// promise, which nothing ever settles.

/** The browser's reason, as Chromium words it. */
export const REFUSED = "This document requires 'TrustedScriptURL' assignment.";

/** Such a loader, to stand in for one of the widget's, and how often it was asked. */
export function refusedLoader(): { load: () => Promise<never>; asked: () => number } {
  let asked = 0;
  let loading: Promise<never> | undefined;
  return {
    load: () => {
      asked++;
      if (loading) return loading;
      loading = new Promise<never>(() => {});
      throw new TypeError(REFUSED);
    },
    asked: () => asked,
  };
}
