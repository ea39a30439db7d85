/**
 * 405 with `Allow` for a path whose routes exist but not for this method (Hono's
 * method-not-allowed middleware), answered as JSON in the app's own error shape.
 */
import type { Env, Hono, MiddlewareHandler } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { json } from './json.ts';

/** Register it before the routes: it reads the app's route table on first use. */
export function methodNotAllowedJson<E extends Env>(
  // biome-ignore lint/suspicious/noExplicitAny: any app's route table will do, whatever its schema
  app: Hono<E, any, any>,
  errorBody: (code: 'METHOD_NOT_ALLOWED', message: string) => unknown,
): MiddlewareHandler<E> {
  return methodNotAllowed<E>({
    app,
    onMethodNotAllowed: (c, methods) => {
      // Hono answers HEAD from GET and preflights in its CORS middleware: Allow names the
      // methods the routes declare.
      const allow = methods.filter((m) => m !== 'HEAD' && m !== 'OPTIONS').join(', ');
      return json(
        errorBody('METHOD_NOT_ALLOWED', `${c.req.method} is not allowed here; use ${allow}`),
        405,
        {
          allow,
        },
      );
    },
  });
}
