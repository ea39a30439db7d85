// The widget's pay part held back, as a slow network brings it after the form: while the
// `pay-part` command last said `held`, a request for its module (src/widget/parts/pay.ts,
// which the sources import() on demand) waits until the command says `release`. The command
// resolves with how many requests for it were held since the runner started. The module is
// never kept by the browser (`no-store`, no ETag, `Vary: *`), so that each test page asks for
// it: Firefox otherwise took it from its cache, unasked, once another file's tests had loaded
// it (`no-store` alone did not stop it).

const PATH = '/src/widget/parts/pay.ts';

export function payPart() {
  let held = [];
  let holding = false;
  let count = 0;
  const middleware = async (ctx, next) => {
    if (ctx.path !== PATH) return next();
    if (holding) {
      count += 1;
      await new Promise((resolve) => held.push(resolve));
    }
    await next();
    ctx.set('cache-control', 'no-store');
    ctx.remove('etag');
    ctx.set('vary', '*');
  };
  const plugin = {
    name: 'pay-part',
    executeCommand({ command, payload }) {
      if (command !== 'pay-part') return undefined;
      if (payload === 'held') holding = true;
      if (payload === 'release') {
        holding = false;
        for (const answer of held) answer();
        held = [];
      }
      return { held: count };
    },
  };
  return { middleware, plugin };
}
