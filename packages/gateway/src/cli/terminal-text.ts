/** C0 and C1 control characters and DEL: what a terminal may read as a command (escape sequences, bells). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Text from a store or file made safe to print on one terminal line: every control character
 * (escape sequences, carriage returns, newlines, bells) is written as its four-hex-digit `\u`
 * escape (`\u001b` for ESC), so a hostile session title or message cannot move the cursor, clear
 * the screen or retitle the window.
 *
 * @example
 * printable('a\u001b[2Jb'); // 'a\\u001b[2Jb'
 */
export function printable(text: string): string {
  return text.replace(CONTROL_CHARACTERS, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
