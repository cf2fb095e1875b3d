import type { AfterToolHook, BeforeToolHook } from '../types.js';

const COMMAND_PREVIEW = 60;

/** Whether a hook is the shell-command form. */
export function isCommandHook(
  hook: BeforeToolHook | AfterToolHook,
): hook is Extract<BeforeToolHook | AfterToolHook, { command: string }> {
  return typeof (hook as { command?: unknown }).command === 'string';
}

/**
 * A name for a hook in failure reports and error results that lets a user find it in their
 * configuration: its list and position, and the command for command hooks.
 */
export function hookLabel(phase: 'before' | 'after', index: number, hook: BeforeToolHook | AfterToolHook): string {
  const position = `${phase === 'before' ? 'beforeTool' : 'afterTool'}[${index}]`;
  if (!isCommandHook(hook)) return position;
  const command = hook.command.trim().replace(/\s+/g, ' ');
  const preview = command.length > COMMAND_PREVIEW ? `${command.slice(0, COMMAND_PREVIEW - 1)}…` : command;
  return `${position} (${preview})`;
}
