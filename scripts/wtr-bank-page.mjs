// A bank's page that the browser tests can hold back or cut off: what a slow or dropped network
// does to a 3-D Secure challenge's frame. `GET /bank-page` answers as the `bank-page` command
// last said: `up` at once, `held` once the command says `release` (a slow network), `down`
// by dropping the connection unanswered (the engine shows its own error page in the frame).
// The command resolves with how many times the page was served, and how many times a request
// for it was dropped.

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bank page</title></head>
<body><main><h1>Your bank</h1><p>Approve this payment.</p></main></body></html>`;

export function bankPage() {
  let state = 'up';
  let served = 0;
  let dropped = 0;
  /** Answers of requests held back, run at `release`. */
  let held = [];
  const middleware = async (ctx, next) => {
    if (ctx.path !== '/bank-page') return next();
    if (state === 'down') {
      dropped += 1;
      ctx.status = 204;
      ctx.respond = false;
      ctx.req.socket.destroy();
      return;
    }
    if (state === 'held') await new Promise((resolve) => held.push(resolve));
    served += 1;
    ctx.type = 'html';
    ctx.set('cache-control', 'no-store');
    ctx.body = PAGE;
  };
  const plugin = {
    name: 'bank-page',
    executeCommand({ command, payload }) {
      if (command !== 'bank-page') return undefined;
      if (payload === 'release') {
        state = 'up';
        for (const answer of held) answer();
        held = [];
      } else if (payload === 'reset') {
        state = 'up';
        served = 0;
        dropped = 0;
      } else if (payload !== 'count') state = payload;
      return { served, dropped };
    },
  };
  return { middleware, plugin };
}
