// French strings: loaded at run time (see ./load.ts), never bundled.
import type { Strings } from './en.ts';

const fr: Strings = {
  cardNumber: 'Numéro de carte',
  expiry: 'Date d’expiration',
  expiryHint: 'MM / AA',
  cvv: 'Code de sécurité',
  cardName: 'Nom du titulaire',
  zip: 'Code postal (ZIP)',
  email: 'Adresse e-mail',
  installments: 'Mensualités',
  firstName: 'Prénom',
  lastName: 'Nom',
  taxId: 'CPF ou CNPJ',
  addressLine: 'Numéro et rue',
  city: 'Ville',
  state: 'État',
  postalCode: 'Code postal',
  paymentMethod: 'Moyen de paiement',
  card: 'Carte',
  ideal: 'iDEAL',
  bancontact: 'Bancontact',
  blik: 'BLIK',
  boleto: 'Boleto',
  savedCards: 'Cartes enregistrées',
  savedCard: '{network} se terminant par {last4}',
  newCard: 'Utiliser une nouvelle carte',
  saveCard: 'Enregistrer cette carte pour mes prochains paiements',
  pay: 'Payer {amount}',
  donate: 'Faire un don de {amount}',
  processing: 'Traitement en cours…',
  loading: 'Chargement du formulaire de paiement…',
  retry: 'Réessayer',
  success: 'Paiement réussi',
  failure: 'Échec du paiement',
  declined: 'Votre carte a été refusée',
  authFailed: 'L’authentification a échoué',
  bankUnreachable: 'Votre banque n’a pas pu être contactée',
  noLongerValid: 'Ce paiement n’est plus valable',
  tryAnotherCard: 'Essayer une autre carte',
  tryAnotherWay: 'Essayer un autre moyen de paiement',
  pending: 'Paiement en attente',
  paid: 'Vous avez payé {amount}',
  pendingLater:
    'Votre banque n’a pas encore confirmé le paiement. Ne payez pas une deuxième fois : rechargez cette page plus tard pour connaître le résultat.',
  pendingVoucher:
    'Une fois le boleto payé, sa confirmation peut prendre jusqu’à 3 jours ouvrables.',
  pendingWait:
    'Si votre banque vous le demande, confirmez le paiement dans son application. Cette page se met à jour d’elle-même dès que votre banque répond.',
  resumeWhy:
    'Votre paiement de {amount} n’est pas terminé : votre banque a besoin que vous le confirmiez.',
  errRequired: 'Ce champ est obligatoire',
  errNumber: 'Saisissez un numéro de carte valide',
  errExpiry: 'Saisissez une date d’expiration valide',
  errExpired: 'Cette carte a expiré',
  errCvv: 'Saisissez un code de sécurité valide',
  errZip: 'Saisissez un code postal (ZIP) à 5 chiffres',
  errEmail: 'Saisissez une adresse e-mail valide',
  errTaxId: 'Saisissez un CPF à 11 chiffres ou un CNPJ à 14 chiffres',
  errInstallments: 'Choisissez le nombre de mensualités',
  fixFields: 'Vérifiez les champs signalés',
  errNetwork:
    'Impossible de joindre le service de paiement. Vérifiez votre connexion et réessayez.',
  errBackend: 'Le paiement n’a pas pu être traité.',
  errNotLoaded: 'Le formulaire de paiement n’a pas pu être chargé',
  errNotFound: 'Ce paiement est introuvable.',
  errNoMethods: 'Aucun moyen de paiement n’est disponible pour ce paiement.',
  errNoCheckout: 'Ce formulaire de paiement n’est lié à aucun paiement.',
  errTooMany: 'Trop de tentatives de paiement. Réessayez dans {minutes}\u00a0min.',
  challengeTitle: 'Confirmez le paiement auprès de votre banque',
  challengeLoading: 'Chargement de la page de votre banque…',
  cancel: 'Annuler',
  voucherTitle: 'Payez ce boleto dans une banque ou en ligne',
  voucherBarcode: 'Code-barres',
  copy: 'Copier',
  copied: 'Code-barres copié',
  copyManual: 'Code-barres sélectionné : copiez-le avec Ctrl+C (⌘C sur Mac)',
  openVoucher: 'Ouvrir le boleto',
};

export default fr;

/** What each country says differently: in Switzerland a postcode is an NPA. */
export const regions: Record<string, Partial<Strings>> = {
  CH: {
    postalCode: 'NPA',
  },
};
