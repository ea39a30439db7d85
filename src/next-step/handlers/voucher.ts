import { abortedError, firstUnsafe, type Handler, refused } from '../handler.ts';

let voucherCount = 0;

/**
 * Groups the digits the way a shopper reads them aloud or types them into a
 * bank app: a boleto's 47-digit "linha digitável" in its printed layout
 * (5.5 5.6 5.6 1 14), anything else in fives.
 */
export function groupBarcode(digits: string): string {
  if (/^\d{47}$/.test(digits)) {
    const d = digits;
    return `${d.slice(0, 5)}.${d.slice(5, 10)} ${d.slice(10, 15)}.${d.slice(15, 21)} ${d.slice(21, 26)}.${d.slice(26, 32)} ${d.slice(32, 33)} ${d.slice(33)}`;
  }
  return digits.match(/.{1,5}/g)?.join(' ') ?? digits;
}

async function copyText(text: string, fallbackTarget: HTMLElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard permission (insecure context, denied, no user activation):
    // select the digits so the shopper can copy them with one shortcut.
    const selection = window.getSelection();
    const range = document.createRange();
    range.selectNodeContents(fallbackTarget);
    selection?.removeAllRanges();
    selection?.addRange(range);
    return false;
  }
}

/**
 * Boleto: the shopper pays later at a bank, so the widget shows what they need
 * (the digits, a copy button, the printable voucher) and reports pending. It
 * stays on screen until the element aborts the step.
 */
export const voucher: Handler<'voucher'> = async ({ checkout }, ctx) => {
  const boleto = checkout.boleto ?? {};
  if (firstUnsafe({ 'boleto.url': boleto.url }) !== undefined) return refused('boleto.url');
  if (ctx.signal.aborted) throw abortedError(ctx.signal);

  voucherCount += 1;
  const id = `payment-widget-voucher-${voucherCount}`;
  const wrapper = document.createElement('div');
  wrapper.className = 'voucher';
  wrapper.setAttribute('part', 'voucher');
  wrapper.setAttribute('role', 'group');
  wrapper.setAttribute('aria-labelledby', `${id}-title`);

  const title = document.createElement('p');
  title.id = `${id}-title`;
  title.className = 'voucher-title';
  title.textContent = ctx.t('voucherTitle');
  wrapper.append(title);

  const raw = boleto.barcode ?? '';
  const digits = raw.replace(/\D/g, '');
  if (raw !== '') {
    const label = document.createElement('p');
    label.id = `${id}-label`;
    label.className = 'voucher-label';
    label.textContent = ctx.t('voucherBarcode');

    const code = document.createElement('code');
    code.className = 'voucher-barcode';
    code.setAttribute('part', 'voucher-barcode');
    code.textContent = digits === '' ? raw : groupBarcode(digits);

    const status = document.createElement('p');
    status.className = 'voucher-status';
    status.setAttribute('role', 'status');

    const copy = document.createElement('button');
    copy.type = 'button';
    copy.className = 'voucher-copy';
    copy.setAttribute('part', 'voucher-copy');
    copy.setAttribute('aria-describedby', label.id);
    copy.textContent = ctx.t('copy');
    copy.addEventListener('click', async () => {
      // Cleared first so a second copy is announced again.
      status.textContent = '';
      if (await copyText(digits === '' ? raw : digits, code)) {
        status.textContent = ctx.t('copied');
      }
    });

    wrapper.append(label, code, copy, status);
  }

  if (boleto.url !== undefined) {
    const link = document.createElement('a');
    link.className = 'voucher-link';
    link.setAttribute('part', 'voucher-link');
    link.href = boleto.url;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
    link.textContent = ctx.t('openVoucher');
    wrapper.append(link);
  }

  ctx.container.append(wrapper);
  ctx.signal.addEventListener('abort', () => wrapper.remove(), { once: true });
  return { kind: 'pending', checkout };
};
