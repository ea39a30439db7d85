// German strings: loaded at run time (see ./load.ts), never bundled.
import type { Strings } from './en.ts';

const de: Strings = {
  cardNumber: 'Kartennummer',
  expiry: 'Ablaufdatum',
  expiryHint: 'MM / JJ',
  cvv: 'Sicherheitscode',
  cardName: 'Name auf der Karte',
  zip: 'Postleitzahl (ZIP)',
  email: 'E-Mail',
  installments: 'Raten',
  firstName: 'Vorname',
  lastName: 'Nachname',
  taxId: 'CPF oder CNPJ',
  addressLine: 'Straße und Hausnummer',
  city: 'Ort',
  state: 'Bundesstaat',
  postalCode: 'Postleitzahl',
  paymentMethod: 'Zahlungsart',
  card: 'Karte',
  ideal: 'iDEAL',
  bancontact: 'Bancontact',
  blik: 'BLIK',
  boleto: 'Boleto',
  savedCards: 'Gespeicherte Karten',
  savedCard: '{network} mit Endziffern {last4}',
  newCard: 'Neue Karte verwenden',
  saveCard: 'Karte für künftige Zahlungen speichern',
  pay: '{amount} bezahlen',
  donate: '{amount} spenden',
  processing: 'Wird verarbeitet…',
  loading: 'Zahlungsformular wird geladen…',
  retry: 'Erneut versuchen',
  success: 'Zahlung erfolgreich',
  failure: 'Zahlung fehlgeschlagen',
  pending: 'Zahlung ausstehend',
  redirecting: 'Weiterleitung…',
  errRequired: 'Dieses Feld ist erforderlich',
  errNumber: 'Geben Sie eine gültige Kartennummer ein',
  errExpiry: 'Geben Sie ein gültiges Ablaufdatum ein',
  errCvv: 'Geben Sie einen gültigen Sicherheitscode ein',
  errZip: 'Geben Sie eine fünfstellige ZIP-Postleitzahl ein',
  errEmail: 'Geben Sie eine gültige E-Mail-Adresse ein',
  errTaxId: 'Geben Sie eine 11-stellige CPF oder 14-stellige CNPJ ein',
  errInstallments: 'Wählen Sie die Anzahl der Raten',
  fixFields: 'Prüfen Sie die markierten Felder',
  errNetwork:
    'Der Zahlungsdienst ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  errBackend: 'Die Zahlung konnte nicht verarbeitet werden. Versuchen Sie es erneut.',
  errNoMethods: 'Für diese Zahlung ist keine Zahlungsart verfügbar.',
  errNoCheckout: 'Dieses Zahlungsformular ist mit keiner Zahlung verknüpft.',
  checkoutClosed:
    'Diese Zahlung kann nicht mehr abgeschlossen werden. Bitte beginnen Sie erneut im Shop.',
  errTooMany: 'Zu viele Zahlungsversuche. Versuchen Sie es in {minutes} Min. erneut.',
  challengeTitle: 'Bestätigen Sie die Zahlung bei Ihrer Bank',
  cancel: 'Abbrechen',
  voucherTitle: 'Bezahlen Sie diesen Boleto bei einer Bank oder online',
  voucherBarcode: 'Barcode',
  copy: 'Kopieren',
  copied: 'Barcode kopiert',
  copyManual: 'Barcode markiert: mit Strg+C kopieren (⌘C auf dem Mac)',
  openVoucher: 'Boleto öffnen',
};

export default de;

/** What each country says differently: Swiss German writes no ß. */
export const regions: Record<string, Partial<Strings>> = {
  CH: {
    addressLine: 'Strasse und Hausnummer',
  },
};
