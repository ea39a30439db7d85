// What a screen-reader user hears from the widget, written down in order: each focus move
// (the control's role, accessible name and description, and its states) and each new text
// of a live region. Names and descriptions are computed by dom-accessibility-api, the
// W3C accessible-name algorithm that follows `for` and `aria-describedby` inside the
// shadow root; the virtual screen reader tried first walks child nodes only and reads
// nothing inside a shadow root, so it cannot hear this widget.
import {
  computeAccessibleDescription,
  computeAccessibleName,
  getRole,
} from 'dom-accessibility-api';

/** Live regions, and those made quiet by aria-live="off" (which outranks a role's own politeness). */
const LIVE = '[role=status], [role=alert], [aria-live]';

const clean = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, ' ').trim();

/** The element that has focus, inside however many shadow roots. */
function focused(root: DocumentOrShadowRoot): Element | null {
  const active = root.activeElement;
  return active?.shadowRoot?.activeElement ? focused(active.shadowRoot) : active;
}

/** How a screen reader announces `el` when it gets focus: role, "name", description, states. */
export function announce(el: Element): string {
  const role = getRole(el) ?? el.localName;
  const name = clean(computeAccessibleName(el));
  const parts = [role, `"${name}"`];
  // A title that names an element (a frame's) is not read again as its description.
  const description = clean(computeAccessibleDescription(el));
  if (description && description !== name) parts.push(description);
  if (el.getAttribute('aria-invalid') === 'true') parts.push('invalid entry');
  if (el.matches(':required')) parts.push('required');
  if (el.matches('input[type=radio], input[type=checkbox]')) {
    parts.push((el as HTMLInputElement).checked ? 'checked' : 'not checked');
  }
  if (el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true') parts.push('dimmed');
  if (el.closest('[aria-busy=true]')) parts.push('busy');
  return parts.join(', ');
}

export class Listener {
  private lines: string[] = [];
  /** What the control with focus said last. */
  private focus = '';
  private focusedElement: Element | null = null;
  private readonly said = new Map<Element, string>();
  private readonly observer = new MutationObserver(() => this.readLive());

  private readonly host: HTMLElement;

  constructor(host: HTMLElement) {
    this.host = host;
    const root = host.shadowRoot;
    if (!root) throw new Error('the widget has no shadow root');
    // On the root, not the host: a move between two controls inside it never reaches the host.
    root.addEventListener('focusin', this.onFocus);
    host.addEventListener('focusin', this.onHostFocus);
    // What the regions hold when listening starts was there before: not announced.
    for (const region of root.querySelectorAll(LIVE))
      this.said.set(region, clean(region.textContent));
    this.observer.observe(root, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['disabled', 'hidden', 'aria-busy', 'aria-invalid', 'aria-describedby'],
    });
  }

  /** What was heard since the last call. */
  take(): string[] {
    if (this.observer.takeRecords().length > 0) this.readLive();
    const heard = this.lines;
    this.lines = [];
    return heard;
  }

  stop(): void {
    this.observer.disconnect();
    this.host.shadowRoot?.removeEventListener('focusin', this.onFocus);
    this.host.removeEventListener('focusin', this.onHostFocus);
  }

  /** Focus on the element itself (handed on to it when the control that had it is gone). */
  private readonly onHostFocus = (event: FocusEvent): void => {
    if (event.composedPath()[0] === this.host) this.onFocus();
  };

  private readonly onFocus = (): void => {
    const root = this.host.shadowRoot;
    this.focusedElement = (root ? focused(root) : null) ?? this.host;
    this.focus = announce(this.focusedElement);
    // A region that changed in the same task is read before the focus move lands.
    if (this.observer.takeRecords().length > 0) this.readLive();
    this.lines.push(`focus: ${this.focus}`);
  };

  /** The control with focus read again when what it says changes (its name, dimmed, busy). */
  private rereadFocus(): void {
    const root = this.host.shadowRoot;
    const el = root ? focused(root) : null;
    // A control hidden while it has focus is read by no one (Chromium drops such focus,
    // WebKit keeps it on the hidden control).
    if (!el || el !== this.focusedElement || el.getClientRects().length === 0) return;
    const now = announce(el);
    if (now === this.focus) return;
    this.focus = now;
    this.lines.push(`focus, changed: ${now}`);
  }

  /**
   * A live region is announced when its text changes to something (a cleared one is silent);
   * one that is off while it changes says nothing of that change.
   */
  private readLive(): void {
    for (const region of this.host.shadowRoot?.querySelectorAll(LIVE) ?? []) {
      const text = clean(region.textContent);
      if (text === (this.said.get(region) ?? '')) continue;
      this.said.set(region, text);
      const politeness =
        region.getAttribute('aria-live') ??
        (region.matches('[role=alert]') ? 'assertive' : 'polite');
      if (text && politeness !== 'off') this.lines.push(`live (${politeness}): ${text}`);
    }
    this.rereadFocus();
  }
}

/** The keyboard's stops through the widget, as Tab visits them (one per radio group). */
export function tabStops(host: HTMLElement): HTMLElement[] {
  const all = host.shadowRoot?.querySelectorAll<HTMLElement>(
    'input, select, textarea, button, a[href], iframe, [tabindex]',
  );
  const groups = new Set<string>();
  return [...(all ?? [])].filter((el) => {
    if (el.tabIndex < 0 || el.matches(':disabled') || el.getClientRects().length === 0)
      return false;
    if (!(el instanceof HTMLInputElement) || el.type !== 'radio') return true;
    const group = el.name;
    const checked = host.shadowRoot?.querySelector(`input[type=radio][name="${group}"]:checked`);
    if (checked ? checked !== el : groups.has(group)) return false;
    groups.add(group);
    return true;
  });
}
