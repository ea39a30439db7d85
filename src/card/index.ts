// The widget's card-field rules: pure functions, no DOM, no I/O. The networks and Luhn come
// from src/shared/, where the sandbox takes them too; they are offered here with the rest.

export { type CardNetwork, detectNetwork, networkRules } from '../shared/card-networks.ts';
export { digitsOnly, luhn } from '../shared/luhn.ts';
export { checkExpiry, formatExpiry } from './expiry.ts';
export { isCvv, isZip } from './fields.ts';
export { formatNumber, isCardNumber } from './number.ts';
export {
  cvvLength,
  deleteOverSeparator,
  isRetypedField,
  isTypedField,
  type RetypedField,
  retype,
  type TypedField,
} from './typing.ts';
