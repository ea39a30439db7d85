#!/usr/bin/env node
// The `payment-widget` command (`payment-widget check-page URL`): runs the built CLI.
import '../dist/node/check-page-cli.js';
