// Every route module, registered in one place, by part: the provider's API, the pages a
// shopper's browser opens and the simulator's control surface under /sandbox/. Each module
// is a Hono sub-app (`Routes`) of full paths; `app.ts` mounts them in this order. A new area
// is a new module plus one line here. The dashboard's page and script (control/dashboard.ts)
// are mounted by `index.ts`, which reads the built script from disk.

import { checkoutRoutes } from './api/checkouts.ts';
import { customerRoutes } from './api/customers.ts';
import { merchantRoutes } from './api/merchant.ts';
import { operatorRoutes } from './api/operators.ts';
import { payoutRoutes } from './api/payouts.ts';
import { readerRoutes } from './api/readers.ts';
import { receiptRoutes } from './api/receipts.ts';
import { transactionRoutes } from './api/transactions.ts';
import type { Routes } from './context.ts';
import { deviceRoutes } from './control/devices.ts';
import { outcomeRoutes } from './control/outcomes.ts';
import { paymentControlRoutes } from './control/payments.ts';
import { simulatorRoutes } from './control/simulator.ts';
import { viewRoutes } from './control/views.ts';
import { webhookRoutes } from './control/webhooks.ts';
import { pageRoutes } from './pages/routes.ts';

export const routeModules: readonly Routes[] = [
  // The provider's API (the seed's routes).
  checkoutRoutes,
  customerRoutes,
  transactionRoutes,
  merchantRoutes,
  payoutRoutes,
  receiptRoutes,
  readerRoutes,
  operatorRoutes,
  // What a shopper's browser opens: 3DS, bank pages, boleto, TermUrl.
  pageRoutes,
  // The control surface, /sandbox/*.
  simulatorRoutes,
  paymentControlRoutes,
  deviceRoutes,
  viewRoutes,
  webhookRoutes,
  outcomeRoutes,
];
