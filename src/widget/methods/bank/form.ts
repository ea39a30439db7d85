// A method paid on the bank's own page (iDEAL, Bancontact, BLIK), as the form draws it: who
// pays, as the provider asks for it (personal_details). The bank's page returns to the
// checkout's redirect_url, so a checkout without one does not offer it.
import type { MethodForm } from '../types.ts';

export const bank: MethodForm = {
  fields: () => ['firstName', 'lastName', 'email'],
  redirect: true,
};
