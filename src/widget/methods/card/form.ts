// A card, as the form's first paint draws it: the card's fields (none when a saved card is
// chosen: it is paid with its token), the ZIP code when the merchant asks for it (a US
// merchant), and the email and installments the merchant turned on. What the fields look
// like is ../../templates/fields.ts's; how they format as typed, ../../../card/.
import type { FieldName } from '../../form/fields.ts';
import type { MethodForm } from '../types.ts';

export const card: MethodForm = {
  fields(o, saved) {
    const fields: FieldName[] = saved ? [] : ['number', 'expiry', 'cvv', 'name'];
    if (o.showZipCode && !saved) fields.push('zip');
    if (o.showEmail) fields.push('email');
    if (o.showInstallments) fields.push('installments');
    return fields;
  },
};
