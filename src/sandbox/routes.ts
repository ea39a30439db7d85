// Every route module, registered in one place. A new area (merchant, payouts, receipts,
// readers, operators) is a new module exporting `Route[]` plus one line here.

import type { Route } from './http/route.ts';
import { checkoutRoutes } from './provider/checkouts.ts';
import { cockpitRoutes } from './control/dashboard.ts';
import { controlRoutes } from './control/simulator.ts';
import { customerRoutes } from './provider/customers.ts';
import { dashboardRoutes } from './dashboard/serve.ts';
import { markDeprecated } from './provider/deprecation.ts';
import { deviceRoutes } from './control/devices.ts';
import { merchantRoutes } from './provider/merchant.ts';
import { operatorRoutes } from './provider/operators.ts';
import { pageRoutes } from './pages/routes.ts';
import { payoutRoutes } from './provider/payouts.ts';
import { readerRoutes } from './provider/readers.ts';
import { receiptRoutes } from './provider/receipts.ts';
import { transactionRoutes } from './provider/transactions.ts';
import { webhookRoutes } from './control/webhooks.ts';

export const routeModules: readonly (readonly Route[])[] = [
  checkoutRoutes,
  customerRoutes,
  transactionRoutes,
  merchantRoutes,
  payoutRoutes,
  receiptRoutes,
  readerRoutes,
  operatorRoutes,
  pageRoutes,
  controlRoutes,
  deviceRoutes,
  cockpitRoutes,
  webhookRoutes,
  dashboardRoutes,
].map(markDeprecated);
