// On every page of the site: when the widget's payment is refused because its card is not one
// of the sandbox's test cards (the worker refuses it: card-guard.ts), the banner says so, in
// its live region, beside the widget's own message. On the shop's pages, the playground panel.
import { playground } from './playground/panel.ts';
import { NOT_A_TEST_CARD } from './test-cards.ts';

const notice = document.querySelector<HTMLElement>('.simulation-banner [role="alert"]');

document.addEventListener('payment-error', (event) => {
  const detail = (event as CustomEvent<{ message?: unknown }>).detail;
  if (notice && detail?.message === NOT_A_TEST_CARD) notice.textContent = NOT_A_TEST_CARD;
});

// Beside the widget of a shop page: the live options and the code that makes the page.
const shopWidget = document.querySelector<HTMLElement>(
  'section[aria-labelledby="product-name"] payment-widget',
);
if (shopWidget) playground(shopWidget);
