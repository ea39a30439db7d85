import { CHALLENGE_COMPLETE } from '../../domain/checkout.ts';
import { h } from '../dom.ts';
import { hold } from '../hold.ts';
import { buildForm } from '../navigate.ts';
import { methodOf, refusal, type StepRunner } from '../runner.ts';

// What the issuer's challenge page may do in the frame, and no more. It needs its scripts
// (allow-scripts) and forms (allow-forms, the answer it posts to TermUrl), its own origin
// (allow-same-origin: its cookies and storage, and the origin its completion message comes
// from, which the widget checks), and windows for its help links (allow-popups, themselves
// sandboxed). Everything else stays refused: navigating the merchant's page (no
// allow-top-navigation: a hostile or hijacked challenge page cannot send the shopper away),
// dialogs over the shop (no allow-modals), downloads, pointer lock and the rest.
//
// allow-scripts beside allow-same-origin lets a document of the page's own origin take the
// sandbox off its frame, which browsers warn of ("can escape its sandboxing") whenever one
// loads in such a frame. None does: the flags are set once the frame is on the page, so
// they apply from the challenge's own navigation on and the frame's first, empty document
// (the page's origin) is never sandboxed; and the handler's return page, the one page of
// the merchant's origin a challenge ends on, sandboxes itself to an opaque origin
// (src/server/routes/return-frame.ts). The issuer's pages are of other origins, which no
// flag lets reach the merchant's page.
const FRAME_SANDBOX = 'allow-forms allow-scripts allow-same-origin allow-popups';

/** The end page's message: the bare string, or `{ type }` as some ACS pages send. */
const isCompletion = (data: unknown): boolean =>
  data === CHALLENGE_COMPLETE || (data as { type?: unknown } | null)?.type === CHALLENGE_COMPLETE;

/**
 * 3DS inside the widget: the payload is POSTed into a named iframe, as EMVCo's
 * browser flow expects. The outcome comes from the backend (hold's confirmLoop); a
 * completion message from the challenge's own frame and origin only asks sooner. The
 * same for a challenge shown again after a reload: it is posted again.
 */
export const challengeIframe: StepRunner<'challenge-iframe'> = async ({ nextStep }, ctx) => {
  const { url = '' } = nextStep;
  const payload = nextStep.payload ?? {};
  const termUrl = payload.TermUrl;
  const refused = refusal({ 'next_step.url': url, 'next_step.payload.TermUrl': termUrl });
  if (refused) return refused;

  // The end page lives at TermUrl's origin (the provider's); without a TermUrl the challenge
  // page itself must report. When the checkout has a redirect_url, the challenge ends at the
  // merchant's handler instead: its return page, of an opaque origin, says nothing the
  // widget trusts, and the checkout read back shows the outcome.
  const trusted = new URL(termUrl ?? url).origin;
  // Unique per challenge, so a late answer can never land in a newer frame.
  const name = `payment-widget-challenge-${Math.random().toString(36).slice(2)}`;

  const title = ctx.t('challengeTitle');
  // Attributes give EMVCo's 390x400 even if the element forgot our styles.
  const frame = h('iframe', {
    name,
    title,
    class: 'challenge-frame',
    part: 'challenge-frame',
    width: '390',
    height: '400',
  });
  const form = buildForm({ url, method: methodOf(nextStep.method), fields: { ...payload } });
  form.target = name;
  const cancel = h(
    'button',
    { type: 'button', class: 'challenge-cancel', part: 'challenge-cancel' },
    ctx.t('cancel'),
  );
  // The bank's page in a frame of its own, headed by what it asks (the page itself says for
  // how much, as EMVCo's challenge pages must): the issuer's page is not the shop's, and must
  // not read as part of it. The box is a group of that name, where focus lands when the
  // challenge opens from the widget (src/widget/checkout/focus.ts): a screen reader says
  // what opened, and Tab goes on into the frame.
  //
  // Until the bank's page has loaded (1.5 s and more on a slow network), the frame's place
  // says so, politely, where the frame will be (styles.ts): the box keeps the frame's size,
  // so nothing moves when the page replaces the words. They come with the box, which focus
  // lands on (its name is said first), rather than a frame later, which would leave the box
  // blank for that frame and the words unsaid when a fast page beats it.
  const loading = h('p', { class: 'challenge-loading', role: 'status' }, ctx.t('challengeLoading'));
  const box = h(
    'div',
    {
      class: 'challenge-box',
      part: 'challenge-box',
      role: 'group',
      'aria-label': title,
      tabindex: '-1',
    },
    h('p', { class: 'challenge-head' }, title),
    loading,
    frame,
  );
  const wrapper = h('div', { class: 'step', part: 'challenge' }, box, form, cancel);

  return hold(ctx, wrapper, ({ end, nudge }) => {
    // Cut off while offline, the challenge's page is lost: Chromium shows its error page ("No
    // internet") and says it loaded, Firefox shows its own and says nothing, WebKit leaves
    // the frame as it was, empty at first; nothing loads it again. Back online, a frame that
    // never loaded, or last loaded while offline, is posted the challenge again, as a reload
    // would, unless the checkout read back is over meanwhile. Posting it again only shows the
    // bank's page once more (the sandbox's shows what it asks, or that it is settled), and
    // never pays: paying is the widget's process call, made once, before.
    let offline = false;
    const online = (): void => {
      if (loading.hidden && !offline) return;
      offline = false;
      const again = (): void => {
        loading.hidden = false;
        form.submit();
      };
      ctx
        .confirm(ctx.signal)
        .then((checkout) => (ctx.isFinal(checkout.status) ? nudge() : again()), again);
    };
    const onMessage = (event: MessageEvent): void => {
      if (event.origin !== trusted) return;
      if (event.source === null || event.source !== frame.contentWindow) return;
      if (!isCompletion(event.data)) return;
      nudge();
    };
    // Back at the merchant's own origin (the shop's page, where a browser sent no
    // Sec-Fetch-Dest and the handler's return redirected): the challenge is over, and that
    // page is not the widget's to show. Pages of other origins (the issuer's, the handler's
    // self-sandboxed return page) throw on the read and are left alone.
    frame.addEventListener('load', () => {
      loading.hidden = true;
      offline = !navigator.onLine;
      try {
        if (frame.contentWindow?.location.href.startsWith(`${ctx.returnOrigin}/`)) {
          frame.hidden = true;
          nudge();
        }
      } catch {}
    });
    addEventListener('message', onMessage);
    addEventListener('online', online);
    cancel.addEventListener('click', () => end({ kind: 'cancelled' }));
    ctx.onChallenge({ mode: 'iframe', url });
    // On the page now, its first document loaded: the sandbox holds from the challenge on.
    frame.setAttribute('sandbox', FRAME_SANDBOX);
    // The form must be connected to submit; the frame must be connected to be a target.
    form.submit();
    return () => {
      removeEventListener('message', onMessage);
      removeEventListener('online', online);
    };
  });
};
