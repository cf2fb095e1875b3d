/** One parsed Server-Sent Event. */
export interface SseMessage {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

/**
 * Reads SSE messages from a fetch response until `stop` says so or the stream ends; comment lines
 * (heartbeats) are counted, not returned.
 */
export async function readSse(
  response: Response,
  stop: (message: SseMessage) => boolean = () => false,
): Promise<{ messages: SseMessage[]; comments: number }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const messages: SseMessage[] = [];
  let comments = 0;
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      const message: SseMessage = { id: undefined, event: undefined, data: '' };
      let isComment = true;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        isComment = false;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') message.id = text;
        else if (field === 'event') message.event = text;
        else if (field === 'data') message.data = message.data === '' ? text : `${message.data}\n${text}`;
      }
      if (isComment) {
        comments++;
        continue;
      }
      messages.push(message);
      if (stop(message)) {
        await reader.cancel();
        return { messages, comments };
      }
    }
  }
  return { messages, comments };
}
