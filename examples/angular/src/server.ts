// Angular's Express server, with the payment handler at /payments and the basket's cookie.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  AngularNodeAppEngine,
  createNodeRequestHandler,
  isMainModule,
  writeResponseToNodeResponse,
} from '@angular/ssr/node';
import express from 'express';
import { toNodeListener } from 'payment-widget/server';
import { basketOf, paymentHandler } from './payments';

const app = express();
const angularApp = new AngularNodeAppEngine();
const newBasket = () => `basket=${randomUUID()}; Path=/; HttpOnly; SameSite=Lax`;

// Every route the widget calls, before the pages (and without the basket's cookie: 3-D
// Secure in the widget's iframe comes back to /payments/return from the bank's site).
const payments = toNodeListener((request, env) => paymentHandler()(request, env));
app.all('/payments/*splat', payments);

app.use(
  express.static(join(import.meta.dirname, '../browser'), {
    maxAge: '1y',
    index: false,
    redirect: false,
  }),
);

// "Buy again" (src/app/checkout.ts): a new basket, for the shop's own pages only.
app.post('/basket', (req, res) => {
  const { SHOP_ORIGIN } = process.env;
  if (req.headers.origin !== SHOP_ORIGIN) res.sendStatus(403);
  else res.append('set-cookie', newBasket()).sendStatus(204);
});

// The pages set the shopper's basket: a reload, a second tab or a return from the bank's
// page finds its one checkout.
app.use((req, res, next) => {
  if (basketOf(req.headers.cookie) === undefined) res.append('set-cookie', newBasket());
  next();
});

app.use((req, res, next) => {
  angularApp
    .handle(req)
    .then((response) => (response ? writeResponseToNodeResponse(response, res) : next()))
    .catch(next);
});

if (isMainModule(import.meta.url)) {
  const { PORT = '4000', HOST = '127.0.0.1' } = process.env;
  app.listen(Number(PORT), HOST, (error) => {
    if (error) throw error;
    console.log(`listening on http://${HOST}:${PORT}`);
  });
}

// The request handler `ng serve` and `ng build` use.
export const reqHandler = createNodeRequestHandler(app);
