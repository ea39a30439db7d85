// What a field's error says: shown by the typing part (src/widget/parts/typing.ts).
export const fieldWords = {
  errRequired: 'This field is required',
  errNumber: 'Enter a valid card number',
  errExpiry: 'Enter a valid expiry date',
  errExpired: 'This card has expired',
  errCvv: 'Enter a valid security code',
  errZip: 'Enter a 5-digit ZIP code',
  errEmail: 'Enter a valid email address',
  errTaxId: 'Enter an 11-digit CPF or 14-digit CNPJ',
  errInstallments: 'Choose a number of installments',
};
