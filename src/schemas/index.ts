// Zod schemas of the provider API (`payment-widget/schemas`): the handler checks
// request bodies and the provider's answers with them, the sandbox what it is sent,
// and a merchant's code may import them. The widget imports none of them: it reads
// the handler's answers, not the provider's.
export * from './checkout.ts';
export * from './checkout-body.ts';
export * from './common.ts';
export * from './customer.ts';
export * from './error.ts';
export * from './issues.ts';
export * from './merchant.ts';
export * from './methods/index.ts';
export * from './operator.ts';
export * from './payout.ts';
export * from './reader.ts';
export * from './receipt.ts';
export * from './transaction.ts';
