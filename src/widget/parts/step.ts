// What follows a process answer that is not yet an outcome (src/next-step: a 3DS challenge
// in its iframe, a bank's page or a full-page challenge to go to, a boleto's voucher), and a
// step that a checkout left open, shown again when the widget loads again: loaded by the pay
// part (../checkout/steps.ts) when an answer or a pending checkout calls for one, as only
// those do. A payment the provider settles at once never loads it. Its styles and its English
// words come with it.
import { nextStepStyles } from '../../next-step/styles.ts';
import { stepWords } from '../locales/english/step.ts';

export { runAction } from '../../next-step/index.ts';

export const styles = nextStepStyles;

export const words = stepWords;
