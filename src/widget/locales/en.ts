// The English strings, bundled with the element. Every other locale module
// (`./de.ts` and later ones) exports the same keys as a plain object with no
// imports, so it can be loaded at run time beside either build.
//
// `{amount}`, `{last4}`, `{network}`, `{minutes}` are placeholders filled by `format()`.

export const en = {
  cardNumber: 'Card number',
  expiry: 'Expiry date',
  expiryHint: 'MM / YY',
  cvv: 'Security code',
  cardName: 'Name on card',
  zip: 'ZIP code',
  email: 'Email',
  installments: 'Installments',
  firstName: 'First name',
  lastName: 'Last name',
  taxId: 'CPF or CNPJ',
  addressLine: 'Street and number',
  city: 'City',
  state: 'State',
  postalCode: 'Postal code',
  paymentMethod: 'Payment method',
  card: 'Card',
  ideal: 'iDEAL',
  bancontact: 'Bancontact',
  blik: 'BLIK',
  boleto: 'Boleto',
  savedCards: 'Saved cards',
  savedCard: '{network} ending in {last4}',
  newCard: 'Use a new card',
  saveCard: 'Save this card for future payments',
  pay: 'Pay {amount}',
  donate: 'Donate {amount}',
  processing: 'Processing…',
  loading: 'Loading payment form…',
  retry: 'Try again',
  success: 'Payment successful',
  failure: 'Payment failed',
  // Why a payment failed, under "Payment failed"; and the way to pay the basket after all.
  declined: 'Your card was declined',
  authFailed: 'Authentication failed',
  bankUnreachable: 'Your bank could not be reached',
  noLongerValid: 'This payment is no longer valid',
  tryAnotherCard: 'Try another card',
  // After a bank's page or a boleto failed: the shopper paid with no card.
  tryAnotherWay: 'Try another way to pay',
  pending: 'Payment pending',
  redirecting: 'Redirecting…',
  errRequired: 'This field is required',
  errNumber: 'Enter a valid card number',
  errExpiry: 'Enter a valid expiry date',
  errCvv: 'Enter a valid security code',
  errZip: 'Enter a 5-digit ZIP code',
  errEmail: 'Enter a valid email address',
  errTaxId: 'Enter an 11-digit CPF or 14-digit CNPJ',
  errInstallments: 'Choose a number of installments',
  fixFields: 'Check the highlighted fields',
  errNetwork: 'We could not reach the payment service. Check your connection and try again.',
  // No "try again" here: a button says so where trying again may help (Pay, or Try again).
  errBackend: 'The payment could not be processed.',
  errNotFound: 'This payment was not found.',
  errNoMethods: 'No payment method is available for this payment.',
  errNoCheckout: 'This payment form is missing its checkout.',
  // Over the handler's rate limit; `{minutes}`: its Retry-After, rounded up.
  errTooMany: 'Too many payment attempts. Try again in {minutes} min.',
  // Keys the next-step module asks for (see src/next-step/types.ts StringKey).
  challengeTitle: 'Confirm the payment with your bank',
  cancel: 'Cancel',
  voucherTitle: 'Pay this boleto at a bank or online',
  voucherBarcode: 'Barcode',
  copy: 'Copy',
  copied: 'Barcode copied',
  copyManual: 'Barcode selected: copy it with Ctrl+C (⌘C on a Mac)',
  openVoucher: 'Open the boleto',
};

export type Strings = typeof en;
export type StringName = keyof Strings;
