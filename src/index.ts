// Placeholder until the element lands: registers <payment-widget>.
export class PaymentWidget extends HTMLElement {}
if (!customElements.get('payment-widget')) customElements.define('payment-widget', PaymentWidget);
