// The widget's pay part held back by the runner (scripts/wtr-pay-part.mjs), as a slow network
// brings it after the form. A file of tests that holds it has one test: a page fetches the
// part once, so a test before it would have brought it already.
import { executeServerCommand } from '@web/test-runner-commands';
import type { PaymentWidget } from '../../../src/index.ts';
import { until } from '../../shared/until.ts';
import { type FakeBackend, widget } from './fake-backend.ts';

/** Holds the pay part back, or lets it come; resolves with how many requests were held. */
export const payPart = (state: 'held' | 'release') =>
  executeServerCommand<{ held: number }, string>('pay-part', state);

/**
 * A widget for `chk_1`, its form drawn and its pay part asked for and held: the element, and
 * how many requests for the part it made (the runner counts from its own start, where another
 * file's page may have been held before).
 */
export async function heldBeforePayPart(
  backend: FakeBackend,
): Promise<{ el: PaymentWidget; held: number }> {
  const before = (await payPart('held')).held;
  const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'none' });
  const form = () => el.shadowRoot?.querySelector('form');
  await until('the form drawn, no longer its placeholder', () => form()?.inert === false);
  // The part is asked for right after the form's first paint, and held: what follows happens
  // before it comes. (The request may reach the runner after the form is drawn.)
  let held = 0;
  await until(
    () => `the pay part asked for (held: ${held})`,
    async () => {
      held = (await payPart('held')).held - before;
      return held > 0;
    },
  );
  return { el, held };
}
