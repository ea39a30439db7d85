/**
 * The till's recent in-person payments, in memory: a demo keeps the last ones; a shop
 * would store them with its orders.
 */

export type PaymentStatus = 'pending' | 'successful' | 'failed';

export interface InPersonPayment {
  id: string;
  reader_id: string;
  amount: string;
  currency: string;
  status: PaymentStatus;
  /** Set once the provider's webhook has been confirmed against the transaction. */
  transaction_code?: string;
  created_at: string;
}

const MAX_PAYMENTS = 200;

export function createPaymentLog() {
  const payments = new Map<string, InPersonPayment>();
  return {
    get: (id: string) => payments.get(id),
    remember(payment: InPersonPayment): void {
      payments.set(payment.id, payment);
      // Maps iterate in insertion order: the first key is the oldest payment.
      while (payments.size > MAX_PAYMENTS) {
        payments.delete(payments.keys().next().value as string);
      }
    },
    /** The newest payment still pending on this reader. */
    pendingOn(readerId: string): InPersonPayment | undefined {
      return [...payments.values()]
        .reverse()
        .find((p) => p.reader_id === readerId && p.status === 'pending');
    },
  };
}
