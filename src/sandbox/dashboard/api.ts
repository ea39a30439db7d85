// The dashboard's calls to its own sandbox. Same origin only, authenticated by the session
// cookie the sandbox set (the page never holds a key); a 401 means "sign in first".

/**
 * A sandbox path (`/sandbox/overview`) as the page asks for it: relative to the page, which is
 * the sandbox's root, so a sandbox served under a path prefix (the static site's Service
 * Worker) is reached there too.
 */
export const fromPage = (path: string): string => `.${path}`;

/** A refused call, with the provider's `{ error_code, message, param? }` when there is one. */
export class ApiFailure extends Error {
  override name = 'ApiFailure';
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

async function failure(res: Response): Promise<ApiFailure> {
  let message = `HTTP ${res.status}`;
  try {
    const body = (await res.json()) as { message?: unknown; param?: unknown };
    if (typeof body.message === 'string') message = body.message;
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  return new ApiFailure(res.status, message);
}

export async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(fromPage(path), {
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  if (!res.ok) throw await failure(res);
  return (await res.json()) as T;
}

/** A change: POST, PUT or DELETE with an optional JSON body. */
export async function send(method: string, path: string, body?: unknown): Promise<void> {
  const res = await fetch(fromPage(path), {
    method,
    credentials: 'same-origin',
    headers: {
      accept: 'application/json',
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw await failure(res);
  await res.body?.cancel();
}

/** Trades the key for the session cookie; the key goes no further than this request. */
export async function signIn(key: string): Promise<void> {
  const res = await fetch(fromPage('/sandbox/session'), {
    method: 'POST',
    credentials: 'same-origin',
    headers: { authorization: `Bearer ${key}` },
  });
  if (!res.ok) throw await failure(res);
}

/** The message to show for a failed action. */
export const describe = (error: unknown): string =>
  error instanceof Error ? error.message : 'Something went wrong';

/** Tells the dashboard's status line what an action came to (see `<sandbox-dashboard>`). */
export interface NoticeDetail {
  message: string;
  error: boolean;
}

export const NOTICE_EVENT = 'sandbox-notice';

/** Runs an action and announces its outcome: `done` on success, the sandbox's reason if not. */
export async function act(
  from: HTMLElement,
  done: string,
  run: () => Promise<void>,
): Promise<void> {
  let detail: NoticeDetail;
  try {
    await run();
    detail = { message: done, error: false };
  } catch (error) {
    detail = { message: describe(error), error: true };
  }
  from.dispatchEvent(
    new CustomEvent<NoticeDetail>(NOTICE_EVENT, { detail, bubbles: true, composed: true }),
  );
}
