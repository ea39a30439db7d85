// Lists the widget's events on the demo pages, so a merchant sees what they
// can listen to. The details never hold a card number or CVV, so showing them
// whole is safe.
const NAMES = [
  'payment-ready',
  'payment-change',
  'payment-submit',
  'payment-invalid',
  'payment-challenge',
  'payment-success',
  'payment-pending',
  'payment-failure',
  'payment-error',
];

/** The most lines the log keeps: on a phone it sits above the test cards. */
const MAX_LINES = 20;

const log = document.getElementById('event-log');
for (const name of NAMES) {
  document.addEventListener(name, (event) => {
    if (!log) return;
    const detail = JSON.stringify(event.detail, (key, value) =>
      // A checkout is long; its id and status say what happened.
      key === 'checkout' && value ? { id: value.id, status: value.status } : value,
    );
    const text = `${name} ${detail ?? ''}`;
    // The same event again (payment-change at each keystroke): the newest line says it, with
    // how many times, instead of a line each.
    const newest = log.firstElementChild;
    if (newest instanceof HTMLLIElement && newest.dataset.event === name) {
      const times = Number(newest.dataset.times) + 1;
      newest.dataset.times = String(times);
      newest.textContent = `${text} (×${times})`;
      return;
    }
    const item = document.createElement('li');
    item.dataset.event = name;
    item.dataset.times = '1';
    item.textContent = text;
    log.prepend(item);
    while (log.children.length > MAX_LINES) log.lastElementChild?.remove();
  });
}

// Paid: the shop offers to start a new basket (the page itself would show this basket's
// order again on a reload). Found paid already (a page that names its checkout by its order
// learns it from the widget): the order's confirmation too.
document.addEventListener('payment-success', (event) => {
  for (const form of document.querySelectorAll('form.buy-again')) form.hidden = false;
  const confirmed = document.querySelector('.order-confirmed[hidden]');
  if (!event.detail.resumed || !confirmed) return;
  const reference = confirmed.querySelector('.order-reference');
  if (reference) reference.textContent = event.detail.checkout.checkout_reference ?? '';
  confirmed.hidden = false;
});
