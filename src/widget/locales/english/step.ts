// What a next step says (a 3DS challenge, a boleto voucher): the pay part's
// (src/widget/parts/pay.ts), the keys src/next-step asks for (its StringKey).
export const stepWords = {
  redirecting: 'Redirecting…',
  challengeTitle: 'Confirm the payment with your bank',
  cancel: 'Cancel',
  voucherTitle: 'Pay this boleto at a bank or online',
  voucherBarcode: 'Barcode',
  copy: 'Copy',
  copied: 'Barcode copied',
  copyManual: 'Barcode selected: copy it with Ctrl+C (⌘C on a Mac)',
  openVoucher: 'Open the boleto',
};
