#!/usr/bin/env node
// The `payment-sandbox` command: runs the built CLI (built on install by `prepare`).
import '../dist/node/sandbox-cli.js';
