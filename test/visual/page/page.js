// The merchant's page of the screenshot suite. It records the widget's events, for the suite
// to wait on, and `stillWidget()` turns off what would make two shots of one state differ:
// animations, transitions and the text caret, inside the widget's shadow root too (a page's
// styles do not reach it). The suite calls it before every shot: a part of the widget that
// loads later may set its shadow root's style sheets again.
window.widgetEvents = [];
for (const type of [
  'payment-ready',
  'payment-change',
  'payment-submit',
  'payment-invalid',
  'payment-challenge',
  'payment-success',
  'payment-pending',
  'payment-failure',
  'payment-error',
]) {
  document.addEventListener(type, (event) => {
    const detail = event.detail || {};
    window.widgetEvents.push({ type, network: detail.network, resumed: detail.resumed });
  });
}

const still = new CSSStyleSheet();
still.replaceSync(
  '*, *::before, *::after { animation: none !important; transition: none !important; caret-color: transparent !important; }',
);
document.adoptedStyleSheets = [still];

window.stillWidget = () => {
  for (const widget of document.querySelectorAll('payment-widget')) {
    const root = widget.shadowRoot;
    if (root && !root.adoptedStyleSheets.includes(still)) {
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, still];
    }
  }
};

/**
 * Forced colours force the caret's colour too (caret-color: transparent is overridden), so
 * a focused field's caret blinks into one shot and out of the next. A read-only field draws
 * no caret and keeps its focus and ring: the field that has focus is made read-only for the
 * shot (`hideCaret`), and editable again after it (`showCaret`).
 */
let caretHeld;
window.hideCaret = () => {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  if (
    (active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement) &&
    !active.readOnly
  ) {
    active.readOnly = true;
    caretHeld = active;
  }
};
window.showCaret = () => {
  if (caretHeld) caretHeld.readOnly = false;
  caretHeld = undefined;
};
