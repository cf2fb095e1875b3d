import { describe, expect, it } from 'vitest';
import { parseSkillFrontmatter, splitFrontmatter } from './skill-frontmatter.js';

describe('splitFrontmatter', () => {
  it('splits the YAML from the body', () => {
    expect(splitFrontmatter('---\nname: a\n---\n# Body\n')).toEqual({ yaml: 'name: a', body: '# Body\n' });
  });

  it('accepts CRLF line ends, a BOM and an empty block', () => {
    expect(splitFrontmatter('\uFEFF---\r\nname: a\r\n---\r\nbody')).toEqual({ yaml: 'name: a', body: 'body' });
    expect(splitFrontmatter('---\n---\nbody')).toEqual({ yaml: '', body: 'body' });
  });

  it('returns null without an opening or closing line', () => {
    expect(splitFrontmatter('# no frontmatter')).toBeNull();
    expect(splitFrontmatter('---\nname: a\n')).toBeNull();
  });

  it('does not close on a "---" that is part of a longer line', () => {
    expect(splitFrontmatter('---\nname: a\n----\nmore: b\n---\nbody')).toEqual({
      yaml: 'name: a\n----\nmore: b',
      body: 'body',
    });
  });
});

describe('parseSkillFrontmatter', () => {
  it('reads the Agent Skills fields', () => {
    const parsed = parseSkillFrontmatter(
      'name: pdf-tools\ndescription: Work with PDFs.\nlicense: MIT\ncompatibility: needs python3\nallowed-tools: read bash\nmetadata:\n  version: 1.0\n  author: me',
    );
    expect(parsed).toEqual({
      ok: true,
      frontmatter: {
        name: 'pdf-tools',
        description: 'Work with PDFs.',
        license: 'MIT',
        compatibility: 'needs python3',
        'allowed-tools': ['read', 'bash'],
        metadata: { version: '1', author: 'me' },
      },
    });
  });

  it('reads the BoxAgnts fields and defaults `required` to false', () => {
    const parsed = parseSkillFrontmatter(
      'name: x\ndescription: d\nwhen_to_use: always\ntools: [read, grep]\nargs:\n  - name: target\n    required: true\n  - name: focus\n    description: what to weigh',
    );
    expect(parsed.ok && parsed.frontmatter).toMatchObject({
      when_to_use: 'always',
      tools: ['read', 'grep'],
      args: [
        { name: 'target', required: true },
        { name: 'focus', description: 'what to weigh', required: false },
      ],
    });
  });

  it('ignores unknown keys', () => {
    const parsed = parseSkillFrontmatter('name: x\ndescription: d\nmodel: big\nuser-invocable: true');
    expect(parsed).toEqual({ ok: true, frontmatter: { name: 'x', description: 'd' } });
  });

  it.each([
    ['name: [unclosed', /invalid YAML frontmatter/],
    ['- a\n- b', /must be a YAML mapping/],
    ['description: d', /"name" Invalid input/],
    ['name: x', /"description" Invalid input/],
    ['name: x\ndescription: "  "', /"description" must not be empty/],
    ['name: Bad_Name\ndescription: d', /"name" must use lowercase letters/],
    ['name: -x\ndescription: d', /"name" must use lowercase/],
    [`name: ${'a'.repeat(65)}\ndescription: d`, /"name" must be at most 64/],
    [`name: x\ndescription: ${'d'.repeat(1025)}`, /"description" must be at most 1024/],
    ['name: x\ndescription: d\nargs: target', /"args" Invalid input/],
    ['name: x\ndescription: d\nargs:\n  - name: my-arg', /"args.0.name" must be a letter/],
    ['name: x\ndescription: d\nargs:\n  - name: a\n    required: "yes"', /"args.0.required"/],
    ['name: x\ndescription: 42', /"description" Invalid input/],
  ])('rejects %j', (yaml, problem) => {
    const parsed = parseSkillFrontmatter(yaml);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problem).toMatch(problem);
  });
});
