// Zod schemas of the provider API, shared by the widget, the server and the
// sandbox. Browser code should import from './browser.ts' to keep its bundle small.
export * from './browser.ts';
export * from './customer.ts';
export * from './issues.ts';
export * from './transaction.ts';
