import { build } from 'esbuild';
for (const name of process.argv.slice(2)) {
  const { metafile } = await build({ entryPoints: [`netlify/functions/${name}.mts`], bundle: true, packages: 'external', platform: 'node', format: 'esm', target: 'node22', write: false, metafile: true, logLevel: 'silent' });
  const st = new Set(), dy = new Set(); let bytes = 0;
  for (const [file, input] of Object.entries(metafile.inputs)) { bytes += input.bytes; for (const i of input.imports) { if (!i.external || i.path.startsWith('node:')) continue; (i.kind === 'dynamic-import' ? dy : st).add(i.path); } }
  console.log(name, Object.keys(metafile.inputs).length, 'files', (bytes/1024).toFixed(0), 'KB; static:', [...st].join(' '), '| dynamic:', [...dy].join(' '));
}
