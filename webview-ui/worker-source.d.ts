// `import source from './x?worker'`: esbuild.js builds x.ts as a worker bundle and gives it as text.
declare module '*?worker' {
  const source: string;
  export default source;
}
