import type { Sha256 } from '@aws-crypto/sha256-js';
import type { SignatureV4 } from '@smithy/signature-v4';
import { createLlmError } from '../../spec/create-llm-error.js';
import type { LlmError } from '../../spec/llm-error.js';
import { AuthenticationError, MissingApiKeyError } from '../../spec/llm-error-classes.js';

/** Static AWS credentials (an access key pair, with a session token for temporary ones). */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** Returns credentials when a request is made, e.g. `fromNodeProviderChain()` of `@aws-sdk/credential-providers`. */
export type AwsCredentialsProvider = () => Promise<AwsCredentials>;

/** How a request to Bedrock is authenticated. */
export type BedrockAuth =
  | { type: 'bearer'; token: string }
  | { type: 'sigv4'; credentials: AwsCredentials }
  | { type: 'none' };

/** The settings {@link resolveBedrockAuth} and {@link resolveBedrockRegion} read. */
export interface BedrockAuthSettings {
  providerId: string;
  apiKey?: string;
  apiKeyEnvVars?: readonly string[];
  noApiKey?: boolean;
  credentials?: AwsCredentials | AwsCredentialsProvider;
  region?: string;
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Bedrock API keys are sent as `Authorization: Bearer`; the AWS SDKs read them from this variable.
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/api-keys-use.html
 */
export const BEDROCK_API_KEY_ENV_VARS: readonly string[] = ['AWS_BEARER_TOKEN_BEDROCK'];

/** The variables of the AWS SDKs' environment credential provider. */
export const AWS_CREDENTIAL_ENV_VARS = {
  accessKeyId: 'AWS_ACCESS_KEY_ID',
  secretAccessKey: 'AWS_SECRET_ACCESS_KEY',
  sessionToken: 'AWS_SESSION_TOKEN',
} as const;

/** Where the region comes from when `region` is not passed, in order. */
export const AWS_REGION_ENV_VARS: readonly string[] = ['AWS_REGION', 'AWS_DEFAULT_REGION'];

function read(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/**
 * Decides how to authenticate, at request time (never at creation): the explicit `apiKey` (a Bedrock
 * API key, sent as a bearer token), then explicit `credentials` (SigV4), then the environment: a
 * Bedrock API key in `AWS_BEARER_TOKEN_BEDROCK` wins over `AWS_ACCESS_KEY_ID` /
 * `AWS_SECRET_ACCESS_KEY` / `AWS_SESSION_TOKEN`, as in the AWS SDKs. Throws a
 * {@link MissingApiKeyError} naming every variable when nothing is found. Secrets are never logged.
 */
export async function resolveBedrockAuth(settings: BedrockAuthSettings): Promise<BedrockAuth> {
  if (settings.noApiKey === true) return { type: 'none' };
  const explicitKey = settings.apiKey?.trim();
  if (explicitKey !== undefined && explicitKey !== '') return { type: 'bearer', token: explicitKey };
  if (settings.credentials !== undefined) {
    return { type: 'sigv4', credentials: await loadCredentials(settings.credentials, settings.providerId) };
  }
  const env = settings.env ?? process.env;
  const keyVariables = settings.apiKeyEnvVars ?? BEDROCK_API_KEY_ENV_VARS;
  for (const name of keyVariables) {
    const token = read(env, name);
    if (token !== undefined) return { type: 'bearer', token };
  }
  const accessKeyId = read(env, AWS_CREDENTIAL_ENV_VARS.accessKeyId);
  const secretAccessKey = read(env, AWS_CREDENTIAL_ENV_VARS.secretAccessKey);
  if (accessKeyId !== undefined && secretAccessKey !== undefined) {
    const sessionToken = read(env, AWS_CREDENTIAL_ENV_VARS.sessionToken);
    return {
      type: 'sigv4',
      credentials: { accessKeyId, secretAccessKey, ...(sessionToken === undefined ? {} : { sessionToken }) },
    };
  }
  if (accessKeyId !== undefined || secretAccessKey !== undefined) {
    const missing =
      accessKeyId === undefined ? AWS_CREDENTIAL_ENV_VARS.accessKeyId : AWS_CREDENTIAL_ENV_VARS.secretAccessKey;
    throw new MissingApiKeyError({
      providerId: settings.providerId,
      envVarNames: [missing],
      optionName: 'credentials',
    });
  }
  throw new MissingApiKeyError({
    providerId: settings.providerId,
    envVarNames: [...keyVariables, AWS_CREDENTIAL_ENV_VARS.accessKeyId, AWS_CREDENTIAL_ENV_VARS.secretAccessKey],
    optionName: 'apiKey` (a Bedrock API key) or `credentials',
  });
}

async function loadCredentials(
  source: AwsCredentials | AwsCredentialsProvider,
  providerId: string,
): Promise<AwsCredentials> {
  let credentials: AwsCredentials;
  try {
    credentials = typeof source === 'function' ? await source() : source;
  } catch (error) {
    throw new AuthenticationError({
      providerId,
      isRetryable: false,
      cause: error,
      message: `The AWS credentials provider of provider "${providerId}" failed: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
  if (!credentials?.accessKeyId || !credentials.secretAccessKey) {
    throw new AuthenticationError({
      providerId,
      isRetryable: false,
      message: `The AWS credentials of provider "${providerId}" lack an accessKeyId or secretAccessKey.`,
    });
  }
  return credentials;
}

/**
 * The AWS region: the `region` setting, else `AWS_REGION`, else `AWS_DEFAULT_REGION`; an
 * `invalid_request` error naming them when none is set.
 */
export function resolveBedrockRegion(settings: BedrockAuthSettings): string {
  const explicit = settings.region?.trim();
  if (explicit !== undefined && explicit !== '') return explicit;
  const env = settings.env ?? process.env;
  for (const name of AWS_REGION_ENV_VARS) {
    const value = read(env, name);
    if (value !== undefined) return value;
  }
  throw missingRegionError(settings.providerId);
}

function missingRegionError(providerId: string): LlmError {
  return createLlmError({
    reason: 'invalid_request',
    isRetryable: false,
    providerId,
    message: `No AWS region for provider "${providerId}": pass the \`region\` option or set ${AWS_REGION_ENV_VARS.join(' or ')}.`,
  });
}

/** One request to sign. */
export interface SignableRequest {
  method: string;
  url: URL;
  /** Header names in lower case; they are sent exactly as signed. */
  headers: Record<string, string>;
  body?: string;
}

/**
 * Signs a request with SigV4 for the `bedrock` service and returns the headers to send (the given
 * ones plus `authorization`, `x-amz-date`, `x-amz-content-sha256` and, for temporary credentials,
 * `x-amz-security-token`). The path is signed as sent, already URI-encoded once; the signer encodes
 * it a second time, as SigV4 requires for every service but S3 (a model ARN's `%3A` becomes `%253A`
 * in the canonical request).
 *
 * @see https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html
 */
let sigV4Modules: Promise<{ SignatureV4: typeof SignatureV4; Sha256: typeof Sha256 }> | undefined;

/**
 * The SigV4 signer and its hash, imported once on first use (they cost more CPU to import than most of
 * this package, and most apps never sign a Bedrock request). A Bedrock provider starts the import
 * when it is created, so the first request does not wait for it inside its first-byte timer.
 */
export function loadSigV4(): Promise<{ SignatureV4: typeof SignatureV4; Sha256: typeof Sha256 }> {
  sigV4Modules ??= Promise.all([import('@smithy/signature-v4'), import('@aws-crypto/sha256-js')]).then(
    ([signer, hash]) => {
      sigV4Loaded = true;
      return { SignatureV4: signer.SignatureV4, Sha256: hash.Sha256 };
    },
  );
  return sigV4Modules;
}

let sigV4Loaded = false;

/** Whether {@link loadSigV4} has finished (a stream then needs no wait before its first attempt). */
export function isSigV4Loaded(): boolean {
  return sigV4Loaded;
}

export async function signBedrockRequest(
  request: SignableRequest,
  credentials: AwsCredentials,
  region: string,
  signingDate: Date = new Date(),
): Promise<Record<string, string>> {
  const { SignatureV4, Sha256 } = await loadSigV4();
  const signer = new SignatureV4({ service: 'bedrock', region, credentials, sha256: Sha256 });
  const query: Record<string, string> = {};
  for (const [name, value] of request.url.searchParams) query[name] = value;
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: request.url.protocol,
      hostname: request.url.hostname,
      ...(request.url.port === '' ? {} : { port: Number(request.url.port) }),
      path: request.url.pathname,
      query,
      headers: { ...request.headers, host: request.url.host },
      ...(request.body === undefined ? {} : { body: request.body }),
    },
    { signingDate },
  );
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) {
    // fetch sets Host itself, from the same URL, so the signed value is what the server sees.
    if (name.toLowerCase() !== 'host') headers[name] = String(value);
  }
  return headers;
}

/** The headers that authenticate one request: a bearer token, a SigV4 signature, or nothing. */
export async function authenticateBedrockRequest(
  request: SignableRequest,
  auth: BedrockAuth,
  region: () => string,
): Promise<Record<string, string>> {
  switch (auth.type) {
    case 'bearer':
      return { ...request.headers, authorization: `Bearer ${auth.token}` };
    case 'sigv4':
      return signBedrockRequest(request, auth.credentials, region());
    case 'none':
      return { ...request.headers };
  }
}
