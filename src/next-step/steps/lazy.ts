// The next steps that load when they are needed, from beside the bundle (`steps/`, as the
// locales ship in `locales/`): a boleto voucher shows only after a boleto payment, and the
// full-page steps (a 3DS page, a bank's page) only as the page is about to leave. The
// script-tag build stays within its size budget without their code. The ES entry that
// bundlers take (dist/index.js) uses eager.ts instead (vite.module.config.ts), so a
// merchant's bundler splits it as it likes and nothing more needs serving.
import { besideBundle } from '../bundle-url.ts';
import type { StepHandler } from '../handler.ts';
import type { Action } from '../types.ts';

/** The handler exported as `name` from `handlers/{file}` (source) or `steps/{file}.js` (build). */
function lazy<K extends Action['kind']>(file: K, name: string): StepHandler<K> {
  return (action, ctx) =>
    import(
      /* @vite-ignore */ besideBundle(`next-step/handlers/${file}.ts`, `./steps/${file}.js`)
    ).then((module: Record<string, StepHandler<K>>) =>
      (module[name] as StepHandler<K>)(action, ctx),
    );
}

const loadVoucher = lazy('voucher', 'voucher');

export const voucher: StepHandler<'voucher'> = (action, ctx) =>
  // Not served beside the bundle: the boleto is issued all the same, and the payment waits.
  loadVoucher(action, ctx).catch(() => ({ kind: 'pending', checkout: action.checkout }));

export const apmRedirect = lazy('apm-redirect', 'apmRedirect');
export const challengeRedirect = lazy('challenge-redirect', 'challengeRedirect');
