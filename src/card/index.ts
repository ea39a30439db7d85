// Pure card-field rules shared by the browser element and the Node handler: no DOM, no I/O.
export { digitsOnly, luhn } from './digits.ts';
export { checkExpiry, formatExpiry } from './expiry.ts';
export { checkCvv, checkZip } from './fields.ts';
export { type CardNetwork, detectNetwork, networkRules } from './networks.ts';
export { checkNumber, formatNumber, last4 } from './number.ts';
export {
  backspaceOverSeparator,
  cvvLength,
  isTypedField,
  retype,
  type TypedField,
} from './typing.ts';
