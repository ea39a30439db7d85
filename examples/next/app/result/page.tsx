import { PaymentWidget } from 'payment-widget/react';

// Where a full-page flow (3-D Secure, a bank) comes back: the checkout's confirmed outcome.
export default async function Result({
  searchParams,
}: {
  searchParams: Promise<{ checkout_id?: string }>;
}) {
  const { checkout_id } = await searchParams;
  return (
    <main>
      <h1>Your order</h1>
      <PaymentWidget checkoutId={checkout_id} endpoint="/api/payments" />
    </main>
  );
}
