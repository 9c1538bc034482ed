// jsdom lacks the Fetch API. The app and react-router need fetch, Request, Response and Headers,
// and a Request built with an AbortSignal must receive Node's own AbortSignal, so this environment
// hands the jsdom window Node's implementations of those globals.
import { TestEnvironment } from 'jest-environment-jsdom';

const fromNode = [
  'fetch',
  'Request',
  'Response',
  'Headers',
  'AbortController',
  'AbortSignal',
  'TextEncoder',
  'TextDecoder',
  'ReadableStream',
  'TransformStream',
  'WritableStream',
  'structuredClone',
];

export default class JsdomWithFetchEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of fromNode) {
      if (globalThis[name] !== undefined) this.global[name] = globalThis[name];
    }
  }
}
