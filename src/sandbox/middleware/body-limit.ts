// The one body cap of the sandbox, mounted on every route that takes a body, after its access
// rule (a request without a key hears 401 whatever its size). It keeps no state of its own.

import { limitBody } from '../../http/body.ts';

/** 64 KiB is far above any real request of this API and small enough to refuse floods early. */
export const BODY_LIMIT = 64 * 1024;

export const capBody = limitBody(BODY_LIMIT);
