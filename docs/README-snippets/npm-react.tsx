import 'payment-widget';
import type {} from 'payment-widget/react';
import { useMemo, useState } from 'react';

export function Checkout({ sku }: { sku: string }) {
  const [message, setMessage] = useState('');
  const order = useMemo(() => ({ sku }), [sku]);
  return (
    <>
      <payment-widget
        order={order}
        endpoint="/payments"
        payment-methods="card ideal bancontact"
        onpayment-success={(event) => setMessage(`Paid: ${event.detail.checkout.id}`)}
        onpayment-error={(event) => setMessage(event.detail.message)}
      />
      <p role="status">{message}</p>
    </>
  );
}
