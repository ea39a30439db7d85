// Spanish strings: loaded at run time (see ./load.ts), never bundled.
import type { Strings } from './en.ts';

const es: Strings = {
  cardNumber: 'Número de tarjeta',
  expiry: 'Fecha de caducidad',
  expiryHint: 'MM / AA',
  cvv: 'Código de seguridad',
  cardName: 'Nombre del titular',
  zip: 'Código postal (ZIP)',
  email: 'Correo electrónico',
  installments: 'Plazos',
  firstName: 'Nombre',
  lastName: 'Apellidos',
  taxId: 'CPF o CNPJ',
  addressLine: 'Calle y número',
  city: 'Ciudad',
  state: 'Estado',
  postalCode: 'Código postal',
  paymentMethod: 'Método de pago',
  card: 'Tarjeta',
  ideal: 'iDEAL',
  bancontact: 'Bancontact',
  blik: 'BLIK',
  boleto: 'Boleto',
  savedCards: 'Tarjetas guardadas',
  savedCard: '{network} terminada en {last4}',
  newCard: 'Usar una tarjeta nueva',
  saveCard: 'Guardar esta tarjeta para futuros pagos',
  pay: 'Pagar {amount}',
  donate: 'Donar {amount}',
  processing: 'Procesando…',
  loading: 'Cargando el formulario de pago…',
  retry: 'Volver a intentarlo',
  success: 'Pago realizado correctamente',
  failure: 'El pago ha fallado',
  pending: 'Pago pendiente',
  redirecting: 'Redirigiendo…',
  errRequired: 'Este campo es obligatorio',
  errNumber: 'Introduce un número de tarjeta válido',
  errExpiry: 'Introduce una fecha de caducidad válida',
  errCvv: 'Introduce un código de seguridad válido',
  errZip: 'Introduce un código postal (ZIP) de 5 dígitos',
  errEmail: 'Introduce un correo electrónico válido',
  errTaxId: 'Introduce un CPF de 11 dígitos o un CNPJ de 14 dígitos',
  errInstallments: 'Elige el número de plazos',
  fixFields: 'Revisa los campos marcados',
  errNetwork:
    'No hemos podido conectar con el servicio de pago. Comprueba tu conexión y vuelve a intentarlo.',
  errBackend: 'No se ha podido procesar el pago. Vuelve a intentarlo.',
  errNoMethods: 'No hay ningún método de pago disponible para este pago.',
  errNoCheckout: 'Este formulario de pago no está vinculado a ningún pago.',
  checkoutClosed: 'Este pago ya no se puede completar. Vuelve a empezar desde la tienda.',
  challengeTitle: 'Confirma el pago con tu banco',
  cancel: 'Cancelar',
  voucherTitle: 'Paga este boleto en un banco o en línea',
  voucherBarcode: 'Código de barras',
  copy: 'Copiar',
  copied: 'Código de barras copiado',
  copyManual: 'Código de barras seleccionado: cópialo con Ctrl+C (⌘C en un Mac)',
  openVoucher: 'Abrir el boleto',
};

export default es;

/** Chile and Colombia: a card expires (vence), is paid in cuotas, and one enters (ingresa) data. */
const latinAmerica: Partial<Strings> = {
  expiry: 'Fecha de vencimiento',
  installments: 'Cuotas',
  failure: 'El pago no se pudo realizar',
  errNumber: 'Ingresa un número de tarjeta válido',
  errExpiry: 'Ingresa una fecha de vencimiento válida',
  errCvv: 'Ingresa un código de seguridad válido',
  errZip: 'Ingresa un código postal (ZIP) de 5 dígitos',
  errEmail: 'Ingresa un correo electrónico válido',
  errTaxId: 'Ingresa un CPF de 11 dígitos o un CNPJ de 14 dígitos',
  errInstallments: 'Elige el número de cuotas',
  errNetwork:
    'No pudimos conectarnos con el servicio de pago. Revisa tu conexión e inténtalo de nuevo.',
  errBackend: 'No se pudo procesar el pago. Inténtalo de nuevo.',
  copyManual: 'Código de barras seleccionado: cópialo con Ctrl+C (⌘C en una Mac)',
};

/** What each country says differently from Spain. */
export const regions: Record<string, Partial<Strings>> = {
  CL: latinAmerica,
  CO: latinAmerica,
};
