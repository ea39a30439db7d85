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
