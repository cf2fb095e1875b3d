import { packageTsupConfig } from '../../tsup.config.base.ts';

// The built-in skills (extensions/skills/) ship in dist/builtin-skills/, where builtinSkillsFolder() finds them.
export default packageTsupConfig(['src/index.ts'], { onSuccess: 'node scripts/copy-skills.mjs' });
