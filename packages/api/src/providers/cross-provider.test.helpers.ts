// Reads the recorded request of each protocol back into one neutral view, so the cross-provider
// matrix can check any target the same way. Named `*.test.*` so the package files leave it out of dist.
import type { ProtocolId } from '@boxagnts/testkit';

/** What a request body says about the conversation, whatever the protocol. */
export interface RequestView {
  /** Visible assistant text, in order. */
  assistantTexts: string[];
  /** Reasoning sent back as reasoning (thinking blocks, `reasoning_content`, thought parts, ...). */
  reasoning: string[];
  /** Tool calls of the assistant turns. */
  calls: Array<{ id: string | undefined; name: string }>;
  /** Tool results of the user turns, with the id and/or function name they answer. */
  results: Array<{ id: string | undefined; name: string | undefined }>;
  /** Images anywhere in the request (user turns and tool results). */
  images: number;
  /** Every string of user content and tool results (to find placeholders). */
  userTexts: string[];
}

type Json = Record<string, unknown>;

function emptyView(): RequestView {
  return { assistantTexts: [], reasoning: [], calls: [], results: [], images: 0, userTexts: [] };
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The view of a recorded request body of `protocol`. */
export function viewRequest(protocol: ProtocolId, body: Json): RequestView {
  switch (protocol) {
    case 'anthropic':
      return viewAnthropic(body);
    case 'openai-chat':
      return viewOpenAIChat(body);
    case 'openai-responses':
      return viewOpenAIResponses(body);
    case 'gemini':
      return viewGemini(body);
    case 'bedrock':
      return viewBedrock(body);
    case 'cohere':
      return viewCohere(body);
    case 'ollama':
      return viewOllama(body);
  }
}

function viewAnthropic(body: Json): RequestView {
  const view = emptyView();
  for (const message of list(body.messages)) {
    const blocks =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : list(message.content);
    for (const block of blocks) {
      if (message.role === 'assistant') {
        if (block.type === 'text') view.assistantTexts.push(String(block.text));
        if (block.type === 'thinking') view.reasoning.push(String(block.thinking));
        if (block.type === 'redacted_thinking') view.reasoning.push(String(block.data));
        if (block.type === 'tool_use') view.calls.push({ id: String(block.id), name: String(block.name) });
        continue;
      }
      if (block.type === 'text') view.userTexts.push(String(block.text));
      if (block.type === 'image') view.images += 1;
      if (block.type === 'tool_result') {
        view.results.push({ id: String(block.tool_use_id), name: undefined });
        const inner = typeof block.content === 'string' ? [{ type: 'text', text: block.content }] : list(block.content);
        for (const part of inner) {
          if (part.type === 'image') view.images += 1;
          if (part.type === 'text') view.userTexts.push(String(part.text));
        }
      }
    }
  }
  return view;
}

function viewOpenAIChat(body: Json): RequestView {
  const view = emptyView();
  for (const message of list(body.messages)) {
    if (message.role === 'assistant') {
      const content = text(message.content);
      if (content !== undefined) view.assistantTexts.push(content);
      const reasoning = text(message.reasoning_content) ?? text(message.reasoning);
      if (reasoning !== undefined) view.reasoning.push(reasoning);
      for (const call of list(message.tool_calls)) {
        view.calls.push({ id: String(call.id), name: String((call.function as Json).name) });
      }
    } else if (message.role === 'tool') {
      view.results.push({ id: String(message.tool_call_id), name: undefined });
      view.userTexts.push(String(message.content));
    } else if (message.role === 'user') {
      const parts =
        typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : list(message.content);
      for (const part of parts) {
        if (part.type === 'image_url') view.images += 1;
        if (part.type === 'text') view.userTexts.push(String(part.text));
      }
    }
  }
  return view;
}

function viewOpenAIResponses(body: Json): RequestView {
  const view = emptyView();
  for (const item of list(body.input)) {
    if (item.type === 'reasoning') {
      for (const part of [...list(item.summary), ...list(item.content)]) view.reasoning.push(String(part.text));
      if (typeof item.encrypted_content === 'string') view.reasoning.push(item.encrypted_content);
    } else if (item.type === 'function_call') {
      view.calls.push({ id: String(item.call_id), name: String(item.name) });
    } else if (item.type === 'function_call_output') {
      view.results.push({ id: String(item.call_id), name: undefined });
      const output = typeof item.output === 'string' ? [{ type: 'input_text', text: item.output }] : list(item.output);
      for (const part of output) {
        if (part.type === 'input_image') view.images += 1;
        if (part.type === 'input_text') view.userTexts.push(String(part.text));
      }
    } else if (item.role === 'assistant') {
      for (const part of list(item.content))
        if (part.type === 'output_text') view.assistantTexts.push(String(part.text));
    } else if (item.role === 'user') {
      for (const part of list(item.content)) {
        if (part.type === 'input_image') view.images += 1;
        if (part.type === 'input_text') view.userTexts.push(String(part.text));
      }
    }
  }
  return view;
}

function viewGemini(body: Json): RequestView {
  const view = emptyView();
  for (const content of list(body.contents)) {
    for (const part of list(content.parts)) {
      if (part.inlineData !== undefined || part.fileData !== undefined) view.images += 1;
      if (content.role === 'model') {
        if (typeof part.text === 'string')
          (part.thought === true ? view.reasoning : view.assistantTexts).push(part.text);
        const call = part.functionCall as Json | undefined;
        if (call !== undefined) view.calls.push({ id: call.id as string | undefined, name: String(call.name) });
        continue;
      }
      if (typeof part.text === 'string') view.userTexts.push(part.text);
      const response = part.functionResponse as Json | undefined;
      if (response !== undefined) {
        view.results.push({ id: response.id as string | undefined, name: String(response.name) });
        view.userTexts.push(JSON.stringify(response.response));
        view.images += list(response.parts).length;
      }
    }
  }
  return view;
}

function viewBedrock(body: Json): RequestView {
  const view = emptyView();
  for (const message of list(body.messages)) {
    for (const block of list(message.content)) {
      if (block.image !== undefined) view.images += 1;
      if (message.role === 'assistant') {
        if (typeof block.text === 'string') view.assistantTexts.push(block.text);
        const reasoning = block.reasoningContent as Json | undefined;
        if (reasoning !== undefined) view.reasoning.push(JSON.stringify(reasoning));
        const call = block.toolUse as Json | undefined;
        if (call !== undefined) view.calls.push({ id: String(call.toolUseId), name: String(call.name) });
        continue;
      }
      if (typeof block.text === 'string') view.userTexts.push(block.text);
      const result = block.toolResult as Json | undefined;
      if (result !== undefined) {
        view.results.push({ id: String(result.toolUseId), name: undefined });
        for (const part of list(result.content)) {
          if (part.image !== undefined) view.images += 1;
          if (typeof part.text === 'string') view.userTexts.push(part.text);
        }
      }
    }
  }
  return view;
}

function viewCohere(body: Json): RequestView {
  const view = emptyView();
  for (const message of list(body.messages)) {
    if (message.role === 'assistant') {
      const plan = text(message.tool_plan);
      if (plan !== undefined) view.assistantTexts.push(plan);
      for (const part of list(message.content)) {
        if (part.type === 'thinking') view.reasoning.push(String(part.thinking));
        if (part.type === 'text') view.assistantTexts.push(String(part.text));
      }
      for (const call of list(message.tool_calls)) {
        view.calls.push({ id: String(call.id), name: String((call.function as Json).name) });
      }
    } else if (message.role === 'tool') {
      view.results.push({ id: String(message.tool_call_id), name: undefined });
      for (const part of list(message.content)) view.userTexts.push(String(part.text));
    } else if (message.role === 'user') {
      const parts =
        typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : list(message.content);
      for (const part of parts) {
        if (part.type === 'image_url') view.images += 1;
        if (part.type === 'text') view.userTexts.push(String(part.text));
      }
    }
  }
  return view;
}

function viewOllama(body: Json): RequestView {
  const view = emptyView();
  for (const message of list(body.messages)) {
    view.images += list(message.images).length;
    if (message.role === 'assistant') {
      const content = text(message.content);
      if (content !== undefined) view.assistantTexts.push(content);
      const thinking = text(message.thinking);
      if (thinking !== undefined) view.reasoning.push(thinking);
      for (const call of list(message.tool_calls)) {
        view.calls.push({ id: call.id as string | undefined, name: String((call.function as Json).name) });
      }
    } else if (message.role === 'tool') {
      view.results.push({ id: message.tool_call_id as string | undefined, name: String(message.tool_name) });
      view.userTexts.push(String(message.content));
    } else if (message.role === 'user') {
      view.userTexts.push(String(message.content));
    }
  }
  return view;
}
