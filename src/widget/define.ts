// The one module with a side effect: registering the tag. Everything else in
// src/widget can be imported without defining anything.
import { PaymentWidget } from './payment-widget.ts';

if (!customElements.get('payment-widget')) customElements.define('payment-widget', PaymentWidget);

declare global {
  interface HTMLElementTagNameMap {
    'payment-widget': PaymentWidget;
  }
}
