// What follows a process answer that is not yet an outcome (src/next-step: a 3DS challenge
// in its iframe, a bank's or a full-page 3DS redirect, a boleto voucher), with its styles:
// loaded once a payment is sent, as only a payment can need it.
export { actionFor, nextStepStyles as styles, runAction } from '../../next-step/index.ts';
// And a step left open when the widget loads again, shown again (a reload mid-challenge).
export { reopen } from '../checkout/resume.ts';
