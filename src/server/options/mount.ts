/**
 * Where the handler is mounted and who may call it: `publicUrl`, `basePath`,
 * `allowedOrigins` and `maxBodyBytes`.
 */
import { httpUrl, refuse, wholeNumber } from './check.ts';
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
  const publicUrl = httpUrl('publicUrl', options.publicUrl).href.replace(/\/+$/, '');
  const given = options.basePath ?? '/payments';
  if (typeof given !== 'string' || (given !== '' && !given.startsWith('/'))) {
    refuse('basePath', 'a path that starts with /', given);
  }
  const origins = options.allowedOrigins;
  if (!Array.isArray(origins) || origins.length === 0) {
    throw new TypeError(
      'createPaymentHandler: allowedOrigins must list the origins of the pages that show the widget',
    );
  }
  return {
    publicUrl,
    basePath: given.replace(/\/+$/, ''),
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
