#!/usr/bin/env node
// The `payment-sandbox` command: runs the built CLI.
import '../dist/node/sandbox-cli.js';
