import { createFileRoute } from '@tanstack/react-router';
import { PaymentWidget } from 'payment-widget/react';

// Where a full-page flow (3-D Secure, a bank) comes back: the checkout's confirmed outcome.
export const Route = createFileRoute('/result')({
  validateSearch: (search: Record<string, unknown>) => ({
    checkout_id: typeof search.checkout_id === 'string' ? search.checkout_id : undefined,
  }),
  component: Result,
});

function Result() {
  const { checkout_id } = Route.useSearch();
  return (
    <main>
      <h1>Your order</h1>
      <PaymentWidget checkoutId={checkout_id} endpoint="/api/payments" />
    </main>
  );
}
