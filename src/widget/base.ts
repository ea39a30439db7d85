// The element's reactive base: the part of LitElement the widget uses, in a
// fraction of its bytes (issue 9: the script-tag build must fit 16 KB gzip).
// Templates are still lit-html's; what this replaces is ReactiveElement and
// its decorator, controller, reflection and polyfill support, which measured
// about 2.4 KB gzip of the bundle while the widget needs only: declared
// properties fed from attributes, one batched render per microtask,
// `updated(changed)`, `updateComplete`, and a shadow root adopting one sheet.

import { render } from 'lit/html.js';

export interface PropertyOptions {
  /** The attribute that feeds the property: its kebab-case name when left out, none when false. */
  attribute?: string | false;
  /** Boolean: present or not (false until set); Number: parsed. Anything else is taken as a string. */
  type?: BooleanConstructor | NumberConstructor;
  converter?: { fromAttribute(value: string | null): unknown };
  /** Internal state: no attribute. */
  state?: boolean;
  /** Whether a set is a change worth rendering; by default any value not `Object.is` the old. */
  hasChanged?(next: unknown, previous: unknown): boolean;
}

/** The names of the properties set since the last update, with their values before it. */
export type Changed = Map<PropertyKey, unknown>;

/**
 * Tags CSS so the build squeezes it (vite.config.ts); no interpolation. Plain
 * text, so Node can import the modules that declare styles; the element turns
 * it into one adopted sheet, never a <style> element: the widget runs under a
 * CSP without 'unsafe-inline'.
 */
export const css = (strings: TemplateStringsArray): string => strings.join('');

/** The attribute that feeds a property: its kebab-case name unless told otherwise; none for state. */
const attributeOf = (name: string, options: PropertyOptions): string | false =>
  !options.state &&
  options.attribute !== false &&
  (options.attribute ?? name.replace(/[A-Z]/g, '-$&').toLowerCase());

export abstract class ReactiveElement extends HTMLElement {
  static properties: Record<string, PropertyOptions> = {};
  /** CSS text for the shadow root, built into one constructable sheet per element. */
  static styles = '';
  /**
   * Read once, when the tag is defined (before any instance exists): the moment
   * to put an accessor on the prototype for each declared property.
   */
  static get observedAttributes(): string[] {
    const attributes: string[] = [];
    // `this` is the subclass being defined, whose properties and prototype these are.
    // biome-ignore lint/complexity/noThisInStatic: see above.
    for (const [name, options] of Object.entries(this.properties)) {
      // biome-ignore lint/complexity/noThisInStatic: see above.
      Object.defineProperty(this.prototype, name, {
        get(this: ReactiveElement) {
          return this.props_.get(name);
        },
        set(this: ReactiveElement, value: unknown) {
          const previous = this.props_.get(name);
          if (!(options.hasChanged?.(value, previous) ?? !Object.is(value, previous))) return;
          this.props_.set(name, value);
          if (!this.changed_.has(name)) this.changed_.set(name, previous);
          this.requestUpdate();
        },
        configurable: true,
      });
      const attribute = attributeOf(name, options);
      if (attribute) attributes.push(attribute);
    }
    return attributes;
  }

  /** The open shadow root everything renders into; set on first connection. */
  renderRoot!: ShadowRoot;
  hasUpdated = false;
  /** Resolves once the pending render (if any) is done. */
  updateComplete: Promise<boolean> = Promise.resolve(true);

  /** @internal read and written by the accessors observedAttributes defines. */
  props_ = new Map<string, unknown>();
  /** @internal */
  changed_: Changed = new Map();
  private pending_ = false;
  /** Resolves on first connection: nothing renders before that. */
  private connected_: Promise<void>;
  private connect_!: () => void;
  /** Values a page set on the element before its class was defined (an upgrade). */
  private early_: [string, unknown][] = [];

  constructor() {
    super();
    const self = this as unknown as Record<string, unknown>;
    const ctor = this.constructor as typeof ReactiveElement;
    for (const [name, options] of Object.entries(ctor.properties)) {
      // An own property would shadow the accessor: take it now, set it again on connection.
      if (Object.hasOwn(this, name)) {
        this.early_.push([name, self[name]]);
        delete self[name];
      }
      if (options.type === Boolean) self[name] = false;
    }
    this.connected_ = new Promise((resolve) => {
      this.connect_ = resolve;
    });
    this.requestUpdate();
  }

  connectedCallback(): void {
    if (!this.renderRoot) {
      const ctor = this.constructor as typeof ReactiveElement;
      this.renderRoot = this.attachShadow({ mode: 'open' });
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(ctor.styles);
      this.renderRoot.adoptedStyleSheets = [sheet];
      for (const [name, value] of this.early_)
        (this as unknown as Record<string, unknown>)[name] = value;
      this.early_ = [];
    }
    this.connect_();
  }

  disconnectedCallback(): void {}

  attributeChangedCallback(attribute: string, _old: string | null, value: string | null): void {
    const ctor = this.constructor as typeof ReactiveElement;
    for (const [name, options] of Object.entries(ctor.properties)) {
      if (attributeOf(name, options) !== attribute) continue;
      (this as unknown as Record<string, unknown>)[name] = options.converter
        ? options.converter.fromAttribute(value)
        : options.type === Boolean
          ? value !== null
          : options.type === Number
            ? value === null
              ? null
              : Number(value)
            : value;
    }
  }

  /** Schedules one render for everything set in this task. */
  requestUpdate(): void {
    if (this.pending_) return;
    this.pending_ = true;
    this.updateComplete = this.update_();
  }

  private async update_(): Promise<boolean> {
    await this.connected_;
    const changed = this.changed_;
    this.changed_ = new Map();
    this.pending_ = false;
    render(this.render(), this.renderRoot, { host: this });
    this.hasUpdated = true;
    this.updated(changed);
    return !this.pending_;
  }

  protected abstract render(): unknown;

  protected updated(_changed: Changed): void {}
}
