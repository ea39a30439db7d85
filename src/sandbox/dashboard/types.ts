// What the dashboard reads from the control surface: the server's own types, imported as
// types only (nothing of the server is bundled into the page).

export type {
  CustomerView,
  DeviceView,
  Overview,
  OverviewCheckout,
  ReaderCheckoutView,
  ReaderView,
  TransactionView,
} from '../control/overview.ts';
export type {
  DeliveryRecord as Delivery,
  OutcomeRecord as OutcomeRule,
  WebhookFaultRecord as WebhookFault,
} from '../state/records.ts';
export type { RequestJson as RequestEntry } from '../state/request-log.ts';
