// Italian strings: loaded at run time (see ./load.ts), never bundled.
import type { Strings } from './en.ts';

const it: Strings = {
  cardNumber: 'Numero della carta',
  expiry: 'Data di scadenza',
  expiryHint: 'MM / AA',
  cvv: 'Codice di sicurezza',
  cardName: 'Titolare della carta',
  zip: 'Codice postale (ZIP)',
  email: 'E-mail',
  installments: 'Rate',
  firstName: 'Nome',
  lastName: 'Cognome',
  taxId: 'CPF o CNPJ',
  addressLine: 'Via e numero civico',
  city: 'Città',
  state: 'Stato',
  postalCode: 'CAP',
  paymentMethod: 'Metodo di pagamento',
  card: 'Carta',
  ideal: 'iDEAL',
  bancontact: 'Bancontact',
  blik: 'BLIK',
  boleto: 'Boleto',
  savedCards: 'Carte salvate',
  savedCard: '{network} che termina con {last4}',
  newCard: 'Usa una nuova carta',
  saveCard: 'Salva la carta per i prossimi pagamenti',
  pay: 'Paga {amount}',
  donate: 'Dona {amount}',
  processing: 'Elaborazione in corso…',
  loading: 'Caricamento del modulo di pagamento…',
  retry: 'Riprova',
  success: 'Pagamento riuscito',
  failure: 'Pagamento non riuscito',
  declined: 'La tua carta è stata rifiutata',
  authFailed: 'Autenticazione non riuscita',
  bankUnreachable: 'Non è stato possibile contattare la tua banca',
  noLongerValid: 'Questo pagamento non è più valido',
  tryAnotherCard: 'Prova un’altra carta',
  tryAnotherWay: 'Prova un altro metodo di pagamento',
  pending: 'Pagamento in sospeso',
  paid: 'Hai pagato {amount}',
  pendingLater:
    'La tua banca non ha ancora confermato il pagamento. Non pagare di nuovo: ricarica questa pagina più tardi per vedere l’esito.',
  pendingVoucher:
    'Dopo aver pagato il boleto, la conferma può richiedere fino a 3 giorni lavorativi.',
  pendingWait:
    'Se la tua banca te lo chiede, conferma il pagamento nella sua app. Questa pagina si aggiorna da sola non appena la banca risponde.',
  resumeWhy:
    'Il tuo pagamento di {amount} non è completato: la tua banca ha bisogno della tua conferma.',
  errRequired: 'Campo obbligatorio',
  errNumber: 'Inserisci un numero di carta valido',
  errExpiry: 'Inserisci una data di scadenza valida',
  errExpired: 'La carta è scaduta',
  errCvv: 'Inserisci un codice di sicurezza valido',
  errZip: 'Inserisci un codice postale (ZIP) di 5 cifre',
  errEmail: 'Inserisci un indirizzo e-mail valido',
  errTaxId: 'Inserisci un CPF di 11 cifre o un CNPJ di 14 cifre',
  errInstallments: 'Scegli il numero di rate',
  fixFields: 'Controlla i campi evidenziati',
  errNetwork:
    'Impossibile contattare il servizio di pagamento. Controlla la connessione e riprova.',
  errBackend: 'Non è stato possibile elaborare il pagamento.',
  errNotLoaded: 'Non è stato possibile caricare il modulo di pagamento',
  errNotFound: 'Pagamento non trovato.',
  errNoMethods: 'Nessun metodo di pagamento disponibile per questo pagamento.',
  errNoCheckout: 'Questo modulo di pagamento non è collegato a nessun pagamento.',
  errTooMany: 'Troppi tentativi di pagamento. Riprova tra {minutes}\u00a0min.',
  challengeTitle: 'Conferma il pagamento con la tua banca',
  challengeLoading: 'Caricamento della pagina della tua banca…',
  cancel: 'Annulla',
  voucherTitle: 'Paga questo boleto in banca o online',
  voucherBarcode: 'Codice a barre',
  copy: 'Copia',
  copied: 'Codice a barre copiato',
  copyManual: 'Codice a barre selezionato: copialo con Ctrl+C (⌘C su Mac)',
  openVoucher: 'Apri il boleto',
};

export default it;

/** What each country says differently: in Switzerland a postcode is an NPA, not a CAP. */
export const regions: Record<string, Partial<Strings>> = {
  CH: {
    postalCode: 'NPA',
  },
};
