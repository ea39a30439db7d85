'use client';
import { PaymentWidget } from 'payment-widget/react';
import { useState } from 'react';

export function Checkout({ sku, locale }: { sku: string; locale?: string }) {
  const [message, setMessage] = useState('');
  return (
    <>
      <PaymentWidget
        order={{ sku }}
        locale={locale}
        endpoint="/api/payments"
        paymentMethods={['card', 'ideal', 'bancontact']}
        onPaymentSuccess={(event) => setMessage(`Paid: ${event.detail.checkout.id}`)}
        onPaymentError={(event) => setMessage(event.detail.message)}
      />
      <p role="status">{message}</p>
    </>
  );
}
