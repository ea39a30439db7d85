// https://nuxt.com/docs/api/nuxt-config
export default defineNuxtConfig({
  compatibilityDate: '2026-11-01',
  devtools: { enabled: false },
  // <payment-widget> is a custom element: Vue's compiler leaves it to the browser.
  vue: {
    compilerOptions: { isCustomElement: (tag) => tag === 'payment-widget' },
  },
});
