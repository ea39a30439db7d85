import { withQuery } from '../shared/url.ts';
import type { NavigateRequest } from './runner.ts';
import type { NextStepContext, Outcome } from './types.ts';

/**
 * Builds a form of hidden inputs, one per field (3DS and bank pages expect a
 * real form submission, not XHR). A GET form replaces the action's query with
 * its fields, so for GET the action's own query is carried over as inputs too.
 */
export function buildForm(request: NavigateRequest, doc: Document = document): HTMLFormElement {
  const form = doc.createElement('form');
  form.method = request.method.toLowerCase();
  form.hidden = true;
  let fields: [string, string][] = Object.entries(request.fields);
  if (request.method === 'GET') {
    const url = new URL(request.url);
    fields = [...url.searchParams.entries(), ...fields];
    url.search = '';
    form.action = url.href;
  } else {
    form.action = request.url;
  }
  for (const [name, value] of fields) {
    const input = doc.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  return form;
}

/** The real top-level navigation used when the context injects none. */
function navigateTop(request: NavigateRequest): void {
  if (request.method === 'GET') {
    location.assign(withQuery(request.url, request.fields));
    return;
  }
  const form = buildForm(request);
  // This window, whatever the page's <base target> says (Storybook's preview frame has
  // `_parent`; `_blank` would leave the shopper's page blank behind a new tab).
  form.target = '_self';
  // Outside the widget's shadow root: a form must be in the document to submit.
  document.body.append(form);
  form.submit();
}

/** Tells the element a redirect is starting, then leaves the page. */
export function leave(ctx: NextStepContext, request: NavigateRequest): Outcome {
  ctx.onChallenge({ mode: 'redirect', url: request.url });
  (ctx.navigate ?? navigateTop)(request);
  return { kind: 'navigating' };
}
