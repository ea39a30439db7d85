/**
 * Loading `@opentelemetry/api`, the handler's optional peer. It is imported once, when a
 * handler is made, and never at the top of a module: where it is not installed (most shops
 * without OpenTelemetry, the edge-runtime bundles) `payment-widget/server` must import and run
 * all the same, recording nothing. Its name is not a literal for the same reason undici's is
 * not (provider/exchange.ts): a merchant's bundler (esbuild under wrangler, webpack, Vite)
 * would otherwise try to resolve it at build time and fail where it is not installed.
 */
import type * as OtelApi from '@opentelemetry/api';

export type Api = typeof OtelApi;

const OTEL_API = '@opentelemetry/api';

/** The API module, or undefined where it cannot be imported (not installed, no `import()`). */
export async function loadApi(): Promise<Api | undefined> {
  try {
    const loaded = (await import(/* webpackIgnore: true */ /* @vite-ignore */ OTEL_API)) as
      | Api
      | { default?: Api };
    // Node imports the package's CommonJS build: its exports may sit on `default` only.
    const api = 'trace' in loaded ? loaded : loaded.default;
    return typeof api?.trace?.getTracerProvider === 'function' ? api : undefined;
  } catch {
    return undefined;
  }
}
