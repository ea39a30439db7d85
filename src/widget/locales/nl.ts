// Dutch strings: loaded at run time (see ./load.ts), never bundled.
import type { Strings } from './en.ts';

const nl: Strings = {
  cardNumber: 'Kaartnummer',
  expiry: 'Vervaldatum',
  expiryHint: 'MM / JJ',
  cvv: 'Beveiligingscode',
  cardName: 'Naam op de kaart',
  zip: 'Postcode (ZIP)',
  email: 'E-mailadres',
  installments: 'Termijnen',
  firstName: 'Voornaam',
  lastName: 'Achternaam',
  taxId: 'CPF of CNPJ',
  addressLine: 'Straat en huisnummer',
  city: 'Plaats',
  state: 'Staat',
  postalCode: 'Postcode',
  paymentMethod: 'Betaalmethode',
  card: 'Kaart',
  ideal: 'iDEAL',
  bancontact: 'Bancontact',
  blik: 'BLIK',
  boleto: 'Boleto',
  savedCards: 'Opgeslagen kaarten',
  savedCard: '{network} eindigend op {last4}',
  newCard: 'Nieuwe kaart gebruiken',
  saveCard: 'Kaart bewaren voor volgende betalingen',
  pay: 'Betaal {amount}',
  donate: 'Doneer {amount}',
  processing: 'Bezig met verwerken…',
  loading: 'Betaalformulier laden…',
  retry: 'Opnieuw proberen',
  success: 'Betaling geslaagd',
  failure: 'Betaling mislukt',
  pending: 'Betaling in behandeling',
  redirecting: 'Doorsturen…',
  errRequired: 'Dit veld is verplicht',
  errNumber: 'Vul een geldig kaartnummer in',
  errExpiry: 'Vul een geldige vervaldatum in',
  errCvv: 'Vul een geldige beveiligingscode in',
  errZip: 'Vul een postcode (ZIP) van 5 cijfers in',
  errEmail: 'Vul een geldig e-mailadres in',
  errTaxId: 'Vul een CPF van 11 cijfers of een CNPJ van 14 cijfers in',
  errInstallments: 'Kies het aantal termijnen',
  fixFields: 'Controleer de gemarkeerde velden',
  errNetwork:
    'De betaaldienst is niet bereikbaar. Controleer de verbinding en probeer het opnieuw.',
  errBackend: 'De betaling kon niet worden verwerkt. Probeer het opnieuw.',
  errNoMethods: 'Er is geen betaalmethode beschikbaar voor deze betaling.',
  errNoCheckout: 'Dit betaalformulier is aan geen enkele betaling gekoppeld.',
  challengeTitle: 'Bevestig de betaling bij je bank',
  cancel: 'Annuleren',
  voucherTitle: 'Betaal deze boleto bij een bank of online',
  voucherBarcode: 'Streepjescode',
  copy: 'Kopiëren',
  copied: 'Streepjescode gekopieerd',
  openVoucher: 'Boleto openen',
};

export default nl;

/** What each country says differently: Flemish shops address the customer as u. */
export const regions: Record<string, Partial<Strings>> = {
  BE: {
    challengeTitle: 'Bevestig de betaling bij uw bank',
  },
};
