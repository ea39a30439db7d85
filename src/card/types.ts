/**
 * What the expiry check answers while the user types: "12/2" may still become valid, "13/2"
 * never. (The number, the code and the ZIP code are checked as a whole only: `isCardNumber`,
 * `isCvv`, `isZip`; the widget checks a field once it is left, or on Pay.)
 */
export interface FieldCheck {
  isValid: boolean;
  isPotentiallyValid: boolean;
}

/** A field's text after formatting, with the caret where the user expects it. */
export interface Formatted {
  value: string;
  caret: number;
}
