// Builds one component with componentize-js in a process of its own (run by
// src/runtime/http-components.test-support.ts): a build keeps a core busy for 40-90 s and blocks
// its thread, which must not be a test worker's. Arguments: source, WIT folder, world, output.
//
// componentize-js reads the WIT and its engine through its splicer, a transpiled component that
// uses the preview2-shim module it resolves; from 0.26 that shim preopens nothing by default (it
// used to preopen `/`), so the splicer finds no file ("os error 44"). This process preopens `/`
// for it: a build tool running on the developer's own files, never a guest of the runtime.
import { rename, writeFile } from 'node:fs/promises';
import { _setPreopens } from '@bytecodealliance/preview2-shim/filesystem';

const [sourcePath, witPath, worldName, output] = process.argv.slice(2);
_setPreopens({ '/': '/' });
const { componentize } = await import('@bytecodealliance/componentize-js');
const { component } = await componentize({ sourcePath, witPath, worldName });
const staging = `${output}.${process.pid}`;
await writeFile(staging, component);
await rename(staging, output);
