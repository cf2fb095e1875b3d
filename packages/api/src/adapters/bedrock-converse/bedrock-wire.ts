import { z } from 'zod';

// What Bedrock Converse sends (zod, lenient: unknown fields pass, every field optional where the API
// could leave it out) and what the adapter builds (plain interfaces).
// @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
// @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStreamOutput.html

/** `usage` of a Converse response or a stream's `metadata` event. */
export const bedrockUsageSchema = z.looseObject({
  inputTokens: z.number().optional(),
  outputTokens: z.number().optional(),
  totalTokens: z.number().optional(),
  cacheReadInputTokens: z.number().optional(),
  cacheWriteInputTokens: z.number().optional(),
});

/** Token counts as Bedrock reports them. */
export type BedrockUsage = z.infer<typeof bedrockUsageSchema>;

/** `messageStart`. */
export const messageStartEventSchema = z.looseObject({ role: z.string().optional() });

/** `contentBlockStart`: only tool use (and server-side blocks) open with one. */
export const contentBlockStartEventSchema = z.looseObject({
  contentBlockIndex: z.number(),
  start: z
    .looseObject({
      toolUse: z.looseObject({ toolUseId: z.string().optional(), name: z.string().optional() }).optional(),
    })
    .optional(),
});

/** `contentBlockDelta`: text, tool input JSON pieces, or reasoning (text, signature, redacted bytes as base64). */
export const contentBlockDeltaEventSchema = z.looseObject({
  contentBlockIndex: z.number(),
  delta: z.looseObject({
    text: z.string().optional(),
    toolUse: z.looseObject({ input: z.string().optional() }).optional(),
    reasoningContent: z
      .looseObject({
        text: z.string().optional(),
        signature: z.string().optional(),
        redactedContent: z.string().optional(),
      })
      .optional(),
  }),
});

/** `contentBlockStop`. */
export const contentBlockStopEventSchema = z.looseObject({ contentBlockIndex: z.number() });

/** `messageStop`. */
export const messageStopEventSchema = z.looseObject({
  stopReason: z.string().optional(),
  additionalModelResponseFields: z.unknown().optional(),
});

/** `metadata`: usage, metrics and (with guardrails) the trace. */
export const metadataEventSchema = z.looseObject({
  usage: bedrockUsageSchema.optional(),
  metrics: z.looseObject({ latencyMs: z.number().optional() }).optional(),
  trace: z.unknown().optional(),
});

/** An exception frame's payload (or an HTTP error body). `modelStreamErrorException` adds the model's own status. */
export const bedrockExceptionSchema = z.looseObject({
  message: z.string().optional(),
  Message: z.string().optional(),
  originalStatusCode: z.number().optional(),
  originalMessage: z.string().optional(),
});

const responseContentBlockSchema = z.looseObject({
  text: z.string().optional(),
  reasoningContent: z
    .looseObject({
      reasoningText: z.looseObject({ text: z.string().optional(), signature: z.string().optional() }).optional(),
      redactedContent: z.string().optional(),
    })
    .optional(),
  toolUse: z
    .looseObject({ toolUseId: z.string().optional(), name: z.string().optional(), input: z.unknown().optional() })
    .optional(),
});

/** The body of a non-streamed Converse response. */
export const converseResponseSchema = z.looseObject({
  output: z
    .looseObject({
      message: z
        .looseObject({ role: z.string().optional(), content: z.array(responseContentBlockSchema).optional() })
        .optional(),
    })
    .optional(),
  stopReason: z.string().optional(),
  usage: bedrockUsageSchema.optional(),
  metrics: z.unknown().optional(),
  additionalModelResponseFields: z.unknown().optional(),
  trace: z.unknown().optional(),
});

/** A non-streamed Converse response. */
export type ConverseResponse = z.infer<typeof converseResponseSchema>;

/**
 * `GET /foundation-models` of the control plane.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_ListFoundationModels.html
 */
export const listFoundationModelsSchema = z.looseObject({
  modelSummaries: z
    .array(
      z.looseObject({
        modelId: z.string(),
        modelName: z.string().optional(),
        providerName: z.string().optional(),
        outputModalities: z.array(z.string()).optional(),
        responseStreamingSupported: z.boolean().optional(),
      }),
    )
    .optional(),
});

// ---- What the adapter sends ----

/** `cachePoint` block: everything before it is a prompt-cache prefix. */
export interface BedrockCachePoint {
  cachePoint: { type: 'default' };
}

/** Image formats Converse takes. */
export type BedrockImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

/** Document formats Converse takes. */
export type BedrockDocumentFormat = 'pdf' | 'csv' | 'doc' | 'docx' | 'xls' | 'xlsx' | 'html' | 'txt' | 'md';

/** Bytes (base64 in JSON) or an S3 object. */
export type BedrockSource = { bytes: string } | { s3Location: { uri: string } };

/** An image block. */
export interface BedrockImageBlock {
  image: { format: BedrockImageFormat; source: BedrockSource };
}

/** Content of a tool result. */
export type BedrockToolResultContent = { text: string } | { json: unknown } | BedrockImageBlock;

/** One content block of a request message. */
export type BedrockContentBlock =
  | { text: string }
  | BedrockImageBlock
  | { document: { format: BedrockDocumentFormat; name: string; source: BedrockSource; context?: string } }
  | { reasoningContent: { reasoningText: { text: string; signature?: string } } }
  | { reasoningContent: { redactedContent: string } }
  | { toolUse: { toolUseId: string; name: string; input: unknown } }
  | { toolResult: { toolUseId: string; content: BedrockToolResultContent[]; status?: 'success' | 'error' } }
  | BedrockCachePoint;

/** A request message. */
export interface BedrockMessage {
  role: 'user' | 'assistant';
  content: BedrockContentBlock[];
}

/** A system block. */
export type BedrockSystemBlock = { text: string } | BedrockCachePoint;

/** A tool as `toolConfig.tools` lists it. */
export type BedrockTool =
  | { toolSpec: { name: string; description?: string; inputSchema: { json: Record<string, unknown> } } }
  | BedrockCachePoint;

/** `toolConfig.toolChoice`. */
export type BedrockToolChoice =
  | { auto: Record<string, never> }
  | { any: Record<string, never> }
  | { tool: { name: string } };

/** `toolConfig`. */
export interface BedrockToolConfig {
  tools: BedrockTool[];
  toolChoice?: BedrockToolChoice;
}

/** The body of a Converse / ConverseStream request (the model id is in the path). */
export interface BedrockConverseRequest {
  messages: BedrockMessage[];
  system?: BedrockSystemBlock[];
  inferenceConfig?: { maxTokens?: number; temperature?: number; topP?: number; stopSequences?: string[] };
  toolConfig?: BedrockToolConfig;
  additionalModelRequestFields?: Record<string, unknown>;
  requestMetadata?: Record<string, string>;
  [field: string]: unknown;
}
