/**
 * Where the handler is mounted and who may call it: `publicUrl`, `basePath`,
 * `allowedOrigins` and `maxBodyBytes`.
 */
import { httpUrl, refuse, shown, wholeNumber } from './check.ts';
import type { PaymentHandlerOptions } from './types.ts';

/** Bodies the widget sends are a few hundred bytes; 16 KiB leaves room and stops floods. */
export const MAX_BODY_BYTES = 16 * 1024;
/** A cap above which the cap means nothing: no payment body comes near it. */
const MAX_BODY_BYTES_CEILING = 16 * 1024 * 1024;

export interface ResolvedMount {
  /** Absolute, without a trailing slash. */
  publicUrl: string;
  /** `''` or a path starting with `/`, without a trailing slash. */
  basePath: string;
  allowedOrigins: ReadonlySet<string>;
  maxBodyBytes: number;
}

type MountOptions = Pick<
  PaymentHandlerOptions,
  'publicUrl' | 'basePath' | 'allowedOrigins' | 'maxBodyBytes'
>;

export function resolveMount(options: MountOptions): ResolvedMount {
  const url = httpUrl('publicUrl', options.publicUrl);
  const publicUrl = url.href.replace(/\/+$/, '');
  // One fact, one place: the routes are where the browser and the provider reach them,
  // unless a gateway in front cuts the start of that path off before the handler sees it
  // (API Gateway's REST API its stage, `/prod`): then basePath is the end that is left.
  const publicPath = url.pathname.replace(/\/+$/, '');
  const given = options.basePath ?? publicPath;
  if (typeof given !== 'string' || (given !== '' && !given.startsWith('/'))) {
    refuse('basePath', 'a path that starts with /', given);
  }
  const seen = given.replace(/\/+$/, '');
  // Both start with `/`: an end of the one is whole segments of it.
  if (!publicPath.endsWith(seen)) {
    refuse(
      'basePath',
      `publicUrl's path, ${shown(publicPath)} (its default: leave it out), or the end of it a gateway passes on`,
      given,
    );
  }
  const origins = options.allowedOrigins;
  if (!Array.isArray(origins) || origins.length === 0) {
    throw new TypeError(
      'createPaymentHandler: allowedOrigins must list the origins of the pages that show the widget',
    );
  }
  return {
    publicUrl,
    basePath: seen,
    allowedOrigins: new Set(
      origins.map((origin, i) => httpUrl(`allowedOrigins[${i}]`, origin).origin),
    ),
    maxBodyBytes: wholeNumber(
      'maxBodyBytes',
      options.maxBodyBytes,
      MAX_BODY_BYTES,
      1,
      MAX_BODY_BYTES_CEILING,
    ),
  };
}
