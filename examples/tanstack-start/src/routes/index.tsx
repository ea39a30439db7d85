import { createFileRoute } from '@tanstack/react-router';
import { appendResponseHeader } from '@tanstack/react-start/server';
import { PaymentWidget } from 'payment-widget/react';
import { useState } from 'react';
import { basketOf, newBasket } from '../payments.server';

export const Route = createFileRoute('/')({
  server: {
    handlers: {
      // The page as the server renders it, with the basket's cookie when the shopper has none,
      // so the widget's first request already names the basket.
      GET: ({ request, next }) => {
        if (basketOf(request) === undefined) appendResponseHeader('set-cookie', newBasket());
        return next();
      },
    },
  },
  component: Product,
});

function Product() {
  const [message, setMessage] = useState('');
  return (
    <main>
      <h1>Sandbox mug</h1>
      <PaymentWidget
        order={{ sku: 'mug' }}
        endpoint="/api/payments"
        paymentMethods={['card', 'ideal', 'bancontact']}
        onPaymentSuccess={(event) => setMessage(`Paid: ${event.detail.checkout.id}`)}
        onPaymentError={(event) => setMessage(event.detail.message)}
      />
      <p role="status">{message}</p>
    </main>
  );
}
