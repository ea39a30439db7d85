import { createApp } from 'vue';
// Registers <payment-widget>.
import 'payment-widget';
import App from './App.vue';

createApp(App).mount('#app');
