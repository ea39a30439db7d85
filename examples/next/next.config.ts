import type { NextConfig } from 'next';

const config: NextConfig = {
  reactStrictMode: true,
  // This folder is the app's root, also inside the repository (whose own lock file would
  // otherwise make Next.js take the repository for the app).
  turbopack: { root: import.meta.dirname },
};

export default config;
