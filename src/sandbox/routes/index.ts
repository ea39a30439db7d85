// Every route module, registered in one place. A new area (merchant, payouts, receipts,
// readers, operators) is a new module exporting `Route[]` plus one line here.

import type { Route } from '../route.ts';
import { checkoutRoutes } from './checkouts.ts';
import { cockpitRoutes } from './cockpit.ts';
import { controlRoutes } from './control.ts';
import { customerRoutes } from './customers.ts';
import { dashboardRoutes } from './dashboard.ts';
import { markDeprecated } from './deprecation.ts';
import { deviceRoutes } from './devices/control.ts';
import { merchantRoutes } from './merchant.ts';
import { operatorRoutes } from './operators.ts';
import { pageRoutes } from './pages.ts';
import { payoutRoutes } from './payouts.ts';
import { readerRoutes } from './readers.ts';
import { receiptRoutes } from './receipts.ts';
import { transactionRoutes } from './transactions.ts';
import { webhookRoutes } from './webhooks.ts';

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
