'use client';
// A client component: the element registers itself in the browser when this module loads.
import 'payment-widget';
import type {} from 'payment-widget/react';
import { useEffect, useMemo, useState } from 'react';

export function Checkout({ sku, locale }: { sku: string; locale?: string }) {
  const [message, setMessage] = useState('');
  // React sets a custom element's properties (`order`) and event listeners only on an
  // element it creates, not on one it hydrates from the server's HTML: so the element is
  // rendered once the page runs in the browser.
  const [inBrowser, setInBrowser] = useState(false);
  useEffect(() => setInBrowser(true), []);
  // One object per product: a new `order` on every render would start a new checkout.
  const order = useMemo(() => ({ sku }), [sku]);
  return (
    <section aria-labelledby="product-name">
      {/* The order names the product only: the route handler's resolveCheckout prices it. */}
      {inBrowser && (
        <payment-widget
          order={order}
          locale={locale}
          endpoint="/api/payments"
          onpayment-success={(event) =>
            setMessage(`Order paid (checkout ${event.detail.checkout.id})`)
          }
          onpayment-failure={() => setMessage('Order not paid')}
        />
      )}
      <p role="status">{message}</p>
    </section>
  );
}
