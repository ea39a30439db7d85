import { h } from '../dom.ts';
import { abortReason, refusal, type StepRunner } from '../runner.ts';

let voucherCount = 0;

/**
 * Groups the digits the way a shopper reads them aloud or types them into a
 * bank app: a boleto's 47-digit "linha digitável" in its printed layout
 * (5.5 5.6 5.6 1 14), anything else in fives.
 */
function groupBarcode(digits: string): string {
  return /^\d{47}$/.test(digits)
    ? digits.replace(/(.{5})(.{5})(.{5})(.{6})(.{5})(.{6})(.)/, '$1.$2 $3.$4 $5.$6 $7 ')
    : digits.replace(/.{5}(?=.)/g, '$& ');
}

async function copyText(text: string, fallbackTarget: HTMLElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard permission (insecure context, denied, no user activation):
    // select the digits so the shopper can copy them with one shortcut.
    // selectAllChildren, not addRange: WebKit ignores a range added inside a
    // shadow root, where the digits are, and would leave nothing selected.
    getSelection()?.selectAllChildren(fallbackTarget);
    return false;
  }
}

/**
 * Boleto: the shopper pays later at a bank, so the widget shows what they need
 * (the digits, a copy button, the printable voucher) and reports pending. It
 * stays on screen until the element aborts the step.
 */
export const voucher: StepRunner<'voucher'> = async ({ checkout }, ctx) => {
  const boleto = checkout.boleto ?? {};
  const refused = refusal({ 'boleto.url': boleto.url });
  if (refused) return refused;
  // Rejects with the abort reason, as fetch does, so callers treat both alike.
  if (ctx.signal.aborted) throw abortReason(ctx.signal);

  voucherCount += 1;
  // Ids are the shadow root's own: no page id can clash.
  const id = `voucher-${voucherCount}`;
  const wrapper = h(
    'div',
    { class: 'voucher', part: 'voucher', role: 'group', 'aria-labelledby': `${id}-title` },
    h('p', { id: `${id}-title`, class: 'voucher-title' }, ctx.t('voucherTitle')),
  );

  const raw = boleto.barcode ?? '';
  const digits = raw.replace(/\D/g, '');
  if (raw !== '') {
    const code = h(
      'code',
      { class: 'voucher-barcode', part: 'voucher-barcode' },
      digits === '' ? raw : groupBarcode(digits),
    );
    const status = h('p', { class: 'voucher-status', role: 'status' });
    const copy = h(
      'button',
      {
        type: 'button',
        class: 'voucher-copy',
        part: 'voucher-copy',
        'aria-describedby': `${id}-label`,
      },
      ctx.t('copy'),
    );
    copy.addEventListener('click', async () => {
      // Cleared first so a second copy is announced again. Refused, the digits
      // are selected and the shopper is told how to copy them.
      status.textContent = '';
      status.textContent = ctx.t(
        (await copyText(digits === '' ? raw : digits, code)) ? 'copied' : 'copyManual',
      );
    });
    wrapper.append(
      h('p', { id: `${id}-label`, class: 'voucher-label' }, ctx.t('voucherBarcode')),
      code,
      copy,
      status,
    );
  }

  if (boleto.url !== undefined) {
    wrapper.append(
      h(
        'a',
        {
          class: 'voucher-link',
          part: 'voucher-link',
          href: boleto.url,
          target: '_blank',
          rel: 'noopener noreferrer',
        },
        ctx.t('openVoucher'),
      ),
    );
  }

  ctx.container.append(wrapper);
  ctx.signal.addEventListener('abort', () => wrapper.remove(), { once: true });
  return { kind: 'pending', checkout };
};
