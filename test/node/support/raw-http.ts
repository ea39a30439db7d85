// HTTP/1.1 below every client library: bytes written on a socket and the answer read back
// as it came (status line, every header line in order, the body de-chunked), so a test can
// see what a careful client sees: Content-Length or chunking, repeated Set-Cookie lines.
import { connect } from 'node:net';

/**
 * What the client does once its bytes are written: `wait` for the server to close the
 * connection (send `Connection: close`), `hang up` at once, or `end` its side (half-close)
 * and go on reading. Node's server drops a request whose client half-closed, so `wait` is
 * what an ordinary request needs.
 */
type AfterWrite = 'wait' | 'hang up' | 'end';

/**
 * Writes `bytes`, does `afterWrite`, and returns whatever came back (latin1) by the time
 * the connection closes.
 */
export function rawExchange(
  url: string,
  bytes: string,
  afterWrite: AfterWrite = 'wait',
): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    socket.setTimeout(3_000, () => socket.destroy());
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', () => {});
    socket.write(bytes, () => {
      if (afterWrite === 'hang up') socket.destroy();
      else if (afterWrite === 'end') socket.end();
    });
  });
}

export interface RawResponse {
  status: number;
  /** Header lines in order, names lower-cased. */
  headers: [string, string][];
  header(name: string): string | undefined;
  /** The body, de-chunked when it came chunked. */
  body: string;
  chunked: boolean;
}

function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const end = rest.indexOf('\r\n');
    if (end < 0) return out;
    const size = Number.parseInt(rest.slice(0, end), 16);
    if (!Number.isFinite(size) || size === 0) return out;
    out += rest.slice(end + 2, end + 2 + size);
    rest = rest.slice(end + 2 + size + 2);
  }
}

/** The first response in `answer`, or undefined when none came (the server hung up). */
export function parseResponse(answer: string): RawResponse | undefined {
  const split = answer.indexOf('\r\n\r\n');
  if (split < 0) return undefined;
  const [statusLine = '', ...lines] = answer.slice(0, split).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers = lines.map((line): [string, string] => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
  });
  const header = (name: string) => headers.find(([key]) => key === name)?.[1];
  const chunked = header('transfer-encoding')?.toLowerCase() === 'chunked';
  const raw = answer.slice(split + 4);
  const length = header('content-length');
  const body = chunked ? dechunk(raw) : length === undefined ? raw : raw.slice(0, Number(length));
  return { status, headers, header, body, chunked };
}

/** One request line, headers and body, closed after the answer. */
export function requestBytes(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): string {
  const all: Record<string, string> = { host: '127.0.0.1', connection: 'close', ...headers };
  if (body !== undefined && all['transfer-encoding'] === undefined) {
    all['content-length'] = String(Buffer.byteLength(body));
  }
  const head = Object.entries(all)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `${method} ${path} HTTP/1.1\r\n${head}\r\n${body ?? ''}`;
}

/** A chunked body in pieces of `size` bytes. */
export function chunked(body: string, size = 4096): string {
  let out = '';
  for (let i = 0; i < body.length; i += size) {
    const piece = body.slice(i, i + size);
    out += `${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`;
  }
  return `${out}0\r\n\r\n`;
}
