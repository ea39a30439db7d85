// A file of the widget that does not answer at first, as in an outage, then does: while the
// `flaky-part` command's `fails` are not spent, a request for FLAKY_PART (below the sources'
// "bundle" folder, where the widget's Trusted Types policy admits script URLs) gets a 404;
// after, it gets the command's `body` as JavaScript. Whatever the query, as a static server
// answers a file. The command resolves with the requests for it since it was last given.
// Never kept by the browser (`no-store`, `Vary: *`), so each try asks.

const PATH = '/src/shared/flaky-part.js';

export function flakyPart() {
  let fails = 0;
  let body = '';
  let asked = [];
  const middleware = async (ctx, next) => {
    if (ctx.path !== PATH) return next();
    asked.push(ctx.url);
    ctx.set('cache-control', 'no-store');
    ctx.set('vary', '*');
    if (fails > 0) {
      fails -= 1;
      ctx.status = 404;
      return;
    }
    ctx.type = 'text/javascript';
    ctx.body = body;
  };
  const plugin = {
    name: 'flaky-part',
    executeCommand({ command, payload }) {
      if (command !== 'flaky-part') return undefined;
      if (payload) {
        ({ fails, body } = payload);
        asked = [];
      }
      return { asked };
    },
  };
  return { middleware, plugin };
}
