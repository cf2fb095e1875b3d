import { join } from 'node:path';
import { isRecord, readSourceFile } from './read-source.js';

// BoxAgnts ships a `learning` style that this project does not; this is our own wording of it.
const LEARNING_PROMPT =
  'The user is learning. As you work, explain the concepts involved, name the patterns you use and say why you chose each step; prefer a short example to a long description.';

function styleText(name: string, description: string, prompt: string): string {
  const oneLine = description.replace(/[\r\n]+/g, ' ').trim();
  return `---\nname: ${name}\ndescription: ${JSON.stringify(oneLine)}\n---\n${prompt.trim()}\n`;
}

/**
 * The `output-styles/<name>.md` this project reads for a BoxAgnts output style that is not built in
 * here: BoxAgnts' `learning`, or the user's `.boxagnts/output-styles/<name>.md` (`# Label`,
 * description line, prompt) or `.json` (`{name, label, description, prompt}`). A string says why not.
 */
export async function outputStyleFile(state: string, name: string): Promise<{ text: string } | string> {
  const markdown = await readSourceFile(join(state, 'output-styles', `${name}.md`), 256 * 1024);
  if (markdown.ok) {
    const lines = markdown.value.replace(/\r\n/g, '\n').split('\n');
    const description = (lines[1] ?? '').trim();
    const prompt = lines.slice(2).join('\n').trim();
    if (prompt === '') return `.boxagnts/output-styles/${name}.md has no prompt`;
    return { text: styleText(name, description, prompt) };
  }
  const json = await readSourceFile(join(state, 'output-styles', `${name}.json`), 256 * 1024);
  if (json.ok) {
    let value: unknown;
    try {
      value = JSON.parse(json.value);
    } catch {
      return `.boxagnts/output-styles/${name}.json is not valid JSON`;
    }
    if (!isRecord(value) || typeof value.prompt !== 'string' || value.prompt.trim() === '') {
      return `.boxagnts/output-styles/${name}.json has no prompt`;
    }
    return { text: styleText(name, typeof value.description === 'string' ? value.description : '', value.prompt) };
  }
  if (name === 'learning')
    return { text: styleText('learning', 'Explains patterns and decisions as it works.', LEARNING_PROMPT) };
  return `BoxAgnts has no style file for it (.boxagnts/output-styles/${name}.md or .json)`;
}
