import { mount, type PaymentWidget } from 'payment-widget';

// The tag gives the element's type, each event its detail's.
const widget: PaymentWidget = document.createElement('payment-widget');
widget.order = { sku: 'poster' };
widget.addEventListener('payment-success', (event) => {
  console.log(`paid: ${event.detail.checkout.id}`);
});
widget.addEventListener('payment-error', (event) => {
  if (event.detail.retryable) console.warn(event.detail.message);
});
document.getElementById('checkout')?.append(widget);

// Or without markup: the callbacks of the provider's own card widget.
const handle = mount({
  id: 'checkout-2',
  order: { sku: 'mug' },
  onResponse(type, body) {
    if (type === 'success') console.log('paid', body);
  },
});
void handle.submit();
