// The browser's side: hydrates the server's HTML with React's development build (which
// reports every hydration mismatch), in StrictMode, a frame after the element upgraded:
// whatever the widget wrote on its host by then (while it loads) is in the DOM that
// hydration compares with the server's HTML. `window.hydrated` says when it is done.
import { hydrateRoot } from 'react-dom/client';
import { type PageName, page } from './app.ts';

const root = document.getElementById('root') as HTMLElement;
const name = root.dataset.page as PageName;

function hydrate(): void {
  hydrateRoot(root, page(name, root.dataset.checkout), {
    onRecoverableError: (error) => console.error(`recoverable: ${String(error)}`),
  });
}

requestAnimationFrame(hydrate);
