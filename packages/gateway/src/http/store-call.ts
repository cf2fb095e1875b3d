import { isStoreError, type StoreError } from '@boxagnts/workspace';
import { GatewayError } from '../gateway-error.js';

/** The API's answer to a store error: not-found and conflict as they are, bad input a 400, the rest internal. */
export function gatewayErrorOfStoreError(error: StoreError): GatewayError {
  const reason =
    error.reason === 'not-found' || error.reason === 'conflict'
      ? error.reason
      : error.reason === 'invalid-input'
        ? 'invalid-request'
        : 'internal';
  return new GatewayError({ reason, message: error.message, cause: error });
}

/** Runs a store call, turning a store error into the API's error shape. */
export async function storeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isStoreError(error)) throw gatewayErrorOfStoreError(error);
    throw error;
  }
}
