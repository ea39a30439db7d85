import { Checkout } from './checkout.tsx';

export default function Page() {
  return (
    <main>
      <h1 id="product-name">Sandbox mug</h1>
      <Checkout sku="mug" />
    </main>
  );
}
