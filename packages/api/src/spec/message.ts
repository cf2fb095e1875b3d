import type { JsonObject } from './json-value.js';
import type { ProviderMetadata } from './provider-metadata.js';

/** The three conversation roles every protocol can express. */
export type MessageRole = 'system' | 'user' | 'assistant';

/** Fields every content block may carry. */
export interface ContentBlockBase {
  /** Vendor data to replay unchanged on later turns; see {@link ProviderMetadata}. */
  providerMetadata?: ProviderMetadata;
}

/** Plain text. */
export interface TextBlock extends ContentBlockBase {
  type: 'text';
  text: string;
}

/** Inline bytes (base64) or a URL the vendor fetches itself. */
export type MediaSource = { type: 'base64'; data: string; mediaType: string } | { type: 'url'; url: string };

/** An image, as base64 bytes with a media type (`image/png`) or a URL. */
export interface ImageBlock extends ContentBlockBase {
  type: 'image';
  source: MediaSource;
}

/** A document (PDF) given to the model, as base64 bytes or a URL, with an optional title. */
export interface DocumentBlock extends ContentBlockBase {
  type: 'document';
  source: MediaSource;
  title?: string;
  /**
   * What the document is and how the model should use it (not cited). Sent as the vendor's own field
   * where there is one (Anthropic and Bedrock `context`), else as a text part just before the document.
   */
  context?: string;
}

/** Reasoning text the model showed, with the vendor's signature that proves it was not edited. */
export interface ThinkingBlock extends ContentBlockBase {
  type: 'thinking';
  thinking: string;
  /** Anthropic's signature; must be replayed byte for byte with the block. */
  signature?: string;
}

/** Reasoning the vendor encrypted; opaque data replayed unchanged. */
export interface RedactedThinkingBlock extends ContentBlockBase {
  type: 'redacted_thinking';
  data: string;
}

/** Why a tool call's arguments could not be used, so the loop can answer with an error result. */
export interface ToolInputError {
  kind: 'invalid-json' | 'not-an-object' | 'too-large' | 'too-deep';
  /** A sentence the model can read to correct its call. */
  message: string;
  /** The start of the raw argument text as received (bounded), for the error result and logs. */
  rawInput: string;
}

/** The model asks for a tool to run. */
export interface ToolUseBlock extends ContentBlockBase {
  type: 'tool_use';
  /** Vendor id of the call; the matching `tool_result` names it in `toolUseId`. */
  id: string;
  name: string;
  /** Parsed arguments; `{}` when {@link ToolUseBlock.inputError} is set. */
  input: JsonObject;
  /** Set when the arguments the model streamed were not a usable JSON object. */
  inputError?: ToolInputError;
}

/** The outcome of one tool call, sent back in a user message. */
export interface ToolResultBlock extends ContentBlockBase {
  type: 'tool_result';
  toolUseId: string;
  content: string | Array<TextBlock | ImageBlock>;
  isError?: boolean;
}

/** The output of a command the user ran locally (outside the model's tools), shown in the transcript. */
export interface UserLocalCommandOutputBlock extends ContentBlockBase {
  type: 'user_local_command_output';
  /** The command line as the user typed it. */
  command: string;
  /** What it printed (stdout and stderr as the host captured them). */
  output: string;
}

/** A slash command the user invoked (`/review src`), recorded as typed. */
export interface UserCommandBlock extends ContentBlockBase {
  type: 'user_command';
  /** The command's name, without the leading slash. */
  name: string;
  /** Everything typed after the name, unparsed (`''` when nothing was). */
  args: string;
}

/** Something the user asked the agent to remember (`# key: value`), stored as a key and a value. */
export interface UserMemoryInputBlock extends ContentBlockBase {
  type: 'user_memory_input';
  key: string;
  value: string;
}

/** A provider call failed and the host shows it in the transcript (never sent to a model). */
export interface SystemApiErrorBlock extends ContentBlockBase {
  type: 'system_api_error';
  /** The error as shown to the user (already free of secrets). */
  message: string;
  /** Seconds until the host retries, when it does. */
  retrySecs?: number;
}

/** A UI summary that stands for a run of read/search tool calls (their own blocks stay in the history). */
export interface CollapsedReadSearchBlock extends ContentBlockBase {
  type: 'collapsed_read_search';
  /** The tool the collapsed calls used (`read`, `grep`, ...). */
  toolName: string;
  /** The paths (or patterns) the calls touched, in order. */
  paths: string[];
}

/** A task handed to this agent (by a manager agent or the user's task list). */
export interface TaskAssignmentBlock extends ContentBlockBase {
  type: 'task_assignment';
  id: string;
  subject: string;
  description: string;
}

/**
 * Transcript blocks: what a UI shows between turns (commands, memory inputs, API errors, task
 * assignments). They ride in user messages; each adapter converts them to text or leaves them out
 * (the table in the README says which becomes what).
 */
export type TranscriptBlock =
  | UserLocalCommandOutputBlock
  | UserCommandBlock
  | UserMemoryInputBlock
  | SystemApiErrorBlock
  | CollapsedReadSearchBlock
  | TaskAssignmentBlock;

/** Any block of any message. */
export type ContentBlock =
  | TextBlock
  | ImageBlock
  | DocumentBlock
  | ThinkingBlock
  | RedactedThinkingBlock
  | ToolUseBlock
  | ToolResultBlock
  | TranscriptBlock;

/** Blocks a user message may hold. */
export type UserContentBlock = TextBlock | ImageBlock | DocumentBlock | ToolResultBlock | TranscriptBlock;

/** Blocks an assistant message may hold. */
export type AssistantContentBlock = TextBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock;

/** Instructions placed in the conversation (most adapters hoist these into the system prompt). */
export interface SystemMessage {
  role: 'system';
  content: string | TextBlock[];
  providerMetadata?: ProviderMetadata;
}

/** What the user (or the loop, for tool results) says. */
export interface UserMessage {
  role: 'user';
  content: string | UserContentBlock[];
  providerMetadata?: ProviderMetadata;
}

/** What the model said, stored exactly as received and replayed unchanged. */
export interface AssistantMessage {
  role: 'assistant';
  content: AssistantContentBlock[];
  providerMetadata?: ProviderMetadata;
}

/** One turn of a conversation. */
export type Message = SystemMessage | UserMessage | AssistantMessage;
