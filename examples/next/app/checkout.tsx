'use client';
import { PaymentWidget } from 'payment-widget/react';
import { useState } from 'react';
import { buyAgain } from './actions';

export function Checkout({ sku, locale }: { sku: string; locale?: string }) {
  const [message, setMessage] = useState('');
  const [paid, setPaid] = useState(false);
  return (
    <>
      <PaymentWidget
        order={{ sku }}
        locale={locale}
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
    </>
  );
}
