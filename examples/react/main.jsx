import { StrictMode, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
// Registers <payment-widget>.
import 'payment-widget';

function Checkout({ sku }) {
  const [message, setMessage] = useState('');
  // One object per product: a new `order` object on every render would tell the
  // element the order changed, and it would start a new checkout.
  const order = useMemo(() => ({ sku }), [sku]);
  return (
    <section className="product" aria-labelledby="product-name">
      <h1 id="product-name">Sandbox mug</h1>
      {/*
        React 19 sets `order` as a property and turns `onpayment-success` into an
        addEventListener('payment-success'). The order names the product only: the
        shop's resolveCheckout prices it on the server. Naming the methods the shop
        offers in euros gives their radio group its room while the widget loads.
      */}
      <payment-widget
        order={order}
        endpoint="/payments"
        payment-methods="card ideal bancontact"
        onpayment-success={(event) =>
          setMessage(`Order paid (checkout ${event.detail.checkout.id})`)
        }
        onpayment-failure={() => setMessage('Order not paid')}
      />
      <p role="status">{message}</p>
    </section>
  );
}

function App() {
  return (
    <>
      <header className="site">
        <a href="/">Sandbox shop</a>
        <span>React 19</span>
      </header>
      <main>
        <Checkout sku="mug" />
      </main>
    </>
  );
}

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
