import { z } from 'zod';

/**
 * Wire types of Gemini `generateContent` / `streamGenerateContent` (Gemini API and Vertex AI).
 * Requests are built by this adapter, so they are plain interfaces; responses cross a trust boundary,
 * so they are lenient zod schemas: unknown fields pass through, every field is optional, and a value
 * of an unexpected type fails only that chunk.
 *
 * @see https://ai.google.dev/api/generate-content
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/GenerateContentResponse
 */

/** One piece of content in a request. */
export type GeminiRequestPart =
  | { text: string; thought?: boolean; thoughtSignature?: string }
  | { inlineData: { mimeType: string; data: string } }
  | { fileData: { fileUri: string; mimeType?: string } }
  | { functionCall: { id?: string; name: string; args: Record<string, unknown> }; thoughtSignature?: string }
  | {
      functionResponse: {
        id?: string;
        name: string;
        response: Record<string, unknown>;
        /** Gemini 3: images returned by the function. */
        parts?: Array<{ inlineData: { mimeType: string; data: string; displayName?: string } }>;
      };
    };

/** A turn of the conversation. */
export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiRequestPart[];
}

/** A function the model may call. Exactly one of `parameters` (OpenAPI subset) or `parametersJsonSchema`. */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parameters?: Record<string, unknown>;
  parametersJsonSchema?: Record<string, unknown>;
}

/** `toolConfig.functionCallingConfig`. @see https://ai.google.dev/api/caching#FunctionCallingConfig */
export interface GeminiToolConfig {
  functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] };
}

/** `generationConfig.thinkingConfig`. @see https://ai.google.dev/gemini-api/docs/thinking */
export interface GeminiThinkingConfig {
  thinkingBudget?: number;
  thinkingLevel?: 'minimal' | 'low' | 'medium' | 'high';
  includeThoughts?: boolean;
}

/** The request body of `generateContent`. */
export interface GeminiRequestBody {
  contents: GeminiContent[];
  systemInstruction?: { parts: Array<{ text: string }> };
  tools?: Array<{ functionDeclarations: GeminiFunctionDeclaration[] }>;
  toolConfig?: GeminiToolConfig;
  generationConfig?: {
    maxOutputTokens?: number;
    temperature?: number;
    topP?: number;
    stopSequences?: string[];
    thinkingConfig?: GeminiThinkingConfig;
  };
  /** Vertex AI only: billing labels. */
  labels?: Record<string, string>;
  [key: string]: unknown;
}

const partialArgSchema = z.looseObject({
  jsonPath: z.string().optional(),
  stringValue: z.string().optional(),
  numberValue: z.number().optional(),
  boolValue: z.boolean().optional(),
  nullValue: z.unknown().optional(),
  willContinue: z.boolean().optional(),
});

/** A streamed piece of a function call's arguments (Vertex AI, Gemini 3). */
export type GeminiPartialArg = z.infer<typeof partialArgSchema>;

const functionCallSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  /** An object; a broken server may send a string (kept so it can be reported). */
  args: z.unknown().optional(),
  partialArgs: z.array(partialArgSchema).optional(),
  willContinue: z.boolean().optional(),
});

/** A function call part as the model sent it. */
export type GeminiFunctionCall = z.infer<typeof functionCallSchema>;

const responsePartSchema = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
  functionCall: functionCallSchema.optional(),
});

/** One part of a candidate's content. */
export type GeminiResponsePart = z.infer<typeof responsePartSchema>;

/** `usageMetadata`. @see https://ai.google.dev/api/generate-content#UsageMetadata */
export const geminiUsageMetadataSchema = z.looseObject({
  promptTokenCount: z.number().optional(),
  cachedContentTokenCount: z.number().optional(),
  candidatesTokenCount: z.number().optional(),
  toolUsePromptTokenCount: z.number().optional(),
  thoughtsTokenCount: z.number().optional(),
  totalTokenCount: z.number().optional(),
});

/** Token counts of a response. */
export type GeminiUsageMetadata = z.infer<typeof geminiUsageMetadataSchema>;

/** A google.rpc.Status error object, as an error body or an in-stream `data:` payload. */
export const geminiErrorSchema = z.looseObject({
  code: z.number().optional(),
  message: z.string().optional(),
  status: z.string().optional(),
  details: z.array(z.unknown()).optional(),
});

/** One `GenerateContentResponse`: a whole response, or one chunk of a stream. */
export const geminiResponseSchema = z.looseObject({
  candidates: z
    .array(
      z.looseObject({
        content: z
          .looseObject({ role: z.string().optional(), parts: z.array(responsePartSchema).optional() })
          .optional(),
        finishReason: z.string().optional(),
        finishMessage: z.string().optional(),
        index: z.number().optional(),
      }),
    )
    .optional(),
  promptFeedback: z.looseObject({ blockReason: z.string().optional() }).optional(),
  usageMetadata: geminiUsageMetadataSchema.optional(),
  modelVersion: z.string().optional(),
  responseId: z.string().optional(),
  /** Present only when the server reports a failure inside a stream. */
  error: geminiErrorSchema.optional(),
});

/** A parsed `GenerateContentResponse`. */
export type GeminiResponse = z.infer<typeof geminiResponseSchema>;

/** `GET models` (Gemini API). @see https://ai.google.dev/api/models#method:-models.list */
export const geminiModelListSchema = z.looseObject({
  models: z
    .array(
      z.looseObject({
        name: z.string(),
        displayName: z.string().optional(),
        inputTokenLimit: z.number().optional(),
        outputTokenLimit: z.number().optional(),
        supportedGenerationMethods: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  nextPageToken: z.string().optional(),
});

/** `GET publishers/google/models` (Vertex AI, v1beta1). */
export const vertexModelListSchema = z.looseObject({
  publisherModels: z.array(z.looseObject({ name: z.string(), versionId: z.string().optional() })).optional(),
  nextPageToken: z.string().optional(),
});
