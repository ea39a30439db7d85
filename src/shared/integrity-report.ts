// What the handler's `POST /reports` hears when a file of the widget failed its integrity: one
// report in the Reporting API's shape, sent as a beacon to `endpoint + '/reports'`. Two
// senders: the widget, for its parts and locales (src/widget/parts/tampering.ts), and the
// page's guard of the widget's first file, which widgetTags() writes
// (src/server/page/entry-guard.ts). One reader: src/server/page/violations.ts.

/** The report's `type`. */
export const INTEGRITY_REPORT = 'payment-widget-integrity';

/** One report: the page it happened on, the file refused and the hash it should have had. */
export interface IntegrityReport {
  type: typeof INTEGRITY_REPORT;
  /** The page's URL (`location.href`). */
  url: string;
  body: { blockedURL: string; integrity: string };
}
