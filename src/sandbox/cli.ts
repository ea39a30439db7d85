// Placeholder until the sandbox lands.
console.log('payment-sandbox: not built yet');
