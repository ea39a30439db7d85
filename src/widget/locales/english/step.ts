// What a next step says (a 3DS challenge, a boleto voucher), the keys src/next-step asks for
// (its StringKey): the step part's (src/widget/parts/step.ts), which shows them, so a payment
// the provider settles at once never loads them. (The step's other words, a pending payment's
// and "Try another card", are the pay part's, which shows them too.)
export const stepWords = {
  challengeTitle: 'Confirm the payment with your bank',
  challengeLoading: 'Loading your bank’s page…',
  cancel: 'Cancel',
  voucherTitle: 'Pay this boleto at a bank or online',
  voucherBarcode: 'Barcode',
  copy: 'Copy',
  copied: 'Barcode copied',
  copyManual: 'Barcode selected: copy it with Ctrl+C (⌘C on a Mac)',
  openVoucher: 'Open the boleto',
};
