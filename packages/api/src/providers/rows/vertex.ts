import { VERTEX_ACCESS_TOKEN_ENV_VARS } from '../../adapters/gemini/gemini-provider.js';
import type { ProviderEntry } from '../provider-entry.js';

/**
 * Gemini on Vertex AI: the same protocol on
 * `https://{location}-aiplatform.googleapis.com/v1/projects/{project}/locations/{location}/publishers/google`
 * (`aiplatform.googleapis.com` for `global`), with an OAuth access token as `Authorization: Bearer`.
 * Project and location come from `parameters` or `GOOGLE_VERTEX_PROJECT` / `GOOGLE_CLOUD_PROJECT` and
 * `GOOGLE_VERTEX_LOCATION` / `GOOGLE_CLOUD_LOCATION`; the location defaults to `us-central1`, the
 * default of Google's Vertex SDK. The package does not run Google's credential chain: pass a token,
 * or better a function returning a fresh one, as `settings: {vertex: {accessToken}}`, or set
 * `GOOGLE_VERTEX_ACCESS_TOKEN` (`gcloud auth print-access-token`, valid about an hour).
 *
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/reference/nodejs/latest/vertexai/vertexinit
 */
export const vertexProvider: ProviderEntry = {
  id: 'vertex',
  name: 'Google Vertex AI (Gemini)',
  adapter: 'gemini',
  parameters: {
    project: {
      envVars: ['GOOGLE_VERTEX_PROJECT', 'GOOGLE_CLOUD_PROJECT'],
      description: 'the Google Cloud project id',
    },
    location: {
      envVars: ['GOOGLE_VERTEX_LOCATION', 'GOOGLE_CLOUD_LOCATION'],
      default: 'us-central1',
      description: 'the Vertex AI region, or global',
    },
  },
  configure: ({ parameters }) => ({
    vertex: { project: parameters.project ?? '', location: parameters.location ?? 'us-central1' },
  }),
  apiKeyEnvVars: VERTEX_ACCESS_TOKEN_ENV_VARS,
  authStyle: 'bearer',
  docsURL: 'https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference',
  notes:
    'OAuth access token (settings.vertex.accessToken, ideally a function, or GOOGLE_VERTEX_ACCESS_TOKEN); project and location parameters, location us-central1 by default.',
  modelsDevId: 'google-vertex',
  defaultModel: 'gemini-2.5-flash',
};
