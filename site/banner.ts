// The banner on every page of the site: what it is (a simulation in this browser), what it is
// not (a payment), and where the shop and the dashboard are. Built into the static pages and
// put by the worker at the top of every page it answers.

/**
 * The banner's markup. `root` leads from the page to the site's root: '' or '../' in the
 * static pages (the site may sit under any path), the root's path in the worker's pages.
 * `nonce`: the page's CSP nonce, which its script and stylesheet need (the shop's pages and
 * the provider's have one).
 */
export function banner(root: string, nonce?: string): string {
  // The nonce on the stylesheet too: the provider's bank and 3DS pages admit styles by it.
  const admitted = nonce === undefined ? '' : ` nonce="${nonce}"`;
  return `<link rel="stylesheet"${admitted} href="${root}site.css" />
<aside class="simulation-banner" role="note" aria-label="About this site">
  <p><strong>A simulation.</strong> The shop, its server and the payment provider all run in this
  browser: no real card is charged, and no card number leaves this browser. Only the sandbox’s
  test cards are taken.</p>
  <p role="alert"></p>
  <nav aria-label="The simulation"><a href="${root || './'}">Shop</a> <a href="${root}provider/">Sandbox dashboard</a></nav>
</aside>
<script${admitted} src="${root}site.js" defer></script>`;
}

/** `page` with the banner right after its `<body>` tag, its script under the page's `nonce`. */
export function withBanner(page: string, root: string, nonce?: string): string {
  return page.replace(/<body[^>]*>/i, (tag) => `${tag}\n${banner(root, nonce)}`);
}
