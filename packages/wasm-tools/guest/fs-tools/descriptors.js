// What the component tells a host about its tools (the WIT `describe`). The TypeScript host in
// src/fs-tools/ gives the model its own zod schemas with the same fields.

const string = (description) => ({ type: 'string', description });
const integer = (description, minimum) => ({ type: 'integer', minimum, description });
const boolean = (description) => ({ type: 'boolean', description });

function schema(properties, required) {
  return JSON.stringify({ type: 'object', properties, required, additionalProperties: false });
}

/** The five tools, as WIT tool descriptors. */
export const DESCRIPTORS = [
  {
    name: 'read',
    description:
      'Read a file from the working folder with line numbers; images (png, jpeg, gif, webp) come back as images.',
    inputSchema: schema(
      {
        file_path: string('Path of the file; "/" is the working folder.'),
        offset: integer('1-based line to start at.', 1),
        limit: integer('Most lines to return (default 2000).', 1),
      },
      ['file_path'],
    ),
    permission: 'read-only',
    env: [],
  },
  {
    name: 'write',
    description: 'Create or overwrite a file with the given content, creating missing folders.',
    inputSchema: schema({ file_path: string('Path of the file.'), content: string('The complete new content.') }, [
      'file_path',
      'content',
    ]),
    permission: 'write',
    env: [],
  },
  {
    name: 'edit',
    description: 'Replace an exact string in a file; it must match once unless replace_all is true.',
    inputSchema: schema(
      {
        file_path: string('Path of the file.'),
        old_string: string('The exact text to replace.'),
        new_string: string('The text to put in its place.'),
        replace_all: boolean('Replace every occurrence (default false).'),
      },
      ['file_path', 'old_string', 'new_string'],
    ),
    permission: 'write',
    env: [],
  },
  {
    name: 'glob',
    description: 'Find files by glob pattern, newest first, skipping .gitignore-d files.',
    inputSchema: schema(
      { pattern: string('Glob such as "**/*.ts".'), path: string('Folder to search (default: the working folder).') },
      ['pattern'],
    ),
    permission: 'read-only',
    env: [],
  },
  {
    name: 'grep',
    description: 'Search file contents with a regular expression (RE2 syntax), .gitignore aware.',
    inputSchema: schema(
      {
        pattern: string('Regular expression (RE2 syntax).'),
        path: string('File or folder to search (default: the working folder).'),
        glob: string('Only files matching this glob, e.g. "*.ts".'),
        type: string('Only files of this type, e.g. "ts", "py".'),
        output_mode: {
          type: 'string',
          enum: ['content', 'files_with_matches', 'count'],
          description: 'What to return (default files_with_matches).',
        },
        context_before: integer('Lines before each match (content mode).', 0),
        context_after: integer('Lines after each match (content mode).', 0),
        context: integer('Lines before and after each match (content mode).', 0),
        case_insensitive: boolean('Ignore case.'),
        line_numbers: boolean('Show line numbers (content mode, default true).'),
        head_limit: integer('Most output lines or files (default 250; 0 for no limit).', 0),
        multiline: boolean('Let the pattern span lines ("." matches newlines).'),
      },
      ['pattern'],
    ),
    permission: 'read-only',
    env: [],
  },
];
