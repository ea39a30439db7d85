import { Component, CUSTOM_ELEMENTS_SCHEMA, signal } from '@angular/core';
import 'payment-widget';

// The product page. The server's HTML has the element without `order` (a property);
// hydration sets it, and the element waits for it. `$event` is typed: `detail.checkout.id`.
@Component({
  selector: 'app-checkout',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <main>
      <h1>Sandbox mug</h1>
      <payment-widget
        [order]="{ sku: 'mug' }"
        endpoint="/payments"
        payment-methods="card ideal bancontact"
        (payment-success)="message.set('Paid: ' + $event.detail.checkout.id); paid.set(true)"
        (payment-error)="message.set($event.detail.message)"
      ></payment-widget>
      <p role="status">{{ message() }}</p>
      @if (paid()) {
        <button type="button" (click)="buyAgain()">Buy again</button>
      }
    </main>
  `,
})
export class Checkout {
  protected readonly message = signal('');
  protected readonly paid = signal(false);

  // src/server.ts's POST /basket: a new basket
  protected async buyAgain() {
    await fetch('/basket', { method: 'POST' });
    location.reload();
  }
}
