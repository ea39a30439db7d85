import { createFileRoute } from '@tanstack/react-router';
import { createServerFn } from '@tanstack/react-start';
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

// "Buy again": a new basket (a new cookie), so the shopper's next order is a new checkout.
// Until then a reload or a second tab shows the paid one. A server function: TanStack Start
// answers it only from the shop's own pages (their Origin), so another site cannot swap it.
const buyAgain = createServerFn({ method: 'POST' }).handler(() => {
  appendResponseHeader('set-cookie', newBasket());
});

function Product() {
  const [message, setMessage] = useState('');
  const [paid, setPaid] = useState(false);
  return (
    <main>
      <h1>Sandbox mug</h1>
      <PaymentWidget
        order={{ sku: 'mug' }}
        endpoint="/api/payments"
        paymentMethods={['card', 'ideal', 'bancontact']}
        onPaymentSuccess={(event) => {
          setMessage(`Paid: ${event.detail.checkout.id}`);
          setPaid(true); // on a reload too: the basket's order is paid
        }}
        onPaymentError={(event) => setMessage(event.detail.message)}
      />
      <p role="status">{message}</p>
      {paid && (
        <button type="button" onClick={() => buyAgain().then(() => location.reload())}>
          Buy again
        </button>
      )}
    </main>
  );
}
