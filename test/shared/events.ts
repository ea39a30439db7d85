// The nine events `<payment-widget>` fires, as merchants listen for them: written out here,
// not imported from src, so a test over the element, its manifest or its bundle notices
// when the source loses or renames one.

export const WIDGET_EVENTS = [
  'payment-ready',
  'payment-change',
  'payment-submit',
  'payment-invalid',
  'payment-challenge',
  'payment-success',
  'payment-pending',
  'payment-failure',
  'payment-error',
] as const;
