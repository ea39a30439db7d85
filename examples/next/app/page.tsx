import { Checkout } from './checkout';

export default function Page() {
  return (
    <main>
      <h1>Sandbox mug</h1>
      <Checkout sku="mug" />
    </main>
  );
}
