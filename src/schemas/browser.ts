// What the widget needs, and nothing that pulls the server-only schemas in.
export * from './checkout.ts';
export * from './checkout-body.ts';
export * from './common.ts';
export * from './error.ts';
