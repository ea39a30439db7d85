// The companion handler as a route handler: every method the widget calls, under the
// handler's own basePath, so Next.js hands it each request whole.
import { payments } from '../../../payments.ts';

export { payments as GET, payments as OPTIONS, payments as POST, payments as PUT };
