// The payment handler as a server route: every route the widget calls, under /api/payments.
import { createFileRoute } from '@tanstack/react-router';
import { paymentHandler } from '../../../payments.server';

const handle = ({ request }: { request: Request }) => paymentHandler()(request);

export const Route = createFileRoute('/api/payments/$')({
  server: { handlers: { GET: handle, POST: handle, PUT: handle } },
});
