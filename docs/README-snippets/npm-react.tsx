import { PaymentWidget } from 'payment-widget/react';
import { useState } from 'react';

export function Checkout({ sku }: { sku: string }) {
  const [message, setMessage] = useState('');
  return (
    <>
      <PaymentWidget
        order={{ sku }}
        endpoint="/payments"
        paymentMethods={['card', 'ideal', 'bancontact']}
        onPaymentSuccess={(event) => setMessage(`Paid: ${event.detail.checkout.id}`)}
        onPaymentError={(event) => setMessage(event.detail.message)}
      />
      <p role="status">{message}</p>
    </>
  );
}
