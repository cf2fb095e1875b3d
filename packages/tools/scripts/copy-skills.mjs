// Runs after tsup: copies the repository's built-in skills (extensions/skills/) into dist/builtin-skills/ (not dist/skills/: the declarations of src/skills/ are there), where
// `builtinSkillsFolder()` finds them in the installed package.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(packageRoot, '..', '..', 'extensions', 'skills');
const target = join(packageRoot, 'dist', 'builtin-skills');
if (!existsSync(join(source, 'code-review', 'SKILL.md'))) {
  throw new Error(`copy-skills: no built-in skills at ${source}`);
}
rmSync(target, { recursive: true, force: true });
cpSync(source, target, { recursive: true });
