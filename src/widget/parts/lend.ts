// Where the script-tag build lends its kit (./kit.ts) to the parts it loads from beside it:
// one registered symbol on the global object, as a bundler's runtime shares modules between
// the files it splits a classic script into.
export const KIT: symbol = Symbol.for('payment-widget.kit');
