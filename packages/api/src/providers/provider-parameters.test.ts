import { describe, expect, it } from 'vitest';
import { isProviderConfigurationError } from './provider-configuration-error.js';
import { fillBaseURL, findParameter, missingParameters, resolveParameters } from './provider-parameters.js';

const entry = {
  id: 'azure-openai',
  parameters: {
    resource: {
      envVars: ['AZURE_OPENAI_RESOURCE_NAME', 'AZURE_RESOURCE_NAME'],
      description: 'the Azure resource name',
    },
    apiVersion: { envVars: ['AZURE_OPENAI_API_VERSION'], default: '2024-10-21', description: 'the API version' },
  },
};

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('provider parameters', () => {
  it('takes the explicit value, then the first non-blank variable, then the default', () => {
    const env = { AZURE_OPENAI_RESOURCE_NAME: '  ', AZURE_RESOURCE_NAME: 'from-env' };
    expect(findParameter(entry, 'resource', { resource: 'explicit' }, env)).toBe('explicit');
    expect(findParameter(entry, 'resource', undefined, env)).toBe('from-env');
    expect(findParameter(entry, 'apiVersion', undefined, env)).toBe('2024-10-21');
    expect(findParameter(entry, 'resource', undefined, {})).toBeUndefined();
  });

  it('lists the parameters that have no value', () => {
    expect(missingParameters(entry, undefined, {})).toEqual(['resource']);
    expect(missingParameters(entry, { resource: 'r' }, {})).toEqual([]);
  });

  it('names the option and every variable when a required parameter is missing', () => {
    const error = thrown(() => resolveParameters(entry, undefined, {}));
    expect(isProviderConfigurationError(error)).toBe(true);
    expect((error as Error).message).toBe(
      'Provider "azure-openai" needs its resource (the Azure resource name): pass `parameters: { resource: \'…\' }` or set one of the environment variables AZURE_OPENAI_RESOURCE_NAME, AZURE_RESOURCE_NAME.',
    );
  });

  it('refuses a parameter the row does not have', () => {
    const error = thrown(() => resolveParameters(entry, { resourse: 'typo' }, {}));
    expect((error as Error).message).toContain('has no parameter "resourse"; it takes resource, apiVersion');
  });

  it('fills placeholders URI-encoded and refuses unknown ones', () => {
    expect(
      fillBaseURL(
        'https://{resource}.openai.azure.com/openai/deployments/{model}',
        { resource: 'r', model: 'a b' },
        'x',
      ),
    ).toBe('https://r.openai.azure.com/openai/deployments/a%20b');
    expect((thrown(() => fillBaseURL('https://{host}/v1', {}, 'x')) as Error).message).toContain('placeholder {host}');
  });
});
