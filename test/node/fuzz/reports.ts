// The handler's POST /reports as the fuzz run sends it (./targets.ts): a payment page's CSP
// report, both ways browsers send it, on a page of the shop's origin.

/** The two report routes for a shop at `origin`. */
export function reportRoutes(origin: string) {
  const report = {
    type: 'csp-violation',
    url: `${origin}/checkout?basket=1`,
    body: {
      documentURL: `${origin}/checkout?basket=1`,
      blockedURL: 'https://skimmer.example/x.js?c=1',
      effectiveDirective: 'script-src-elem',
      disposition: 'enforce',
      sourceFile: `${origin}/checkout`,
      lineNumber: 3,
      sample: '',
    },
  };
  const cspReport = {
    'document-uri': `${origin}/checkout`,
    'blocked-uri': 'inline',
    'effective-directive': 'script-src-elem',
    'script-sample': 'alert(1)',
  };

  return [
    { method: 'POST', path: '/payments/reports', body: [report] },
    { method: 'POST', path: '/payments/reports', body: { 'csp-report': cspReport } },
  ];
}
