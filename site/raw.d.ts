// `import text from './file?raw'`: a file's text (scripts/build-site.ts bundles it so).
declare module '*?raw' {
  const text: string;
  export default text;
}
