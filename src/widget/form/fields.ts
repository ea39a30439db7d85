// Form state, free of the DOM: the fields, and when an error may show. Which fields a
// method shows is its own (../methods/); what is wrong with each field is ./rules.ts's (the
// pay part's). The element
// reads values from its inputs at the moment it needs them, so the card number and
// security code never sit in element state.

export type FieldName =
  | 'number'
  | 'expiry'
  | 'cvv'
  | 'name'
  | 'zip'
  | 'email'
  | 'installments'
  | 'firstName'
  | 'lastName'
  | 'taxId'
  | 'line1'
  | 'city'
  | 'state'
  | 'postalCode';

export type Values = Partial<Record<FieldName, string>>;
/** What is wrong with a field: empty, not a valid value, or (a card's date) before this month. */
export type FieldErrorCode = 'required' | 'invalid' | 'expired';
export type Errors = Partial<Record<FieldName, FieldErrorCode>>;

/** The optional fields a merchant turned on: the element itself fits. */
export interface Shown {
  showZipCode: boolean;
  showEmail: boolean;
  showInstallments: boolean;
}

interface FieldMeta {
  /** The field has lost focus at least once. */
  touched: boolean;
  /** The value differs from what it was when the form was shown. */
  dirty: boolean;
}

export interface FormState {
  fields: Partial<Record<FieldName, FieldMeta>>;
  submitted: boolean;
}

export const emptyForm = (): FormState => ({ fields: {}, submitted: false });

export function mark(state: FormState, field: FieldName, meta: Partial<FieldMeta>): FormState {
  const current = state.fields[field] ?? { touched: false, dirty: false };
  return { ...state, fields: { ...state.fields, [field]: { ...current, ...meta } } };
}

/**
 * When an error may show: the one rule for every field. Not while the user is
 * still typing for the first time (an unfinished number is not a mistake), but
 * once they have left a field they changed, and everywhere after a submit.
 */
export function errorShown(state: FormState, field: FieldName): boolean {
  const meta = state.fields[field];
  return Boolean(meta?.touched && meta.dirty) || state.submitted;
}
