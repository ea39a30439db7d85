import { Component, CUSTOM_ELEMENTS_SCHEMA, inject } from '@angular/core';
import { ActivatedRoute } from '@angular/router';
import 'payment-widget';

// Where a full-page flow (3-D Secure, a bank) comes back, with ?checkout_id=: the checkout's
// confirmed outcome, and after a failure "Try another card".
@Component({
  selector: 'app-result',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <main>
      <h1>Your order</h1>
      <payment-widget [attr.checkout-id]="checkoutId" endpoint="/payments"></payment-widget>
    </main>
  `,
})
export class Result {
  protected readonly checkoutId = inject(ActivatedRoute).snapshot.queryParamMap.get('checkout_id');
}
