// Turns this page into a browser without constructable stylesheets. Lit decides
// how to style once, when it loads: import this first, in a test file of its own
// (each test file gets a fresh page).
import { removeConstructableStylesheets } from '../../shared/no-constructable-stylesheets.ts';

removeConstructableStylesheets();
