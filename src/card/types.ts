/** What every field check answers while the user types: "411" may still become valid, "41x" never. */
export interface FieldCheck {
  isValid: boolean;
  isPotentiallyValid: boolean;
}

/** A field's text after formatting, with the caret where the user expects it. */
export interface Formatted {
  value: string;
  caret: number;
}
