// A payment's outcome: the pay part's (src/widget/parts/pay.ts).
export const outcomeWords = {
  success: 'Payment successful',
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
};
