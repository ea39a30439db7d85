// What the form's first paint says: the labels of every field it may draw (the placeholder
// shown while the checkout loads draws the same ones), the methods, the button, and what
// the widget says when it cannot reach anything (a part of it included). Bundled with
// the element; the words of what comes later live with the part that shows them, beside
// this file.
export const formWords = {
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
  saveCard: 'Save this card for future payments',
  pay: 'Pay {amount}',
  donate: 'Donate {amount}',
  loading: 'Loading payment form…',
  retry: 'Try again',
  processing: 'Processing…',
  errNetwork: 'We could not reach the payment service. Check your connection and try again.',
  // No "try again" here: a button says so where trying again may help (Pay, or Try again).
  errBackend: 'The payment could not be processed.',
};
