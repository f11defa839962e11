/**
 * The jobs of the worker pool (src/platform/worker-pool.server.ts), imported for their declarations.
 * A worker runs the bundle of the function that started it and learns a job's handler by loading the
 * module that declares it. In the one file Netlify's bundler makes of a function, a module reached only
 * through import() (a route group, src/app/api-groups.server.ts) is not evaluated when the file
 * loads, so api-images imports this, statically. The functions we bundle with chunks
 * (scripts/build-functions.ts) need not: a job's chunk runs when the worker imports it. Both modules
 * are small and load their heavy library (sharp, pdf-lib) only when a job runs.
 */
import '../features/images/image-job.server.ts';
import '../features/net-sheet/net-sheet-pdf.server.ts';
