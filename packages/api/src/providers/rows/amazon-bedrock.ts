import type { ProviderEntry } from '../provider-entry.js';

/**
 * Amazon Bedrock over the Converse API at `https://bedrock-runtime.{region}.amazonaws.com`. A
 * Bedrock API key (`AWS_BEARER_TOKEN_BEDROCK`, sent as a bearer token) wins over SigV4 with
 * `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` (/ `AWS_SESSION_TOKEN`), as in the AWS SDKs; other
 * credential sources: `settings: {credentials}` (an object or a function, e.g. from
 * `@aws-sdk/credential-providers`). The region is a parameter (`region` option, `AWS_REGION`,
 * `AWS_DEFAULT_REGION`); there is no default, as in the AWS SDKs. Model ids are Bedrock ids or
 * inference profiles (`us.anthropic.…`).
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/api-keys-use.html
 */
export const amazonBedrockProvider: ProviderEntry = {
  id: 'amazon-bedrock',
  name: 'Amazon Bedrock',
  adapter: 'bedrock-converse',
  parameters: {
    region: { envVars: ['AWS_REGION', 'AWS_DEFAULT_REGION'], description: 'the AWS region, e.g. us-east-1' },
  },
  configure: ({ parameters }) => (parameters.region === undefined ? {} : { region: parameters.region }),
  apiKeyEnvVars: ['AWS_BEARER_TOKEN_BEDROCK'],
  alternativeCredentialEnvVars: [['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']],
  authStyle: 'sigv4',
  docsURL: 'https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html',
  notes:
    'Bedrock API key (bearer) or SigV4 from the AWS variables or settings.credentials; region from the region option or AWS_REGION; prompt-cache points only for models known to take them.',
  modelsDevId: 'amazon-bedrock',
  defaultModel: 'us.anthropic.claude-sonnet-4-6',
};
