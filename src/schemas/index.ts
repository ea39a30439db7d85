// Zod schemas of the provider API, shared by the widget, the server and the
// sandbox. Browser code imports './browser.ts' instead, to keep its bundle small.
export * from './browser.ts';
export * from './customer.ts';
export * from './issues.ts';
export * from './merchant.ts';
export * from './operator.ts';
export * from './payout.ts';
export * from './reader.ts';
export * from './receipt.ts';
export * from './transaction.ts';
