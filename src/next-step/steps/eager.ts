// The same next steps as lazy.ts, bundled in: what dist/index.js, the ES entry bundlers
// take, is built with (vite.module.config.ts aliases lazy.ts to this file).
export { apmRedirect } from '../handlers/apm-redirect.ts';
export { challengeRedirect } from '../handlers/challenge-redirect.ts';
export { voucher } from '../handlers/voucher.ts';
