import { createRouter } from '@tanstack/react-router';
import { routeTree } from './routeTree.gen';

// routeTree.gen.ts is written by the build (and `vite dev`) from src/routes.
export function getRouter() {
  return createRouter({ routeTree });
}
