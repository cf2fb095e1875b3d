#!/usr/bin/env node
// Removes the package's dist/ before a build, so files of an earlier build (test declarations from before
// the build tsconfig left tests out, outputs of deleted sources) never reach a tarball. Run from a package.
import { rmSync } from 'node:fs';
import { join } from 'node:path';

rmSync(join(process.cwd(), 'dist'), { recursive: true, force: true });
