// The browser's side: hydrates the server's HTML with Vue's development build, which reports
// every hydration mismatch in the console.
import { createApp } from './app.ts';

createApp().mount('#app');
