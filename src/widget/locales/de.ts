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
  declined: 'Ihre Karte wurde abgelehnt',
  authFailed: 'Authentifizierung fehlgeschlagen',
  bankUnreachable: 'Ihre Bank war nicht erreichbar',
  noLongerValid: 'Diese Zahlung ist nicht mehr gültig',
  tryAnotherCard: 'Andere Karte verwenden',
  tryAnotherWay: 'Andere Zahlungsart verwenden',
  pending: 'Zahlung ausstehend',
  paid: 'Sie haben {amount} bezahlt',
  pendingLater:
    'Ihre Bank hat die Zahlung noch nicht bestätigt. Bitte nicht erneut bezahlen: Laden Sie diese Seite später neu, um das Ergebnis zu sehen.',
  pendingVoucher:
    'Nachdem Sie den Boleto bezahlt haben, kann die Bestätigung bis zu 3 Werktage dauern.',
  pendingWait:
    'Falls Ihre Bank Sie darum bittet, bestätigen Sie die Zahlung in ihrer App. Diese Seite aktualisiert sich von selbst, sobald Ihre Bank antwortet.',
  resumeWhy:
    'Ihre Zahlung über {amount} ist noch nicht abgeschlossen: Ihre Bank bittet Sie, sie zu bestätigen.',
  errRequired: 'Dieses Feld ist erforderlich',
  errNumber: 'Geben Sie eine gültige Kartennummer ein',
  errExpiry: 'Geben Sie ein gültiges Ablaufdatum ein',
  errExpired: 'Diese Karte ist abgelaufen',
  errCvv: 'Geben Sie einen gültigen Sicherheitscode ein',
  errZip: 'Geben Sie eine fünfstellige ZIP-Postleitzahl ein',
  errEmail: 'Geben Sie eine gültige E-Mail-Adresse ein',
  errTaxId: 'Geben Sie eine 11-stellige CPF oder 14-stellige CNPJ ein',
  errInstallments: 'Wählen Sie die Anzahl der Raten',
  fixFields: 'Prüfen Sie die markierten Felder',
  errNetwork:
    'Der Zahlungsdienst ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  errBackend: 'Die Zahlung konnte nicht verarbeitet werden.',
  errNotLoaded: 'Das Zahlungsformular konnte nicht geladen werden',
  errNotFound: 'Diese Zahlung wurde nicht gefunden.',
  errNoMethods: 'Für diese Zahlung ist keine Zahlungsart verfügbar.',
  errNoCheckout: 'Dieses Zahlungsformular ist mit keiner Zahlung verknüpft.',
  errTooMany: 'Zu viele Zahlungsversuche. Versuchen Sie es in {minutes}\u00a0Min. erneut.',
  challengeTitle: 'Bestätigen Sie die Zahlung bei Ihrer Bank',
  challengeLoading: 'Die Seite Ihrer Bank wird geladen…',
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
