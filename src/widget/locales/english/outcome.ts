// A payment's outcome, and what happens next while it has none yet: the pay part's
// (src/widget/parts/pay.ts). The step part (src/widget/parts/step.ts), which only loads
// after it, reads the last two for a step the widget finds open again.
export const outcomeWords = {
  success: 'Payment successful',
  // Under "Payment successful".
  paid: 'You paid {amount}',
  failure: 'Payment failed',
  // Why a payment failed, under "Payment failed"; and the way to pay the basket after all.
  declined: 'Your card was declined',
  authFailed: 'Authentication failed',
  bankUnreachable: 'Your bank could not be reached',
  noLongerValid: 'This payment is no longer valid',
  tryAnotherCard: 'Try another card',
  // After a bank's method (iDEAL, Bancontact, BLIK) or a boleto failed: not a card.
  tryAnotherWay: 'Try another way to pay',
  pending: 'Payment pending',
  // Under "Payment pending" once the widget has stopped asking (the bank did not answer in
  // time, or the answer was lost): nothing on the page changes by itself any more.
  pendingLater:
    'Your bank has not confirmed the payment yet. Do not pay again: reload this page later to see the outcome.',
  // Under "Payment pending" beside a boleto's voucher.
  pendingVoucher: 'Once you have paid the boleto, its confirmation can take up to 3 working days.',
  // Under "Payment pending" while the widget waits for the bank's answer (it asks every few
  // seconds) for a step it cannot show again.
  pendingWait:
    'If your bank asks you to, confirm the payment in its app. This page updates by itself once your bank answers.',
  // Over "Confirm the payment with your bank" offered again (a reload, Back from the bank).
  resumeWhy: 'Your payment of {amount} is not finished: your bank needs you to confirm it.',
};
