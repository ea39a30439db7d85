// The page both sides render: Vue's server renderer to HTML, the browser to hydrate it. The
// template is compiled where it runs (Vue's full build), as a Nuxt page's would be at build.
import { createSSRApp, defineComponent } from 'vue';
import '../../../src/index.ts';

const App = defineComponent({
  template: `<payment-widget
    :order="order"
    endpoint="/payments"
    payment-methods="card ideal bancontact"
    @payment-ready="message = 'ready'"
    @payment-success="(event) => (message = 'Paid: ' + event.detail.checkout.id)"
  /><p role="status">{{ message }}</p>`,
  data: () => ({ order: { sku: 'mug' }, message: '' }),
});

export function createApp() {
  const app = createSSRApp(App);
  app.config.compilerOptions.isCustomElement = (tag) => tag === 'payment-widget';
  return app;
}
