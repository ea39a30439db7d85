import { css } from 'lit';

/**
 * Styles for what the next-step handlers render into the element's shadow
 * root; the element adds this to its `static styles`.
 */
export const nextStepStyles = css`
  .challenge {
    display: flex;
    flex-direction: column;
    align-items: center;
    gap: 0.5rem;
  }

  /* EMVCo's 390x400 challenge window, never wider than the widget. */
  .challenge-frame {
    display: block;
    width: 390px;
    height: 400px;
    max-width: 100%;
    border: 0;
    background: #fff;
  }

  /* Small screens: the challenge takes the full width, as EMVCo allows. */
  @media (max-width: 480px) {
    .challenge {
      align-items: stretch;
    }
    .challenge-frame {
      width: 100%;
    }
  }

  .voucher {
    display: flex;
    flex-direction: column;
    align-items: flex-start;
    gap: 0.5rem;
  }

  /* Its paragraphs have no margins: the element's styles reset every p. */

  .voucher-title {
    font-weight: 600;
  }

  .voucher-barcode {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 1rem;
    letter-spacing: 0.05em;
    overflow-wrap: anywhere;
    /* Safari knows only the prefixed name. */
    -webkit-user-select: all;
    user-select: all;
  }
`;
