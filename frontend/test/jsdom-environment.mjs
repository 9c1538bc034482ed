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

/**
 * Node's Request for a page whose FormData and File are jsdom's. Node's Request cannot read a
 * jsdom form (in a browser both come from the same place), so a Request made with one keeps it
 * as `formBody`, where the tests' fetch double finds what the page sent.
 */
function requestKeepingJsdomForms(FormData) {
  return class Request extends globalThis.Request {
    constructor(input, init) {
      const form = init?.body instanceof FormData ? init.body : undefined;
      super(input, form ? { ...init, body: undefined } : init);
      if (form) this.formBody = form;
    }
  };
}

export default class JsdomWithFetchEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of fromNode) {
      if (globalThis[name] !== undefined) this.global[name] = globalThis[name];
    }
    this.global.Request = requestKeepingJsdomForms(this.global.FormData);
  }
}
