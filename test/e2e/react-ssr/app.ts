// The page both sides render: the server to HTML (react-dom/server), the browser to hydrate
// it (react-dom/client). Written with createElement: the repository compiles no JSX.
import { createElement, Fragment, type ReactElement, StrictMode, useEffect, useState } from 'react';
import { PaymentWidget } from '../../../src/react/index.ts';

/** `<PaymentWidget>`: what the README shows React and Next.js apps. */
function Component(): ReactElement {
  const [message, setMessage] = useState('');
  return createElement(
    Fragment,
    null,
    createElement(PaymentWidget, {
      order: { sku: 'mug' },
      endpoint: '/payments',
      paymentMethods: ['card', 'ideal', 'bancontact'],
      onPaymentReady: () => setMessage('ready'),
      onPaymentSuccess: (event) => setMessage(`Paid: ${event.detail.checkout.id}`),
    }),
    createElement('p', { role: 'status' }, message),
  );
}

/**
 * A result page: `<PaymentWidget checkoutId>` from the URL, and the page's own state set by
 * the widget's events, so React renders it again after each.
 */
function Result({ checkoutId }: { checkoutId?: string | undefined }): ReactElement {
  const [message, setMessage] = useState('');
  return createElement(
    Fragment,
    null,
    createElement(PaymentWidget, {
      checkoutId,
      endpoint: '/payments',
      // The checkout the element shows, as the element says it.
      onPaymentReady: (event) =>
        setMessage(`ready: ${(event.target as HTMLElement & { checkoutId?: string }).checkoutId}`),
      onPaymentFailure: () => setMessage('failed'),
      onPaymentSuccess: (event) => setMessage(`Paid: ${event.detail.checkout.id}`),
    }),
    createElement('p', { role: 'status' }, message),
  );
}

/**
 * The bare tag with attributes only (React 19 hydrates those and nothing else). The
 * component hides attribute mismatches on its element (@lit/react asks React not to
 * report them); the bare tag does not, so only it shows an attribute the widget wrote on
 * its own host.
 */
function BareTag(): ReactElement {
  return createElement('payment-widget', {
    order: '{"sku":"mug"}',
    endpoint: '/payments',
    locale: 'de-DE',
    'payment-methods': 'card ideal bancontact',
  });
}

export const PAGES = { component: Component, 'bare-tag': BareTag, result: Result };
export type PageName = keyof typeof PAGES;

declare global {
  interface Window {
    /** Set once React has hydrated the page (its effects ran). */
    hydrated?: boolean;
  }
}

function Hydrated({ name, checkoutId }: { name: PageName; checkoutId?: string }): ReactElement {
  useEffect(() => {
    window.hydrated = true;
  }, []);
  return createElement(PAGES[name], { checkoutId });
}

/** Page `name`; `checkoutId` is the result page's, from its URL. */
export function page(name: PageName, checkoutId?: string): ReactElement {
  return createElement(StrictMode, null, createElement(Hydrated, { name, checkoutId }));
}
