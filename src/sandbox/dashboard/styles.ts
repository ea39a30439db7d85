// The dashboard's look, shared by its elements. Constructable stylesheets only (Lit's
// adoptedStyleSheets), never a <style> string or a style attribute, so the page runs under
// `style-src 'self'`. Colours follow prefers-color-scheme; each pair passes WCAG AA.

import { css } from 'lit';

/** The document around the elements. */
export const pageStyles = css`
  :root {
    color-scheme: light dark;
    background: #f6f8fa;
    color: #1f2328;
  }
  @media (prefers-color-scheme: dark) {
    :root {
      background: #0d1117;
      color: #e6edf3;
    }
  }
  body {
    margin: 0;
    font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
    line-height: 1.45;
  }
`;

export const shared = css`
  :host {
    --fg: #1f2328;
    --muted: #59636e;
    --bg: #f6f8fa;
    --card: #ffffff;
    --border: #d1d9e0;
    --accent: #0757ba;
    --on-accent: #ffffff;
    --focus: #0757ba;
    --ok-fg: #116329;
    --ok-bg: #dafbe1;
    --bad-fg: #a40e26;
    --bad-bg: #ffebe9;
    --wait-fg: #6c4400;
    --wait-bg: #fff8c5;
    --off-fg: #3d444d;
    --off-bg: #e6eaef;
    display: block;
    color: var(--fg);
    min-width: 0;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --fg: #e6edf3;
      --muted: #9aa4af;
      --bg: #0d1117;
      --card: #151b23;
      --border: #3d444d;
      --accent: #4493f8;
      --on-accent: #0d1117;
      --focus: #4493f8;
      --ok-fg: #7ee2a0;
      --ok-bg: #0f2a1a;
      --bad-fg: #ffa198;
      --bad-bg: #3a1114;
      --wait-fg: #f2cc60;
      --wait-bg: #2e2308;
      --off-fg: #c9d1d9;
      --off-bg: #262c36;
    }
  }
  * {
    box-sizing: border-box;
  }
  [hidden] {
    display: none !important;
  }
  h2 {
    font-size: 1.25rem;
    margin: 0 0 0.75rem;
  }
  h3 {
    font-size: 1rem;
    margin: 0;
  }
  p {
    margin: 0;
  }
  a {
    color: var(--accent);
  }
  ul.items,
  ol.items {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 0.75rem;
  }
  .card {
    background: var(--card);
    border: 1px solid var(--border);
    border-radius: 8px;
    padding: 0.75rem;
    min-width: 0;
    overflow-wrap: anywhere;
  }
  .line {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 0.25rem 0.75rem;
  }
  .muted {
    color: var(--muted);
  }
  .mono {
    font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace;
    font-size: 0.875em;
  }
  .badge {
    display: inline-block;
    border-radius: 999px;
    padding: 0 0.5rem;
    font-size: 0.8125rem;
    font-weight: 600;
    background: var(--off-bg);
    color: var(--off-fg);
  }
  .badge.ok {
    background: var(--ok-bg);
    color: var(--ok-fg);
  }
  .badge.bad {
    background: var(--bad-bg);
    color: var(--bad-fg);
  }
  .badge.wait {
    background: var(--wait-bg);
    color: var(--wait-fg);
  }
  button {
    font: inherit;
    font-size: 0.875rem;
    border-radius: 6px;
    border: 1px solid var(--border);
    background: var(--card);
    color: var(--fg);
    padding: 0.25rem 0.75rem;
    cursor: pointer;
  }
  button.primary {
    background: var(--accent);
    border-color: var(--accent);
    color: var(--on-accent);
    font-weight: 600;
  }
  button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
  input,
  select {
    font: inherit;
    font-size: 0.875rem;
    color: var(--fg);
    background: var(--card);
    border: 1px solid var(--muted);
    border-radius: 6px;
    padding: 0.25rem 0.5rem;
    min-width: 0;
    max-width: 100%;
  }
  label {
    font-size: 0.875rem;
    font-weight: 600;
  }
  :focus-visible {
    outline: 2px solid var(--focus);
    outline-offset: 2px;
  }
  form.inline {
    display: flex;
    flex-wrap: wrap;
    align-items: end;
    gap: 0.5rem 0.75rem;
  }
  .field {
    display: grid;
    gap: 0.125rem;
    min-width: 0;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    margin-top: 0.5rem;
  }
  details > summary {
    cursor: pointer;
    margin-top: 0.5rem;
    color: var(--accent);
    font-size: 0.875rem;
  }
  dl {
    display: grid;
    grid-template-columns: max-content minmax(0, 1fr);
    gap: 0.125rem 0.75rem;
    margin: 0.5rem 0 0;
    font-size: 0.875rem;
  }
  dt {
    color: var(--muted);
  }
  dd {
    margin: 0;
    min-width: 0;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
    border: 0;
  }
  .empty {
    color: var(--muted);
    font-style: italic;
  }
`;
