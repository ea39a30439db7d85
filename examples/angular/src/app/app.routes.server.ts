import { RenderMode, type ServerRoute } from '@angular/ssr';

// Rendered per request, not prerendered: each page comes with the basket's cookie
// (src/server.ts), so its checkout is the basket's.
export const serverRoutes: ServerRoute[] = [{ path: '**', renderMode: RenderMode.Server }];
