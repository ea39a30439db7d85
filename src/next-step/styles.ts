import { css } from '../widget/css.ts';

/**
 * Styles for what the next-step runners render into the element's shadow
 * root; the element adds this to its `static styles`.
 *
 * The build takes the CSS's whitespace out (scripts/minify-css.ts). Notes:
 * - the challenge frame is EMVCo's 390x400 window, never wider than the widget;
 *   on small screens it takes the full width, as EMVCo allows. It sits in a box of its own
 *   (a border, and a head saying what the bank asks), so the issuer's page
 *   never reads as part of the shop's: the box is the window's width and its border (392px),
 *   the head wraps inside it, apart from the window (its margin). Until the bank's page has
 *   loaded, its words say it is coming in the window's place (the same cell of the box's grid),
 *   and the window is there but unseen: when the page comes, nothing moves;
 * - the voucher's paragraphs have no margins: the element's styles reset every p;
 * - a challenge, and a step shown again (runners/resume.ts), are a centred column (`.step`);
 * - Cancel is the secondary action beside the bank's page: outlined in the accent
 *   colour, as wide as its words, where Pay and "Try another card" are filled; so is
 *   another try beside a step shown again (`.step-other`), whose own button leads on;
 * - Safari knows user-select only by its prefixed name.
 */
export const nextStepStyles = css`
  .step {
    display: flex;
    flex-direction: column;
    align-items: center;
    gap: 0.5em;
  }

  .challenge-cancel,
  .step-other {
    width: auto;
    background: transparent;
    color: var(--_accent);
    border: 1px solid currentColor;
  }

  .challenge-box {
    display: grid;
    width: 392px;
    max-width: 100%;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    overflow: hidden;
  }

  .challenge-head {
    margin: calc(0.5em / 0.875) calc(0.75em / 0.875);
    font-size: 0.875em;
    font-weight: 600;
  }

  .challenge-loading,
  .challenge-frame {
    grid-area: 2/1;
  }

  .challenge-loading {
    align-self: center;
    padding: 0.75em;
    text-align: center;
  }

  .challenge-loading:not([hidden]) + .challenge-frame {
    visibility: hidden;
  }

  .challenge-frame {
    display: block;
    width: 100%;
    height: 400px;
    border: 0;
    background: #fff;
  }

  @media (max-width: 480px) {
    .step {
      align-items: stretch;
    }
    .challenge-box {
      width: auto;
    }
  }

  .voucher {
    display: flex;
    flex-direction: column;
    align-items: flex-start;
    gap: 0.5em;
  }

  .voucher-title {
    font-weight: 600;
  }

  .voucher-barcode {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 1em;
    letter-spacing: 0.05em;
    overflow-wrap: anywhere;
    -webkit-user-select: all;
    user-select: all;
  }
`;
