// The one module with a side effect: registering the tag. Everything else in
// src/widget can be imported without defining anything.
import { CURRENT_SCRIPT } from '../shared/bundle-url.ts';
import { PaymentWidget } from './payment-widget.ts';

// Where constructable stylesheets are missing (Safari before 16.4), Lit writes
// the styles as <style> elements, which a Content-Security-Policy without
// 'unsafe-inline' allows only with the page's nonce, read from
// `window.litNonce`. A page that loads this script with <script nonce> has
// given its nonce already: take it, unless the page set litNonce itself. Only
// the script-tag build knows its <script> (a module script has no
// currentScript), and only while it first runs; a server rendering the
// element has no document at all (the script is read once, in ../shared/bundle-url.ts).
if (CURRENT_SCRIPT?.nonce && window.litNonce === undefined) window.litNonce = CURRENT_SCRIPT.nonce;

if (!customElements.get('payment-widget')) customElements.define('payment-widget', PaymentWidget);

declare global {
  interface HTMLElementTagNameMap {
    'payment-widget': PaymentWidget;
  }
  interface Window {
    /**
     * The CSP nonce of the <style> elements Lit writes in Safari before 16.4; the script-tag
     * build sets its own <script nonce> unless the page did.
     */
    litNonce?: string;
  }
}
