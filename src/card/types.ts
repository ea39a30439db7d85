/** A field's text after formatting, with the caret where the user expects it. */
export interface Formatted {
  value: string;
  caret: number;
}
