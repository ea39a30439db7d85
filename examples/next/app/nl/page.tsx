import { Checkout } from '../checkout';

// The same checkout in Dutch: `locale` is all it takes. The Dutch strings are a module
// the package imports on demand, which Next.js splits into a chunk of its own: nothing to
// copy, no path to set.
export default function Page() {
  return (
    <main lang="nl">
      <h1>Sandbox-mok</h1>
      <Checkout sku="mug" locale="nl-NL" />
    </main>
  );
}
