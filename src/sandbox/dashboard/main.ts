// The dashboard's script (built to dist/sandbox-dashboard/dashboard.js, served by the
// sandbox at /sandbox/dashboard/dashboard.js). Browser code only: nothing here runs in Node.
// The elements are defined here, in the entry, so that no bundler can drop a definition as
// an unused import.

import { SandboxDashboard } from './app.ts';
import { SandboxCheckouts } from './checkouts-view.ts';
import { SandboxCustomers } from './customers-view.ts';
import { SandboxOutcomes } from './outcomes-view.ts';
import { SandboxReaders } from './readers-view.ts';
import { SandboxRequests } from './requests-view.ts';
import { SandboxSignIn } from './sign-in.ts';
import { pageStyles } from './styles.ts';
import { SandboxToolbar } from './toolbar.ts';
import { SandboxWebhooks } from './webhooks-view.ts';

// The document's own colours, as a constructable stylesheet: the page's CSP allows no
// inline style.
if (pageStyles.styleSheet) {
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, pageStyles.styleSheet];
}

const ELEMENTS: Record<string, CustomElementConstructor> = {
  'sandbox-checkouts': SandboxCheckouts,
  'sandbox-customers': SandboxCustomers,
  'sandbox-outcomes': SandboxOutcomes,
  'sandbox-readers': SandboxReaders,
  'sandbox-requests': SandboxRequests,
  'sandbox-sign-in': SandboxSignIn,
  'sandbox-toolbar': SandboxToolbar,
  'sandbox-webhooks': SandboxWebhooks,
  // Last: the page's own element renders the others.
  'sandbox-dashboard': SandboxDashboard,
};
for (const [name, element] of Object.entries(ELEMENTS)) customElements.define(name, element);
