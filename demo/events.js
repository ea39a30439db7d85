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

const log = document.getElementById('event-log');
for (const name of NAMES) {
  document.addEventListener(name, (event) => {
    if (!log) return;
    const item = document.createElement('li');
    const detail = JSON.stringify(event.detail, (key, value) =>
      // A checkout is long; its id and status say what happened.
      key === 'checkout' && value ? { id: value.id, status: value.status } : value,
    );
    item.textContent = `${name} ${detail ?? ''}`;
    log.prepend(item);
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
