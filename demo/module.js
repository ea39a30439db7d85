// The ES module build, imported the way a bundler-based shop would write it.
// The import map in module.html resolves the bare name to the served build.
import 'payment-widget';
