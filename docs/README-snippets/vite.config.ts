import { defineConfig } from 'vite';

// The app on Vite's dev server (http://localhost:5173), the payment handler on your backend
// (http://127.0.0.1:3000): the dev server passes /payments on, so the page calls its own
// origin, and the backend sees the browser's Origin, http://localhost:5173, which its
// allowedOrigins must list in development.
export default defineConfig({
  server: {
    proxy: {
      '/payments': { target: 'http://127.0.0.1:3000', changeOrigin: false },
    },
  },
});
