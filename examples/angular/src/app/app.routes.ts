import type { Routes } from '@angular/router';
import { Checkout } from './checkout';
import { Result } from './result';

export const routes: Routes = [
  { path: '', component: Checkout },
  { path: 'result', component: Result },
];
