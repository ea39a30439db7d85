import { PaymentWidget } from 'payment-widget/react';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

function Checkout({ sku }) {
  const [message, setMessage] = useState('');
  return (
    <section className="product" aria-labelledby="product-name">
      <h1 id="product-name">Sandbox mug</h1>
      {/*
        The element as a React component (payment-widget/react): its settings as props,
        its events as onPaymentSuccess and the like. The order names the product only:
        the shop's resolveCheckout prices it on the server (an equal order on the next
        render is the same order). Naming the methods the shop offers in euros gives
        their radio group its room while the widget loads.
      */}
      <PaymentWidget
        order={{ sku }}
        endpoint="/payments"
        paymentMethods={['card', 'ideal', 'bancontact']}
        onPaymentSuccess={(event) =>
          setMessage(`Order paid (checkout ${event.detail.checkout.id})`)
        }
        onPaymentFailure={() => setMessage('Order not paid')}
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
