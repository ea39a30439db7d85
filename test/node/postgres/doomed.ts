// A shop instance in a process of its own, to be killed mid-hook: it reports the checkout
// named by each message from the parent through its webhook route, and tells the parent
// `crash-point` when its hook reaches the point it is to die at (PW_CRASH_AT).
import { webhookRequest } from '../server/fixtures.ts';
import { type CrashPoint, postgresShop } from './shop.ts';

const settings = JSON.parse(process.env.PW_SHOP ?? '{}') as {
  sandbox: { url: string; apiKey: string; merchantCode: string };
  url: string;
  leaseMs: number;
  crashAt: CrashPoint;
};
const send = (message: unknown) => process.send?.(message);
const shop = postgresShop(settings.sandbox, settings.url, {
  name: 'doomed',
  leaseMs: settings.leaseMs,
  crashAt: settings.crashAt,
  atCrash: () => send({ type: 'crash-point' }),
});
process.on('message', (message: { id: string }) => {
  void shop.h.handle(webhookRequest(message.id));
});
send({ type: 'ready' });
