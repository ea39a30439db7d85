export { CATALOGUE, findProduct, type Product, resolveOrder } from './catalogue.ts';
export { optionsFromEnv } from './env.ts';
export {
  DEMO_CUSTOMER_ID,
  type ServerExample,
  type ServerExampleOptions,
  startServerExample,
} from './server.ts';
