// What a next step says (a 3DS challenge, a boleto voucher), the keys src/next-step asks for
// (its StringKey): the pay part's (src/widget/parts/pay.ts), not the step part's that shows
// them. The step part is within a few bytes of its budget, and its code grew (the challenge's
// loading words, the challenge posted again once back online); these words cost every payment
// about 200 B gzip of the pay part's room instead.
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
