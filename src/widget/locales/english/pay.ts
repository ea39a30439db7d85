// What paying says, and why a payment or a load did not go through: the pay part's
// (src/widget/parts/pay.ts).
export const payWords = {
  fixFields: 'Check the highlighted fields',
  errNotFound: 'This payment was not found.',
  errNoMethods: 'No payment method is available for this payment.',
  errNoCheckout: 'This payment form is missing its checkout.',
  // Over the handler's rate limit; `{minutes}`: its Retry-After, rounded up.
  errTooMany: 'Too many payment attempts. Try again in {minutes}\u00a0min.',
};
